"""The round scored by the organizer's program in a competition bundle: its settings, both
phases with their limits, the program and the data packs travel (the hidden reference and
truth packs only when the export ticks ``include_hidden``); export → import → export gives the
same settings and files; the program's build is queued again; a round imported without its
hidden packs awaits them (console notice, uploads refused, nothing scored) until they are
uploaded; a broken manifest is refused by the setting's path or the file's role, and nothing
is kept."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions.models import Competition, Phase
from pwscup.core.errors import Refused
from pwscup.kinds import get_kind
from pwscup.kinds.bundles import RoundEntry
from pwscup.scorer import bundle, selectors, services
from pwscup.scorer.models import DataPack, ProgramVersion, Release, ScorerRound
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.models import Status
from scoring.scorer.demo import demo_program_zip, demo_reference_zip
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


def round_files(competition, *, include_hidden: bool = True) -> dict[str, bytes]:
    """The bundle's members of the competition's one round, by role."""
    exported = competition_export(competition=competition, user=None, include_hidden=include_hidden)
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
    exported = competition_export(
        competition=world.competition, user=world.organizer, include_hidden=True
    )
    (entry,) = manifest_of(exported)["rounds"]
    assert entry["kind"] == "scorer"
    assert entry["settings"]["config"] == selectors.round_config(world.round).as_dict()
    assert entry["settings"]["config"]["visibility"] == "band"
    phases = entry["settings"]["phases"]
    assert (phases["release"]["daily_limit"], phases["release"]["total_limit"]) == (
        3,
        10,
    )
    assert (phases["attack"]["daily_limit"], phases["attack"]["total_limit"]) == (None, 7)
    assert phases["attack"]["target_limit"] == 2 and "target_limit" not in phases["release"]
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
    assert phases["release"].opens_at == START
    assert (phases["release"].daily_limit, phases["release"].total_limit) == (3, 10)
    assert (phases[Phase.Kind.ATTACK].total_limit, phases[Phase.Kind.ATTACK].target_limit) == (7, 2)
    (program,) = ProgramVersion.objects.filter(scorer=scorer)
    assert (program.version, program.status) == (1, Status.QUEUED)
    assert set(selectors.current_packs(scorer=scorer)) == set(DataPack.Role.values)
    assert {slot.team_id for slot in scorer.slots.all()} == set()  # the copy has no team
    assert scorer.hidden_awaited == [] and "hidden_left_out" not in entry["settings"]

    again = competition_export(competition=copy, user=world.organizer, include_hidden=True)
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
    anchor = world.round.phases.get(kind="release").opens_at
    settings = bundle.round_bundle(world.round, anchor=anchor).settings
    missing = {**settings, "phases": {"release": settings["phases"]["release"]}}
    assert "phases.attack" in refusal(world, missing, {})
    assert "seed" in refusal(world, {**settings, "seed": 7}, {})
    overlapping = {
        **settings,
        "phases": {
            "release": settings["phases"]["release"],
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
    assert "median" in refusal(world, wrong_rule, {})["config.protection_rule"][0]
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


HIDDEN_FILES = {"reference.zip", "truth.zip"}


def test_scorer_bundle_holds_the_hidden_packs_only_when_ticked():
    world = scorer_world(slug="scobundle6", letters="a", build=False)
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.TRUTH,
        uploaded_file=upload_file(TRUTH, "truth.zip", "application/zip"),
    )
    plain = competition_export(competition=world.competition, user=world.organizer)
    names = {name.rsplit("/", 1)[-1] for name in members_of(plain)}
    assert names == {"manifest.json", "public.zip", "slots.zip"}  # no program: build=False
    (entry,) = manifest_of(plain)["rounds"]
    assert set(entry["files"]) == {"public.zip", "slots.zip"}
    assert entry["settings"]["hidden_left_out"] == ["reference.zip", "truth.zip"]
    ticked = competition_export(
        competition=world.competition, user=world.organizer, include_hidden=True
    )
    names = {name.rsplit("/", 1)[-1] for name in members_of(ticked)}
    assert HIDDEN_FILES <= names
    (entry,) = manifest_of(ticked)["rounds"]
    assert "hidden_left_out" not in entry["settings"]
    assert members_of(ticked)[entry["files"]["truth.zip"]["path"]] == TRUTH
    # The audit log says which export it was.
    exports = world.competition.audit_entries.filter(action="bundle_exported").order_by("pk")
    assert [e.detail["include_hidden"] for e in exports] == [False, True]


def test_a_round_imported_without_its_hidden_packs_waits_for_them(client):
    world = scorer_world(slug="scobundle7", letters="a")
    exported = competition_export(competition=world.competition, user=world.organizer)
    organizer = creator(world.organizer)
    copy = competition_import(
        bundle_file=io.BytesIO(exported),
        name="",
        slug="scobundle7-2",
        start=START,
        user=organizer,
    )
    (round_,) = copy.rounds.all()
    scorer = ScorerRound.objects.get(round=round_)
    assert scorer.hidden_awaited == [["reference", ""]]
    assert selectors.hidden_missing_names(scorer=scorer) == "reference.zip"
    assert set(selectors.current_packs(scorer=scorer)) == {"public", "slots"}
    # Exported again (unticked or ticked), it still names the pack it lacks.
    again = competition_export(competition=copy, user=world.organizer)
    assert manifest_of(again)["rounds"] == manifest_of(exported)["rounds"]
    ticked = competition_export(competition=copy, user=world.organizer, include_hidden=True)
    assert manifest_of(ticked)["rounds"][0]["settings"]["hidden_left_out"] == ["reference.zip"]
    assert get_kind("scorer").round_note(round_) == "Waiting for the organizer's hidden data"
    # The console says so, in both languages.
    client.force_login(organizer)
    console = reverse("console:round", args=[copy.slug, round_.slug])
    page = client.get(console).content.decode()
    assert 'data-testid="scorer-hidden-missing"' in page and "reference.zip" in page
    ja = client.get(console, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-testid="scorer-hidden-missing"' in ja and "隠しデータ" in ja
    # Uploading the reference pack is all it takes.
    services.pack_upload(
        scorer=scorer,
        role=DataPack.Role.REFERENCE,
        uploaded_file=upload_file(demo_reference_zip(rows=60, seed=3), "r.zip", "application/zip"),
    )
    assert selectors.hidden_packs_missing(scorer=scorer) == []
    assert 'data-testid="scorer-hidden-missing"' not in client.get(console).content.decode()
    settings = manifest_of(competition_export(competition=copy, user=world.organizer))
    assert settings["rounds"][0]["settings"]["hidden_left_out"] == ["reference.zip"]


def test_a_round_awaiting_hidden_data_refuses_uploads_and_scores_nothing():
    world = scorer_world(slug="scobundle8", letters="ab")
    world.scorer.refresh_from_db()
    queued = services.release_upload(
        scorer=world.scorer,
        team=world.teams["a"],
        user=world.users["a"],
        uploaded_file=upload_file(release_bytes(noise=0), "release.csv"),
    )
    services.hidden_packs_await(scorer=world.scorer, packs=[("truth", "")])
    # The kept upload's job ends with a clear reason, not a crash.
    services.release_score(release_id=queued.pk)
    failed = Release.objects.get(pk=queued.pk)
    assert failed.status == Status.FAILED and failed.message_code == "job.no_hidden_data"
    assert "truth.zip" in failed.message
    with translation.override("ja"):
        assert "truth.zip" in job_message_text(failed)
    with pytest.raises(Refused) as refused:
        services.release_upload(
            scorer=world.scorer,
            team=world.teams["b"],
            user=world.users["b"],
            uploaded_file=upload_file(release_bytes(noise=0), "release.csv"),
        )
    assert refused.value.status == 403 and "truth.zip" in refused.value.message
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.TRUTH,
        uploaded_file=upload_file(TRUTH, "truth.zip", "application/zip"),
    )
    scored = release(world, "b", release_bytes(noise=0))
    assert scored.status == Status.FINISHED, scored.message


def test_scorer_bundle_refuses_a_wrong_list_of_hidden_packs_left_out():
    world = scorer_world(slug="scobundle9", letters="a", build=False)
    anchor = world.round.phases.get(kind="release").opens_at
    settings = bundle.round_bundle(world.round, anchor=anchor).settings
    assert settings["hidden_left_out"] == ["reference.zip"]
    for wrong in ("reference.zip", ["public.zip"], ["notes.zip"], ["truth.zip", "truth.zip"], [3]):
        assert "hidden_left_out" in refusal(world, {**settings, "hidden_left_out": wrong}, {})
    ref = {"reference.zip": demo_reference_zip(rows=60, seed=3)}
    assert "hidden_left_out" in refusal(world, settings, ref)  # left out, yet in the files


def test_the_console_exports_with_or_without_the_hidden_packs(client):
    world = scorer_world(slug="scobundle10", letters="a", build=False)
    client.force_login(creator(world.organizer))
    card = client.get(reverse("console:competition", args=[world.competition.slug]))
    html = card.content.decode()
    assert 'data-testid="bundle-include-hidden"' in html and 'name="include_hidden"' in html
    assert "checked" not in html.split('data-testid="bundle-include-hidden"')[1].split(">")[0]
    url = reverse("bundles:export", args=[world.competition.slug])
    plain = client.get(url)
    assert plain.status_code == 200
    names = {name.rsplit("/", 1)[-1] for name in members_of(plain.content)}
    assert "reference.zip" not in names and "public.zip" in names
    ticked = client.get(url, {"include_hidden": "1"})
    names = {name.rsplit("/", 1)[-1] for name in members_of(ticked.content)}
    assert "reference.zip" in names
    ja = client.get(
        reverse("console:competition", args=[world.competition.slug]), HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert "隠しデータを含める" in ja.content.decode()


def test_a_clone_keeps_the_hidden_packs():
    from pwscup.bundles.services import competition_clone

    world = scorer_world(slug="scobundle11", letters="a", build=False)
    clone = competition_clone(
        competition=world.competition,
        name="Clone",
        slug="scobundle11-2",
        start=START,
        user=creator(world.organizer),
    )
    scorer = ScorerRound.objects.get(round__competition=clone)
    assert scorer.hidden_awaited == []
    assert DataPack.Role.REFERENCE in selectors.current_packs(scorer=scorer)
