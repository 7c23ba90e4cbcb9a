"""The DP and sequential kinds in a competition bundle (``bundle_export`` / ``bundle_import``).

Each of the four demo rounds (dp-adult, dp-practice, seq-paper, seq-generated) is exported,
its settings passed through JSON with sorted keys (as a manifest may write them), imported in
another competition with another start date, and exported again: equal settings and files,
the schedule shifted by exactly the start's move; the imported round plays end to end on the
real worker. Bad settings and bad files are refused with a message naming the field.
"""

import copy
import datetime as dt
import itertools
import json
import zoneinfo

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.competitions.models import Round
from pwscup.competitions.services import competition_create
from pwscup.core.errors import Refused
from pwscup.dp import engine
from pwscup.dp.demo import FIXTURES as DP_FIXTURES
from pwscup.dp.demo import dp_demo_load
from pwscup.dp.models import Charge, DPRound, Estimate, Ledger
from pwscup.dp.services import dp_estimate_upload, dp_query_answer, dp_round_close_now
from pwscup.kinds import get_kind
from pwscup.kinds.bundles import RoundEntry
from pwscup.kinds.round_basics import RoundBasics
from pwscup.sequential import demo as seq_demo
from pwscup.sequential import engine as seq_engine
from pwscup.sequential import selectors as seq_selectors
from pwscup.sequential import services as seq_services
from pwscup.sequential.models import Master, Release, SequentialRound
from tests.pwscup.seq_web_world import check, fixture, upload_file
from tests.support import wait_for

DP_SLUGS = ("dp-adult", "dp-practice")
SEQ_SLUGS = ("seq-paper", "seq-generated")
ANCHOR = dt.datetime(2026, 4, 1, 9, 0, tzinfo=dt.UTC)
_numbers = itertools.count(1)


def _competition(prefix: str, *, teams: str = ""):
    n = next(_numbers)
    organizer = user_create(username=f"{prefix}{n}-org", password="pw")
    competition = competition_create(
        name=f"Bundle {prefix} {n}", slug=f"{prefix}{n}", organizers=[organizer]
    )
    members = {}
    for letter in teams:
        team = team_create(competition=competition, name=f"Team {letter}", slug=f"team{letter}")
        members[letter] = (team, user_create(username=f"{prefix}{n}-{letter}", password="pw"))
        membership_add(team=team, user=members[letter][1])
    return competition, organizer, members


def _demo_round(slug: str) -> Round:
    """The demo round ``slug`` in a competition of its own (teams A, B, C as ``load_demo``)."""
    competition, organizer, _members = _competition("src", teams="ABC")
    if slug in DP_SLUGS:
        dp_demo_load(competition=competition, organizer=organizer, now=ANCHOR)
    else:
        seq_demo.demo_load(competition, organizer=organizer)
    round_ = Round.objects.get(competition=competition, slug=slug)
    if slug == "seq-generated":
        # A schedule to move: each release closes a day after the previous one.
        sequential = SequentialRound.objects.get(round=round_)
        seq_services.schedule_set(
            sequential=sequential, first_close=ANCHOR, step_length=dt.timedelta(days=1)
        )
    return round_


def _as_manifest(settings: dict) -> dict:
    """The settings as a manifest holds them: JSON with sorted keys."""
    return json.loads(json.dumps(settings, sort_keys=True))


def _import(
    bundle, *, slug, start, competition=None, organizer=None, settings=None, files=None, kind=None
):
    if competition is None:
        competition, organizer, _members = _competition("dst")
    entry = RoundEntry(
        name=f"Imported {slug}",
        slug=slug,
        order=7,
        timezone="Europe/Paris",
        settings=_as_manifest(bundle.settings) if settings is None else settings,
        files=dict(bundle.files) if files is None else files,
    )
    kind = get_kind(kind or ("dp" if slug.startswith("dp") else "sequential"))
    return kind.bundle_import(competition=competition, entry=entry, start=start, user=organizer)


def _schedule(round_) -> list[dt.datetime]:
    if round_.kind == "dp":
        dp_round = DPRound.objects.get(round=round_)
        return [dp_round.opens_at, dp_round.closes_at]
    sequential = SequentialRound.objects.get(round=round_)
    return [sequential.close_of(j) for j in range(1, sequential.n_releases + 1)]


def _round_trip(slug: str, *, start, competition=None, organizer=None):
    source = _demo_round(slug)
    kind = get_kind(source.kind)
    exported = kind.bundle_export(source, anchor=ANCHOR)
    imported = _import(
        exported, slug=slug, start=start, competition=competition, organizer=organizer
    )
    return source, exported, imported


# --- export → import → export ------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("slug", DP_SLUGS + SEQ_SLUGS)
def test_a_demo_round_survives_export_import_export(slug):
    start = dt.datetime(2031, 10, 5, 18, 30, tzinfo=dt.UTC)
    source, exported, imported = _round_trip(slug, start=start)
    kind = get_kind(source.kind)
    again = kind.bundle_export(imported, anchor=start)
    assert again.settings == exported.settings
    assert _as_manifest(again.settings) == _as_manifest(exported.settings)
    assert again.files == exported.files and exported.files
    assert json.dumps(exported.settings)  # JSON-serialisable as it is
    assert (imported.name, imported.slug, imported.order, imported.timezone) == (
        f"Imported {slug}",
        slug,
        7,
        "Europe/Paris",
    )
    assert imported.competition_id != source.competition_id and imported.kind == source.kind
    # The schedule moved by exactly the start's move (the demo DP round opens at the anchor).
    moved = [None if at is None else at + (start - ANCHOR) for at in _schedule(source)]
    assert _schedule(imported) == moved
    if slug != "seq-paper":
        assert all(at is not None for at in moved)
    # The configuration as the console stored it, in its order.
    if source.kind == "dp":
        assert DPRound.objects.get(round=imported).config_text == source.dp.config_text
        assert imported.original_sha256 == source.original_sha256
    else:
        assert imported.sequential.config_text == source.sequential.config_text


@pytest.mark.django_db
def test_dp_settings_hold_the_configuration_and_window_never_play_state():
    source = _demo_round("dp-practice")
    dp_round = source.dp
    team = source.competition.teams.get(slug="teamA")
    dp_query_answer(
        dp_round=dp_round,
        team=team,
        user=team.members.first(),
        level="eps-1",
        payload={"type": "histogram", "attributes": ["gender", "age"], "epsilon": "0.5"},
        now=ANCHOR + dt.timedelta(minutes=5),
    )
    exported = get_kind("dp").bundle_export(source, anchor=ANCHOR - dt.timedelta(hours=2))
    assert set(exported.settings) == {"config", "schedule", "limits"}
    assert exported.settings["limits"] == {"daily_limit": None, "total_limit": None}
    assert exported.settings["schedule"] == {"opens_at": "P0DT01H00M00S", "closes_at": "P14DT02H00M00S"}  # fmt: skip
    assert [a["name"] for a in exported.settings["config"]["attributes"]] == ["gender", "age"]
    assert [lv["epsilon"] for lv in exported.settings["config"]["levels"]] == ["0.1", "1", "4"]
    assert set(exported.files) == {"original.csv"}
    text = json.dumps(exported.settings)
    assert (
        "ledger" not in text
        and "spent" not in text
        and "charge" not in text.replace("max_charges_per_level", "")
    )


@pytest.mark.django_db
def test_seq_settings_hold_the_source_data_never_drawn_masters_or_the_secret_seed():
    source = _demo_round("seq-generated")
    sequential = source.sequential
    assert sequential.masters.filter(drawn=True).count() == 3
    assert Release.objects.filter(sequential=sequential).exists()  # teams B and C played
    exported = get_kind("sequential").bundle_export(source, anchor=ANCHOR)
    assert set(exported.files) == {"pool.csv"}
    assert exported.files["pool.csv"] == seq_demo.generated_pool()
    assert exported.settings["schedule"] == {
        "step_closes": ["P0DT00H00M00S", "P1DT00H00M00S", "P2DT00H00M00S", "P3DT00H00M00S"]
    }
    assert exported.settings["auto_freeze"] is True
    assert exported.settings["limits"] == {"daily_limit": None, "total_limit": None}
    assert exported.settings["attack_limits"] == {
        "daily_limit": None,
        "total_limit": None,
        "target_limit": None,
    }
    assert [c["name"] for c in exported.settings["config"]["qi"]] == ["Age", "Zip", "Sex"]
    assert str(sequential.secret_seed) not in json.dumps(exported.settings)
    # Imported where teams exist: masters drawn anew with the new round's own secret.
    competition, organizer, _members = _competition("dstteams", teams="ABC")
    imported = _import(
        exported,
        slug="seq-generated",
        start=ANCHOR,
        competition=competition,
        organizer=organizer,
    )
    new = imported.sequential
    assert new.secret_seed != sequential.secret_seed
    assert new.masters.filter(drawn=True).count() == 3
    assert not Release.objects.filter(sequential=new).exists()
    assert new.frozen_steps == 0 and not new.results_published
    paper = get_kind("sequential").bundle_export(_demo_round("seq-paper"), anchor=ANCHOR)
    assert set(paper.files) == {"master.csv"} and paper.files["master.csv"] == fixture(
        "zhang_master.csv"
    )
    assert paper.settings["schedule"] == {"step_closes": []}


@pytest.mark.django_db
def test_the_seq_attack_phases_limits_travel_and_an_older_bundle_has_none(seq_bundle):
    settings = _changed(
        seq_bundle.settings,
        lambda s: s["attack_limits"].update(daily_limit=4, total_limit=9, target_limit=2),
    )
    imported = _import(seq_bundle, slug="seq-paper", start=ANCHOR, settings=settings)
    new = imported.sequential
    limits = (new.attack_daily_limit, new.attack_total_limit, new.attack_target_limit)
    assert limits == (4, 9, 2)
    again = get_kind("sequential").bundle_export(imported, anchor=ANCHOR)
    assert again.settings["attack_limits"] == settings["attack_limits"]
    # A bundle exported before the attack phase had limits: none.
    older = _changed(seq_bundle.settings, lambda s: s.pop("attack_limits"))
    competition, organizer, _members = _competition("dstold")
    new = _import(
        seq_bundle,
        slug="seq-old",
        start=ANCHOR,
        settings=older,
        competition=competition,
        organizer=organizer,
    ).sequential
    assert (new.attack_daily_limit, new.attack_total_limit, new.attack_target_limit) == (
        None,
        None,
        None,
    )


@pytest.mark.django_db
def test_an_older_seq_bundle_imported_with_a_start_tomorrow_opens_at_the_start(seq_bundle):
    """The fault: a bundle written before rounds had an opening, imported to start tomorrow,
    took releases at once. Its round opens at the start: refused before (403, the core's
    window message, in the round's time zone and in Japanese), said so by the schedule and
    the API's status (the team's data already served, as every kind serves it), taken after
    (a moved clock)."""
    assert "opens" not in seq_bundle.settings["schedule"]
    start = timezone.now().replace(second=0, microsecond=0) + dt.timedelta(days=1)
    competition, organizer, members = _competition("dstopen", teams="A")
    imported = _import(
        seq_bundle, slug="seq-open", start=start, competition=competition, organizer=organizer
    )
    sequential, (team, user) = imported.sequential, members["A"]
    assert sequential.opens_at == start

    def upload(now=None):
        return seq_services.release_upload(
            sequential=sequential,
            team=team,
            user=user,
            step=1,
            uploaded_file=upload_file(fixture("zhang_release_1.csv"), "release_1.csv"),
            now=now,
        )

    at = start.astimezone(zoneinfo.ZoneInfo("Europe/Paris")).strftime("%Y-%m-%d %H:%M")
    with pytest.raises(Refused) as refused:
        upload()
    assert refused.value.status == 403
    assert refused.value.message == (f"Release 1 is not open yet: it opens at {at} (Europe/Paris).")
    with translation.override("ja"), pytest.raises(Refused) as refused:
        upload()
    assert refused.value.message == (
        f"公開データ 1はまだ始まっていません。{at} (Europe/Paris) に始まります。"
    )
    assert not Release.objects.filter(sequential=sequential).exists()

    client = Client()
    client.force_login(user)
    status_url = reverse("api:round-status", args=[competition.slug, imported.slug])
    status = client.get(status_url).json()
    release_1 = status["schedule"][0]
    assert (release_1["label"], release_1["state"]) == ("Release 1", "upcoming")
    assert parse_datetime(release_1["opens_at"]) == start
    assert [kind["open"] for kind in status["submission_types"]] == [False]
    assert "T1.csv" in [download["name"] for download in status["downloads"]]
    submit = client.get(reverse("round_tab", args=[competition.slug, imported.slug, "submit"]))
    assert "Release 1 is not open yet: it opens at" in submit.content.decode()
    assert 'data-testid="upload-form"' not in submit.content.decode()

    release = check(upload(now=start + dt.timedelta(minutes=1)))
    assert release.status == Release.Status.FINISHED


@pytest.mark.django_db
def test_the_seq_opening_travels_as_an_offset_and_is_checked(seq_bundle):
    settings = _changed(seq_bundle.settings, lambda s: s["schedule"].update(opens="P2DT03H00M00S"))
    imported = _import(seq_bundle, slug="seq-opens", start=ANCHOR, settings=settings)
    opens_at = ANCHOR + dt.timedelta(days=2, hours=3)
    assert imported.sequential.opens_at == opens_at
    again = get_kind("sequential").bundle_export(imported, anchor=ANCHOR)
    assert again.settings["schedule"] == {"step_closes": [], "opens": "P2DT03H00M00S"}
    # Its anchor is the round's opening: the start of the import.
    assert get_kind("sequential").schedule_plan(imported)[0] == (opens_at, None)

    late = _changed(
        settings,
        lambda s: s["schedule"].update(step_closes=["P1DT00H00M00S", "P2DT00H00M00S"]),
    )
    with pytest.raises(ValidationError) as refused:
        _import(seq_bundle, slug="seq-late", start=ANCHOR, settings=late)
    assert list(refused.value.message_dict) == ["schedule.opens"]
    assert "Release 1 must open before it closes" in refused.value.message_dict["schedule.opens"][0]


@pytest.mark.django_db
def test_a_shift_jis_original_is_exported_as_uploaded_and_imported_again():
    competition, organizer, _members = _competition("sjis")
    from pwscup.dp.services import dp_round_create

    table = "gender,age\n" + "女,若\n男,老\n" * 3
    config = {
        "attributes": {"gender": ["男", "女"], "age": ["若", "老"]},
        "workload": [{"id": "ga", "attributes": ["gender", "age"]}],
        "levels": [{"id": "e1", "epsilon": "1"}],
    }
    dp_round = dp_round_create(
        basics=RoundBasics(competition=competition, name="SJIS", slug="sjis"),
        table=table.encode("cp932"),
        table_filename="hidden.csv",
        config_raw=config,
        opens_at=ANCHOR,
        closes_at=ANCHOR + dt.timedelta(days=1),
    )
    exported = get_kind("dp").bundle_export(dp_round.round, anchor=ANCHOR)
    assert exported.files["original.csv"] == table.encode("cp932")
    imported = _import(exported, slug="sjis", start=ANCHOR, kind="dp")
    assert imported.original_encoding == dp_round.round.original_encoding
    assert engine.stored_bytes(imported.original_file) == table.encode()
    assert get_kind("dp").bundle_export(imported, anchor=ANCHOR).files == exported.files


# --- bad settings and bad files ------------------------------------------------------------------


def _refused(bundle, slug, *, settings=None, files=None) -> dict:
    before = Round.objects.count()
    with pytest.raises(ValidationError) as caught:
        _import(bundle, slug=slug, start=ANCHOR, settings=settings, files=files)
    assert Round.objects.count() == before  # nothing half-created
    return caught.value.message_dict


def _changed(settings: dict, change) -> dict:
    settings = copy.deepcopy(_as_manifest(settings))
    change(settings)
    return settings


@pytest.fixture(scope="module")
def exported_once(scratch_db):
    """The dp-practice and seq-paper demo rounds exported once for the module (each export
    loads a demo round, a second of CPU), their rows rolled back at once: a bundle is data
    (settings and bytes), and each test gets its own copy of it (``dp_bundle``,
    ``seq_bundle``)."""
    with scratch_db():
        return {
            "dp": get_kind("dp").bundle_export(_demo_round("dp-practice"), anchor=ANCHOR),
            "sequential": get_kind("sequential").bundle_export(
                _demo_round("seq-paper"), anchor=ANCHOR
            ),
        }


@pytest.fixture
def dp_bundle(exported_once, db):
    return copy.deepcopy(exported_once["dp"])


@pytest.fixture
def seq_bundle(exported_once, db):
    return copy.deepcopy(exported_once["sequential"])


DP_BAD = [
    ("unknown key", lambda s: s.update(x=1), "x", "Unknown setting 'x'"),
    ("missing config", lambda s: s.pop("config"), "config", "config is missing"),
    ("missing schedule", lambda s: s.pop("schedule"), "schedule", "schedule is missing"),
    (
        "missing close",
        lambda s: s["schedule"].pop("closes_at"),
        "schedule.closes_at",
        "schedule.closes_at is missing",
    ),
    ("config a list", lambda s: s.update(config=[1]), "config", "not [1]"),
    (
        "negative epsilon",
        lambda s: s["config"]["levels"][1].update(epsilon="-1"),
        "config.levels[1].epsilon",
        "-1",
    ),
    (
        "epsilon not a number",
        lambda s: s["config"]["levels"][2].update(epsilon="lots"),
        "config.levels[2].epsilon",
        "'lots'",
    ),
    (
        "level id with a slash",
        lambda s: s["config"]["levels"][1].update(id="eps/1"),
        "config.levels[1].id",
        "Level id 'eps/1' is not valid",
    ),
    (
        "target id with a space",
        lambda s: s["config"]["workload"][0].update(id="gender age"),
        "config.workload[0].id",
        "Target id 'gender age' is not valid",
    ),
    (
        "unknown level field",
        lambda s: s["config"]["levels"][0].update(epsilom="0.1"),
        "config.levels[0].epsilom",
        "'epsilom'",
    ),
    (
        "levels not a list",
        lambda s: s["config"].update(levels="eps-1"),
        "config.levels",
        "eps-1",
    ),
    (
        "attributes an object",
        lambda s: s["config"].update(attributes={"gender": ["F", "M"]}),
        "config.attributes",
        "must be a list",
    ),
    (
        "attribute listed twice",
        lambda s: s["config"]["attributes"].append(s["config"]["attributes"][0]),
        "config.attributes[2].name",
        "The column gender is listed twice",
    ),
    (
        "attribute value repeated",
        lambda s: s["config"]["attributes"][1]["values"].append("56+"),
        "config.attributes[1].values",
        "56+",
    ),
    (
        "unknown workload attribute",
        lambda s: s["config"]["workload"][0].update(attributes=["gender", "zip"]),
        "config.workload[0].attributes",
        "zip",
    ),
    ("unknown config key", lambda s: s["config"].update(colour="red"), "config.colour", "colour"),
    (
        "baselines trials a string",
        lambda s: s["config"]["baselines"].update(trials="30"),
        "config.baselines.trials",
        "30",
    ),
    (
        "offset not a duration",
        lambda s: s["schedule"].update(opens_at="next monday"),
        "schedule.opens_at",
        "'next monday' is not a duration",
    ),
    (
        "offset a number",
        lambda s: s["schedule"].update(closes_at=86400),
        "schedule.closes_at",
        "86400 is not a duration",
    ),
    (
        "closes before it opens",
        lambda s: s["schedule"].update(closes_at="-P1D"),
        "schedule.closes_at",
        "Release phase: it closes when or before it opens",
    ),
    (
        "date out of range",
        lambda s: s["schedule"].update(closes_at="P2600000D"),
        "schedule.closes_at",
        "outside the dates the platform accepts",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("name,change,field,words", DP_BAD, ids=[b[0] for b in DP_BAD])
def test_bad_dp_settings_are_refused_naming_the_field(dp_bundle, name, change, field, words):
    errors = _refused(dp_bundle, "dp-practice", settings=_changed(dp_bundle.settings, change))
    assert list(errors) == [field], errors
    assert words in errors[field][0], errors[field]


@pytest.mark.django_db
def test_every_dp_configuration_error_is_refused_at_once_by_its_path(dp_bundle):
    def change(settings):
        settings["config"]["levels"][1].update(epsilon="-1")
        settings["config"].update(max_charges_per_level=0, adjacency="sideways")

    errors = _refused(dp_bundle, "dp-practice", settings=_changed(dp_bundle.settings, change))
    assert list(errors) == [
        "config.levels[1].epsilon",
        "config.adjacency",
        "config.max_charges_per_level",
    ], errors


@pytest.mark.django_db
def test_a_dp_entry_s_independent_errors_come_in_one_answer(dp_bundle):
    """An unknown key of a level, a bad ε and a window that is not a duration: one import
    names the three, each by its path (a user once needed three imports to see them)."""

    def change(settings):
        settings["config"]["levels"][0]["epsilom"] = "1"
        settings["config"]["levels"][1].update(epsilon="-1")
        settings["schedule"].update(closes_at="next monday")

    errors = _refused(dp_bundle, "dp-practice", settings=_changed(dp_bundle.settings, change))
    assert set(errors) == {
        "config.levels[0].epsilom",
        "config.levels[1].epsilon",
        "schedule.closes_at",
    }, errors
    assert "Unknown setting 'epsilom'" in errors["config.levels[0].epsilom"][0]
    assert "'next monday' is not a duration" in errors["schedule.closes_at"][0]


@pytest.mark.django_db
def test_settings_that_are_not_an_object_are_refused(dp_bundle, seq_bundle):
    assert "settings" in _refused(dp_bundle, "dp-practice", settings=["config"])
    assert "settings" in _refused(seq_bundle, "seq-paper", settings="config")


@pytest.mark.django_db
def test_a_dp_original_failing_the_kinds_checks_gets_the_kinds_message(dp_bundle):
    bad = dp_bundle.files["original.csv"].replace(b"\nF,", b"\nX,", 1)
    errors = _refused(dp_bundle, "dp-practice", files={"original.csv": bad})
    assert list(errors) == ["original.csv"]
    config = json.loads(json.dumps(dp_bundle.settings["config"]))
    config["attributes"] = {a["name"]: a["values"] for a in config["attributes"]}
    with pytest.raises(engine.DPInputError) as kind_error:
        engine.table_check(bad, config)  # what the console says of the same table
    assert errors["original.csv"] == [str(kind_error.value)]
    assert "'X'" in errors["original.csv"][0]
    missing = _refused(dp_bundle, "dp-practice", files={})
    assert "original.csv" in missing["original.csv"][0]
    extra = _refused(dp_bundle, "dp-practice", files={**dp_bundle.files, "../x.csv": b"a"})
    assert list(extra) == ["../x.csv"]


SEQ_BAD = [
    (
        "missing auto_freeze",
        lambda s: s.pop("auto_freeze"),
        "auto_freeze",
        "auto_freeze is missing",
    ),  # fmt: skip
    ("auto_freeze a string", lambda s: s.update(auto_freeze="yes"), "auto_freeze", "'yes'"),
    ("missing limits", lambda s: s.pop("limits"), "limits", "limits is missing"),
    (
        "negative limit",
        lambda s: s["limits"].update(daily_limit=-3),
        "limits.daily_limit",
        "-3",
    ),
    (
        "limit a float",
        lambda s: s["limits"].update(total_limit=2.5),
        "limits.total_limit",
        "2.5",
    ),
    (
        "unknown limit",
        lambda s: s["limits"].update(hourly_limit=2),
        "limits.hourly_limit",
        "hourly",
    ),  # fmt: skip
    (
        "attack limit per target zero",
        lambda s: s["attack_limits"].update(target_limit=0),
        "attack_limits.target_limit",
        "0",
    ),
    (
        "attack limit a string",
        lambda s: s["attack_limits"].update(daily_limit="3"),
        "attack_limits.daily_limit",
        "'3'",
    ),
    (
        "unknown attack limit",
        lambda s: s["attack_limits"].update(hourly_limit=2),
        "attack_limits.hourly_limit",
        "hourly",
    ),
    (
        "attack limits not an object",
        lambda s: s.update(attack_limits=[2]),
        "attack_limits",
        "[2]",
    ),
    ("m too small", lambda s: s["config"].update(m=1), "config.m", "got 1"),
    ("m a string", lambda s: s["config"].update(m="2"), "config.m", "'2'"),
    (
        "missing sa",
        lambda s: s["config"].pop("sa"),
        "config.sa",
        "'sa'",
    ),
    (
        "bad mode",
        lambda s: s["config"].update(mode="sometimes"),
        "config.mode",
        "'sometimes'",
    ),
    (
        "bad qi type",
        lambda s: s["config"]["qi"][1].update(type="text"),
        "config.qi[1]",
        "'text'",
    ),
    (
        "unknown qi field",
        lambda s: s["config"]["qi"][0].update(kind="num"),
        "config.qi[0].kind",
        "'kind'",
    ),
    (
        "qi an object",
        lambda s: s["config"].update(qi={"Age": "num"}),
        "config.qi",
        "must be a list",
    ),
    (
        "closes not a list",
        lambda s: s["schedule"].update(step_closes="P1D"),
        "schedule.step_closes",
        "'P1D'",
    ),
    (
        "close not a duration",
        lambda s: s["schedule"].update(step_closes=["P1D", "tomorrow"]),
        "schedule.step_closes[1]",
        "'tomorrow' is not a duration",
    ),
    (
        "one close for two releases",
        lambda s: s["schedule"].update(step_closes=["P1D"]),
        "schedule.step_closes",
        "2, not 1",
    ),
    (
        "closes in the wrong order",
        lambda s: s["schedule"].update(step_closes=["P2D", "P1D"]),
        "schedule.step_closes",
        "Release 2 must close after release 1",
    ),
    (
        "close out of range",
        lambda s: s["schedule"].update(step_closes=["P1D", "-P60000D"]),
        "schedule.step_closes[1]",
        "outside the dates the platform accepts",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize("name,change,field,words", SEQ_BAD, ids=[b[0] for b in SEQ_BAD])
def test_bad_seq_settings_are_refused_naming_the_field(seq_bundle, name, change, field, words):
    errors = _refused(seq_bundle, "seq-paper", settings=_changed(seq_bundle.settings, change))
    assert list(errors) == [field], errors
    assert words in errors[field][0], errors[field]


@pytest.mark.django_db
def test_every_seq_configuration_error_is_refused_at_once_by_its_path(seq_bundle):
    def change(settings):
        settings["config"].update(m=1, mode="both")
        settings["config"]["qi"][1]["name"] = "pid"

    errors = _refused(seq_bundle, "seq-paper", settings=_changed(seq_bundle.settings, change))
    assert list(errors) == ["config.m", "config.qi[1]", "config.mode"], errors
    assert "got 1" in errors["config.m"][0]


@pytest.mark.django_db
def test_a_seq_entry_s_independent_errors_come_in_one_answer(seq_bundle):
    """A close, a limit and the configuration: one import names every one by its path."""

    def change(settings):
        settings["schedule"].update(step_closes=["P1D", "tomorrow"])
        settings["limits"].update(daily_limit=0, total_limit="ten")
        settings["config"].update(m=1, mode="both")

    errors = _refused(seq_bundle, "seq-paper", settings=_changed(seq_bundle.settings, change))
    assert set(errors) == {
        "schedule.step_closes[1]",
        "limits.daily_limit",
        "limits.total_limit",
        "config.m",
        "config.mode",
    }, errors


@pytest.mark.django_db
def test_a_seq_master_failing_the_kinds_checks_gets_the_kinds_message(seq_bundle):
    master = seq_bundle.files["master.csv"]
    bad = master.replace(b"pid,", b"person,", 1)
    errors = _refused(seq_bundle, "seq-paper", files={"master.csv": bad})
    assert list(errors) == ["master.csv"]
    config = json.loads(json.dumps(seq_bundle.settings["config"]))
    config["qi"] = {c["name"]: c["type"] for c in config["qi"]}
    with pytest.raises(Exception) as kind_error:
        seq_engine.master_read(bad, config)  # what the console says of the same master
    assert errors["master.csv"][0] == kind_error.value.render("en")
    both = _refused(seq_bundle, "seq-paper", files={"master.csv": master, "pool.csv": master})
    assert "pool.csv" in both
    # A pool needs per_team in the configuration, as in the console.
    no_per_team = _refused(seq_bundle, "seq-paper", files={"pool.csv": seq_demo.generated_pool()})
    assert "per_team" in no_per_team["pool.csv"][0]


@pytest.mark.django_db
def test_an_address_already_taken_is_refused_by_the_core_rule(dp_bundle):
    competition, organizer, _members = _competition("taken")
    _import(dp_bundle, slug="dp-practice", start=ANCHOR, competition=competition, organizer=organizer)  # fmt: skip
    with pytest.raises(ValidationError) as caught:
        _import(dp_bundle, slug="dp-practice", start=ANCHOR, competition=competition, organizer=organizer)  # fmt: skip
    assert "slug" in caught.value.message_dict


# --- the imported rounds play end to end on the real worker --------------------------------------


def _uniform_estimate(config: dict) -> bytes:
    """An estimate.csv giving every cell of every target the count 1."""
    names = list(config["attributes"])
    lines = ["target," + ",".join(names) + ",count"]
    for target in config["workload"]:
        domains = [config["attributes"][a] for a in target["attributes"]]
        for cell in itertools.product(*domains):
            values = dict(zip(target["attributes"], cell, strict=True))
            lines.append(",".join([target["id"], *(values.get(n, "") for n in names), "1"]))
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", DP_SLUGS)
def test_an_imported_dp_round_plays_end_to_end(celery_worker_process, slug):
    from django.core.files.uploadedfile import SimpleUploadedFile

    now = timezone.now()
    competition, organizer, members = _competition("dpplay", teams="A")
    # The source opened at ANCHOR; started an hour ago here, it is open now.
    _source, _exported, imported = _round_trip(
        slug, start=now - dt.timedelta(hours=1), competition=competition, organizer=organizer
    )
    dp_round = DPRound.objects.get(round=imported)
    assert dp_round.is_open(now)
    team, user = members["A"]
    first = dp_round.config["workload"][0]
    dp_query_answer(
        dp_round=dp_round,
        team=team,
        user=user,
        level="eps-1",
        payload={"type": "histogram", "attributes": first["attributes"], "epsilon": "1/4"},
    )
    ledger = Ledger.objects.get(dp_round=dp_round, team=team, level="eps-1")
    assert ledger.spent == "0.25" and ledger.budget == "1"
    assert Charge.objects.filter(ledger=ledger).count() == 1
    estimate = dp_estimate_upload(
        dp_round=dp_round,
        team=team,
        user=user,
        level="eps-1",
        uploaded_file=SimpleUploadedFile("estimate.csv", _uniform_estimate(dp_round.config)),
    )
    wait_for(
        lambda: Estimate.objects.filter(pk=estimate.pk, status__in=["finished", "failed"]).exists(),
        timeout=120,
        what="the worker to check the estimate",
    )
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.FINISHED, estimate.message_text
    dp_round_close_now(dp_round=dp_round)
    wait_for(
        lambda: DPRound.objects.filter(pk=dp_round.pk, scored_at__isnull=False).exists(),
        timeout=300,
        what="the worker to score the imported round",
    )
    estimate.refresh_from_db()
    assert estimate.scores["mean_l2"] > 0
    assert DPRound.objects.get(pk=dp_round.pk).baselines


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", SEQ_SLUGS)
def test_an_imported_seq_round_plays_end_to_end(celery_worker_process, slug):
    from scoring.kit.sequential import baseline_release

    competition, organizer, members = _competition("seqplay", teams="A")
    now = timezone.now()
    _source, _exported, imported = _round_trip(
        slug, start=now, competition=competition, organizer=organizer
    )
    sequential = SequentialRound.objects.get(round=imported)
    team, user = members["A"]
    if slug == "seq-paper":
        content = fixture("zhang_release_1.csv")
        assert sequential.masters.get().team is None
    else:
        master = Master.objects.get(sequential=sequential, team=team)  # drawn at the import
        assert master.drawn and master.persons > 0
        assert sequential.close_of(1) == now  # the first close moved to the new start
        seq_services.schedule_set(sequential=sequential, closes=None)  # open again for the test
        frame = seq_services.master_frame(master=master)
        config = seq_engine.config_of(sequential.config)
        release = baseline_release(
            seq_engine.step_table(frame, 1).astype(str), None, config, release=1
        )
        content = seq_engine.table_bytes(release)
    assert seq_selectors.open_steps(sequential=sequential)[0] == 1
    queued = seq_services.release_upload(
        sequential=sequential,
        team=team,
        user=user,
        step=1,
        uploaded_file=upload_file(content, "release_1.csv"),
    )
    assert queued.status == Release.Status.QUEUED
    wait_for(
        lambda: Release.objects.filter(
            pk=queued.pk, status__in=[Release.Status.FINISHED, Release.Status.FAILED]
        ).exists(),
        timeout=120,
        what="the worker to check the release",
    )
    queued.refresh_from_db()
    assert queued.status == Release.Status.FINISHED, queued.message
    assert queued.results and queued.worker


# --- through the core's ZIP and manifest -----------------------------------------------------------


@pytest.mark.django_db
def test_the_four_demo_rounds_through_a_bundle_zip_give_the_same_manifest():
    import io

    from pwscup.bundles.services import competition_export, competition_import
    from tests.pwscup.bundle_helpers import START, creator, manifest_of, members_of, rebuilt

    competition, organizer, _members = _competition("zip", teams="ABC")
    dp_demo_load(competition=competition, organizer=organizer, now=ANCHOR)
    seq_demo.demo_load(competition, organizer=organizer)
    organizer = creator(organizer)
    data = competition_export(competition=competition, user=organizer)
    manifest = manifest_of(data)
    assert [r["slug"] for r in manifest["rounds"]] == list(DP_SLUGS + SEQ_SLUGS)
    imported = competition_import(
        bundle_file=io.BytesIO(data), name="", slug="zip-copy", start=START, user=organizer
    )
    again = competition_export(competition=imported, user=organizer)
    assert manifest_of(again) == manifest
    assert members_of(again) == members_of(data)
    dp_round = DPRound.objects.get(round__competition=imported, round__slug="dp-adult")
    assert dp_round.opens_at == START  # the earliest opening is the bundle's start
    # The attributes keep the round's order although the manifest sorts every object's keys.
    assert list(dp_round.config["attributes"]) == ["sex", "ageband", "race", "income"]
    assert list(SequentialRound.objects.get(round=Round.objects.get(
        competition=imported, slug="seq-generated")).config["qi"]) == ["Age", "Zip", "Sex"]  # fmt: skip

    def negative_epsilon(manifest):
        manifest["rounds"][0]["settings"]["config"]["levels"][1]["epsilon"] = "-1"

    with pytest.raises(ValidationError) as caught:
        competition_import(
            bundle_file=io.BytesIO(rebuilt(data, change=negative_epsilon)),
            name="",
            slug="zip-bad",
            start=START,
            user=organizer,
        )
    assert any(
        "rounds[0] (dp-adult).settings.config.levels[1].epsilon" in m and "-1" in m
        for m in caught.value.messages
    ), caught.value.messages


@pytest.mark.django_db
def test_equal_rounds_give_equal_settings_whatever_they_were_created_from():
    """A configuration typed with its defaults left out, or written out in full with
    another key order, gives the same settings (the configuration as normalised)."""
    from pwscup.dp.services import dp_round_create
    from tests.pwscup.dp_world import MOVIELENS_CONFIG, movielens_csv

    competition, _organizer, _members = _competition("equal")
    full = json.loads((DP_FIXTURES / "movielens_round.json").read_text())
    full["baselines"]["trials"] = MOVIELENS_CONFIG["baselines"]["trials"]
    shuffled = dict(reversed(list(full.items())))
    settings = []
    for n, config in enumerate((MOVIELENS_CONFIG, shuffled)):
        dp_round = dp_round_create(
            basics=RoundBasics(competition=competition, name=f"Equal {n}", slug=f"equal{n}"),
            table=movielens_csv(),
            table_filename="hidden.csv",
            config_raw=config,
            opens_at=ANCHOR,
            closes_at=ANCHOR + dt.timedelta(days=2),
        )
        settings.append(get_kind("dp").bundle_export(dp_round.round, anchor=ANCHOR).settings)
    assert settings[0] == settings[1]
    assert json.dumps(settings[0], sort_keys=True) == json.dumps(settings[1], sort_keys=True)
    short = {"n_releases": 2, "m": 2, "qi": {"Age": "num", "Zip": "num"}, "sa": "Disease"}
    long = {**seq_engine.config_normalise(short)}
    exported = []
    for n, config in enumerate((short, dict(reversed(list(long.items()))))):
        sequential = seq_services.sequential_round_create(
            basics=RoundBasics(competition=competition, name=f"Seq {n}", slug=f"seq{n}"),
            config=config,
            master_file=upload_file(fixture("zhang_master.csv"), "master.csv"),
        )
        exported.append(get_kind("sequential").bundle_export(sequential.round, anchor=ANCHOR))
    assert exported[0].settings == exported[1].settings
    assert exported[0].files == exported[1].files
