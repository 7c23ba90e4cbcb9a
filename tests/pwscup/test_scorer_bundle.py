"""The round scored by the organizer's program in a competition bundle: its settings, both
phases with their limits, the program and the data packs travel; export → import → export
gives the same settings and files; the program's build is queued again; a broken manifest
is refused by the setting's path or the file's role, and nothing is kept."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions.models import Competition, Phase
from pwscup.kinds.bundles import RoundEntry
from pwscup.scorer import bundle, selectors, services
from pwscup.scorer.models import DataPack, ProgramVersion, ScorerRound
from pwscup.submissions.models import Status
from scoring.scorer.demo import demo_program_zip
from tests.pwscup.bundle_helpers import START, creator, manifest_of, members_of, rebuilt
from tests.pwscup.scorer_world import (
    CONFIG,
    attack,
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
    upload_file,
    zipped,
)

pytestmark = pytest.mark.django_db

SETTINGS = {
    **CONFIG,
    "visibility": "band",
    "bands": [0.2, 0.6],
    "protection_rule": "mean",
    "gates": [{"key": "utility", "min": 10}],
}
TRUTH = zipped({"truth/answers.csv": b"id,answer\n1,2\n"})


def round_files(competition) -> dict[str, bytes]:
    """The bundle's members of the competition's one round, by role."""
    exported = competition_export(competition=competition, user=None)
    (entry,) = manifest_of(exported)["rounds"]
    members = members_of(exported)
    return {role: members[described["path"]] for role, described in entry["files"].items()}


def program_variant() -> bytes:
    """The demo program with one more file: another valid program, other bytes."""
    with_readme = members_of(demo_program_zip())
    with_readme["README.txt"] = b"A second version.\n"
    return zipped(with_readme)


def test_scorer_bundle_round_trip_keeps_settings_program_and_packs():
    world = scorer_world(
        slug="scobundle",
        letters="ab",
        config=SETTINGS,
        release_limits=(3, 10),
        attack_limits=(None, 7),
    )
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.TRUTH,
        uploaded_file=upload_file(TRUTH, "truth.zip", "application/zip"),
    )
    # Teams play: nothing of their game may travel.
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    world.round.phases.filter(kind=Phase.Kind.ATTACK).update(target_limit=2)
    exported = competition_export(competition=world.competition, user=world.organizer)
    (entry,) = manifest_of(exported)["rounds"]
    assert entry["kind"] == "scorer"
    assert entry["settings"]["config"] == selectors.round_config(world.round).as_dict()
    assert entry["settings"]["config"]["visibility"] == "band"
    phases = entry["settings"]["phases"]
    assert (phases["anonymization"]["daily_limit"], phases["anonymization"]["total_limit"]) == (
        3,
        10,
    )
    assert (phases["attack"]["daily_limit"], phases["attack"]["total_limit"]) == (None, 7)
    assert phases["attack"]["target_limit"] == 2 and "target_limit" not in phases["anonymization"]
    files = round_files(world.competition)
    assert set(files) == {
        "program.zip",
        "public.zip",
        "slots.zip",
        "reference.zip",
        "truth.zip",
    }
    assert files["program.zip"] == demo_program_zip()
    assert files["truth.zip"] == TRUTH
    # Only organizer files: no release, attack or published target is in the bundle.
    member_names = set(members_of(exported)) - {"manifest.json"}
    assert len(member_names) == 5

    copy = competition_import(
        bundle_file=io.BytesIO(exported),
        name="",
        slug="scobundle-2",
        start=START,
        user=creator(world.organizer),
    )
    (round_,) = copy.rounds.all()
    scorer = ScorerRound.objects.get(round=round_)
    assert selectors.round_config(round_) == selectors.round_config(world.round)
    assert scorer.frozen_at is None and not scorer.results_published
    phases = {p.kind: p for p in round_.phases.all()}
    assert phases[Phase.Kind.ANONYMIZATION].opens_at == START
    assert (phases["anonymization"].daily_limit, phases["anonymization"].total_limit) == (3, 10)
    assert (phases[Phase.Kind.ATTACK].total_limit, phases[Phase.Kind.ATTACK].target_limit) == (7, 2)
    (program,) = ProgramVersion.objects.filter(scorer=scorer)
    assert (program.version, program.status) == (1, Status.QUEUED)
    assert set(selectors.current_packs(scorer=scorer)) == set(DataPack.Role.values)
    assert {slot.team_id for slot in scorer.slots.all()} == set()  # the copy has no team

    again = competition_export(competition=copy, user=world.organizer)
    assert manifest_of(again)["rounds"] == manifest_of(exported)["rounds"]
    assert round_files(copy) == files


def test_scorer_bundle_holds_the_current_program_else_the_newest():
    world = scorer_world(slug="scobundle2", letters="a")
    variant = program_variant()
    # A newer version not built yet: runs still use v1, and so does the bundle.
    services.program_upload(
        scorer=world.scorer, uploaded_file=upload_file(variant, "p2.zip", "application/zip")
    )
    assert round_files(world.competition)["program.zip"] == demo_program_zip()

    bare = scorer_world(slug="scobundle3", letters="a", build=False)
    assert "program.zip" not in round_files(bare.competition)
    services.program_upload(
        scorer=bare.scorer, uploaded_file=upload_file(variant, "p1.zip", "application/zip")
    )
    assert selectors.current_program(scorer=bare.scorer) is None
    assert round_files(bare.competition)["program.zip"] == variant


def entry_of(settings: dict, files: dict) -> RoundEntry:
    return RoundEntry(
        name="Copy", slug="copy", order=1, timezone="Asia/Tokyo", settings=settings, files=files
    )


def refusal(world, settings, files) -> dict:
    # The import's transaction (``competition_import``): a refusal keeps nothing.
    with pytest.raises(ValidationError) as refused, transaction.atomic():
        bundle.round_from_bundle(
            competition=world.competition,
            entry=entry_of(settings, files),
            start=START,
            user=world.organizer,
        )
    assert not world.competition.rounds.filter(slug="copy").exists()
    return refused.value.message_dict


def test_scorer_bundle_refuses_a_broken_manifest_by_the_settings_path():
    world = scorer_world(slug="scobundle4", letters="a", build=False)
    anchor = world.round.phases.get(kind=Phase.Kind.ANONYMIZATION).opens_at
    settings = bundle.round_bundle(world.round, anchor=anchor).settings
    missing = {**settings, "phases": {"anonymization": settings["phases"]["anonymization"]}}
    assert "phases.attack" in refusal(world, missing, {})
    assert "seed" in refusal(world, {**settings, "seed": 7}, {})
    overlapping = {
        **settings,
        "phases": {
            "anonymization": settings["phases"]["anonymization"],
            "attack": {**settings["phases"]["attack"], "opens_at": "P0DT1H"},
        },
    }
    assert "phases.attack.opens_at" in refusal(world, overlapping, {})
    limit = {
        **settings,
        "phases": {
            **settings["phases"],
            "attack": {**settings["phases"]["attack"], "daily_limit": 0},
        },
    }
    assert "phases.attack.daily_limit" in refusal(world, limit, {})
    wrong_rule = {**settings, "config": {**settings["config"], "protection_rule": "median"}}
    assert "median" in refusal(world, wrong_rule, {})["config"][0]
    assert "notes.txt" in refusal(world, settings, {"notes.txt": b"hello"})
    assert "program.zip" in refusal(world, settings, {"program.zip": b"not a zip"})
    assert "truth.zip" in refusal(world, settings, {"truth.zip": b""})


def test_scorer_bundle_with_a_broken_pack_keeps_nothing():
    world = scorer_world(slug="scobundle5", letters="a", build=False)
    exported = competition_export(competition=world.competition, user=world.organizer)
    (entry,) = manifest_of(exported)["rounds"]
    public_path = entry["files"]["public.zip"]["path"]
    broken = rebuilt(exported, files={public_path: b"PK broken"})
    with pytest.raises(ValidationError) as refused:
        competition_import(
            bundle_file=io.BytesIO(broken),
            name="",
            slug="scobundle5-2",
            start=START,
            user=creator(world.organizer),
        )
    assert "public.zip" in " ".join(refused.value.messages)
    assert not Competition.objects.filter(slug="scobundle5-2").exists()
