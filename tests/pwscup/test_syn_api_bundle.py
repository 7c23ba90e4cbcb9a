"""The synthetic round in a competition bundle: the settings (configuration in the
original's column order, both phases with their limits) and the original come back equal;
the imported round draws a new seed (new holdout, new draws); a broken manifest is refused
with the setting's path."""

import io

import pytest
from django.core.exceptions import ValidationError

from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions.models import Phase
from pwscup.kinds.bundles import RoundEntry
from pwscup.synthetic import bundle, engine
from pwscup.synthetic.models import SyntheticRound
from tests.pwscup.bundle_helpers import START, creator, manifest_of, members_of, rebuilt
from tests.pwscup.syn_world import adult_rows, syn_world

pytestmark = pytest.mark.django_db


def test_syn_bundle_round_trip_keeps_the_settings_and_draws_anew():
    world = syn_world(slug="synbundle", letters="ab", release_limits=(3, 10), seed=11)
    world.round.phases.filter(kind=Phase.Kind.ATTACK).update(target_limit=2)
    exported = competition_export(competition=world.competition, user=world.organizer)
    (entry,) = manifest_of(exported)["rounds"]
    columns = entry["settings"]["config"]["columns"]
    assert [c["name"] for c in columns] == list(engine.round_config(world.round).columns)
    release = entry["settings"]["phases"]["release"]
    assert (release["daily_limit"], release["total_limit"]) == (3, 10)
    assert entry["settings"]["phases"]["attack"]["target_limit"] == 2
    organizer = creator(world.organizer)
    copy = competition_import(
        bundle_file=io.BytesIO(exported), name="", slug="synbundle-2", start=START, user=organizer
    )
    (round_,) = copy.rounds.all()
    synthetic = SyntheticRound.objects.get(round=round_)
    assert engine.round_config(round_) == engine.round_config(world.round)
    phases = {p.kind: p for p in round_.phases.all()}
    assert (phases["release"].daily_limit, phases["release"].total_limit) == (3, 10)
    assert phases["release"].opens_at == START
    assert (phases["attack"].target_limit, phases["release"].target_limit) == (2, None)
    assert phases["attack"].opens_at == phases["release"].closes_at
    # A new game: a new seed, so a new holdout and new draws.
    assert synthetic.secret_seed != world.synthetic.secret_seed
    assert synthetic.holdout != world.synthetic.holdout
    again = competition_export(competition=copy, user=world.organizer)
    assert manifest_of(again)["rounds"] == manifest_of(exported)["rounds"]
    assert members_of(again).keys() == members_of(exported).keys()


def entry_of(settings: dict, files: dict) -> RoundEntry:
    return RoundEntry(
        name="Copy", slug="copy", order=1, timezone="Asia/Tokyo", settings=settings, files=files
    )


def refusal(world, settings, files) -> dict:
    with pytest.raises(ValidationError) as refused:
        bundle.round_from_bundle(
            competition=world.competition,
            entry=entry_of(settings, files),
            start=START,
            user=world.organizer,
        )
    return refused.value.message_dict


def test_syn_bundle_refuses_a_broken_manifest_by_the_settings_path():
    world = syn_world(slug="synbundle3", letters="a")
    anchor = world.round.phases.get(kind="release").opens_at
    settings = bundle.round_bundle(world.round, anchor=anchor).settings
    original = {"original.csv": adult_rows(3000)}
    missing = {**settings, "phases": {"release": settings["phases"]["release"]}}
    assert "phases.attack" in refusal(world, missing, original)
    unknown = {**settings, "seed": 7}
    assert "seed" in refusal(world, unknown, original)
    overlapping = {
        **settings,
        "phases": {
            "release": settings["phases"]["release"],
            "attack": {**settings["phases"]["attack"], "opens_at": "P1D"},
        },
    }
    assert "phases.attack.opens_at" in refusal(world, overlapping, original)
    for kind, value, path in (
        ("attack", 0, "phases.attack.target_limit"),
        ("attack", "2", "phases.attack.target_limit"),
        ("release", 2, "phases.release.target_limit"),  # the release phase: none
    ):
        phases = {**settings["phases"], kind: {**settings["phases"][kind], "target_limit": value}}
        assert path in refusal(world, {**settings, "phases": phases}, original)
    assert "original.csv" in refusal(world, settings, {})
    # An original whose header is not the configuration's columns: the service names both.
    wrong = refusal(world, settings, {"original.csv": b"a,b\n1,2\n"})
    assert "(a, b)" in wrong["config.columns"][0]
    bad_role = {
        **settings,
        "config": {
            **settings["config"],
            "columns": [
                {**c, "role": "text"} if c["name"] == "age" else c
                for c in settings["config"]["columns"]
            ],
        },
    }
    assert "config.columns" in refusal(world, bad_role, original)
    # Every error of the settings at once, each by its path.
    two = {**settings, "config": {**settings["config"], "n_challenge": 82, "fpr_levels": [2]}}
    assert {"config.n_challenge", "config.fpr_levels"} <= set(refusal(world, two, original))
    # A gate on U_ML below 0 (which gated nothing) is refused as the console refuses it.
    gates = {**settings["config"]["gates"], "u_ml_min": -0.5}
    below = refusal(world, {**settings, "config": {**settings["config"], "gates": gates}}, original)
    assert "-0.5" in below["config.gates.u_ml_min"][0]
    assert not Phase.objects.filter(round__slug="copy").exists()


def test_syn_bundle_import_of_a_changed_manifest_through_the_core():
    world = syn_world(slug="synbundle4", letters="a")
    exported = competition_export(competition=world.competition, user=world.organizer)

    def shorter(manifest):
        manifest["rounds"][0]["settings"]["config"]["n_train"] = 250

    copy = competition_import(
        bundle_file=io.BytesIO(rebuilt(exported, change=shorter)),
        name="",
        slug="synbundle4-2",
        start=START,
        user=creator(world.organizer),
    )
    (round_,) = copy.rounds.all()
    assert engine.round_config(round_).n_train == 250


def test_a_bundle_from_before_the_release_phase_had_its_key_imports():
    """A bundle exported when the release phase was stored under the first game's key
    (``anonymization``) imports into a round whose release phase has the game's own key."""
    world = syn_world(slug="synbundle5", letters="a")
    anchor = world.round.phases.get(kind="release").opens_at
    settings = bundle.round_bundle(world.round, anchor=anchor).settings
    phases = dict(settings["phases"])
    older = {**settings, "phases": {"anonymization": phases.pop("release"), **phases}}
    round_ = bundle.round_from_bundle(
        competition=world.competition,
        entry=entry_of(older, {"original.csv": adult_rows(3000)}),
        start=START,
        user=world.organizer,
    )
    assert sorted(round_.phases.values_list("kind", flat=True)) == ["attack", "release"]
    assert round_.phases.get(kind="release").opens_at == START
