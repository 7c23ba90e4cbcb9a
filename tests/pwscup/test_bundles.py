"""Competition bundles: export, import and clone through the services (pwscup/bundles/), on a
2015 round; what a bad bundle is refused with, and that a failed import leaves nothing."""

import copy
import datetime as dt
import hashlib
import io
import json

import jsonschema
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation
from django.utils.dateparse import parse_duration

from pwscup.bundles import services
from pwscup.bundles.manifest import SCHEMA_PATH
from pwscup.bundles.selectors import competition_bundle
from pwscup.competitions.models import AuditEntry, Competition, Phase, Round
from pwscup.presentations.services import presentation_window_create
from pwscup.pwscup2015.console.services import console_round_publish
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.pwscup.bundle_helpers import (
    START,
    creator,
    manifest_of,
    members_of,
    rebuilt,
    storage_names,
)

pytestmark = pytest.mark.django_db


def _import(data: bytes, user, *, slug="copy", name="", start=START) -> Competition:
    return services.competition_import(
        bundle_file=io.BytesIO(data), name=name, slug=slug, start=start, user=user
    )


def _refused(data: bytes, user, **kwargs) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        _import(data, user, **kwargs)
    return caught.value.messages


def _tuned(world):
    """The world's round with settings other than the defaults, so the round trip shows them."""
    game = world.round.pwscup2015
    Pwscup2015Round.objects.filter(pk=game.pk).update(
        utility_gates={"U1": 5000},
        tie_break_metric="U5",
        ranking_rule=Pwscup2015Round.RankingRule.MEAN_ATTACK,
        selection_rule=Pwscup2015Round.SelectionRule.BEST,
        attack_visibility=Pwscup2015Round.AttackVisibility.ON_PUBLISH,
        auto_freeze=False,
    )
    Phase.objects.filter(pk=world.anonymization.pk).update(
        daily_limit=3, total_limit=9, leaderboard_public=True
    )
    Phase.objects.filter(pk=world.attack.pk).update(target_limit=2)
    Competition.objects.filter(pk=world.competition.pk).update(
        description="# Cup\n\n日本語も", is_listed=False, max_team_size=3
    )
    world.competition.refresh_from_db()
    return world


def test_a_2015_round_goes_round_trip_with_equal_manifest_and_files(world):
    _tuned(world)
    organizer = creator(world.organizer)
    first = competition_bundle(competition=world.competition)
    manifest = first.manifest
    assert manifest["format"] == "pwscup-competition-bundle" and manifest["version"] == 1
    assert manifest["competition"] == {
        "name": "Cup cup",
        "description": "# Cup\n\n日本語も",
        "is_listed": False,
        "max_team_size": 3,
    }
    (entry,) = manifest["rounds"]
    assert entry["settings"]["phases"]["anonymization"] == {
        "opens_at": "P0DT00H00M00S",
        "closes_at": "P0DT02H00M00S",
        "daily_limit": 3,
        "total_limit": 9,
        "target_limit": None,
        "leaderboard_public": True,
    }
    assert entry["settings"]["phases"]["attack"]["target_limit"] == 2
    assert entry["settings"]["ranking_rule"] == "mean_attack"
    assert entry["files"]["original.csv"]["size"] == len(world.original)
    # No slug of the competition, no absolute date anywhere in the manifest.
    text = members_of(first.data)["manifest.json"].decode()
    assert '"cup"' not in text and "20" + str(START.year)[2:] not in text
    assert str(world.anonymization.opens_at.year) not in text

    new = _import(first.data, organizer, slug="copy")
    assert new.organizers.get() == organizer and new.name == "Cup cup" and not new.is_listed
    copied = new.rounds.get()
    assert copied.slug == "r1" and copied.kind == "pwscup2015"
    assert copied.phases.get(kind="anonymization").opens_at == START
    assert copied.phases.get(kind="attack").closes_at == START + dt.timedelta(hours=3)
    assert copied.phases.get(kind="attack").target_limit == 2
    second = competition_bundle(competition=new)
    assert members_of(second.data)["manifest.json"] == members_of(first.data)["manifest.json"]
    assert members_of(second.data) == members_of(first.data)
    assert second.data == first.data  # the ZIP itself: fixed times, sorted members
    assert AuditEntry.objects.filter(
        competition=new, action=AuditEntry.Action.COMPETITION_IMPORTED
    ).exists()


def test_export_is_audited_and_clone_takes_the_same_path(world):
    organizer = creator(world.organizer)
    data = services.competition_export(competition=world.competition, user=organizer)
    entry = AuditEntry.objects.get(
        competition=world.competition, action=AuditEntry.Action.BUNDLE_EXPORTED
    )
    assert entry.detail["rounds"] == 1 and entry.user == organizer
    clone = services.competition_clone(
        competition=world.competition, name="Cup again", slug="again", start=START, user=organizer
    )
    assert clone.name == "Cup again" and clone.rounds.count() == 1
    assert not clone.teams.exists()
    assert AuditEntry.objects.get(
        competition=clone, action=AuditEntry.Action.COMPETITION_CLONED
    ).detail == {"name": "Cup again", "rounds": 1, "source": "cup"}
    # The source's log has the export the clone made (hidden data included), naming the copy.
    (cloned,) = AuditEntry.objects.filter(
        competition=world.competition,
        action=AuditEntry.Action.BUNDLE_EXPORTED,
        detail__cloned_into="again",
    )
    assert cloned.detail["include_hidden"] is True and cloned.user == organizer
    again = competition_bundle(competition=clone)
    expected = copy.deepcopy(manifest_of(data))
    expected["competition"]["name"] = "Cup again"
    assert again.manifest == expected


def test_only_a_creator_imports_and_only_an_organizer_creator_clones(world, django_user_model):
    data = competition_bundle(competition=world.competition).data
    with pytest.raises(PermissionDenied):
        _import(data, world.organizer)  # organizes, may not create competitions
    stranger = creator(django_user_model.objects.create_user("stranger", password="pw"))
    with pytest.raises(PermissionDenied):
        services.competition_clone(
            competition=world.competition, name="", slug="mine", start=START, user=stranger
        )
    assert Competition.objects.count() == 1


def test_the_schema_is_valid_and_served_as_it_is(client):
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    response = client.get(reverse("bundles:schema"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/schema+json")
    assert json.loads(response.content) == schema


def test_a_bundle_written_before_the_limit_per_target_imports_without_one(world):
    _tuned(world)
    data = rebuilt(
        competition_bundle(competition=world.competition).data,
        change=lambda m: m["rounds"][0]["settings"]["phases"]["attack"].pop("target_limit"),
    )
    copied = _import(data, creator(world.organizer), slug="older").rounds.get()
    assert copied.phases.get(kind="attack").target_limit is None
    assert copied.phases.get(kind="anonymization").total_limit == 9


STANDINGS = {"rule": "weighted_rank", "rounds": [{"round": "r1", "weight": 1, "rankings": ["x"]}]}


def _standings(**changes):
    def change(manifest):
        standings = copy.deepcopy(STANDINGS)
        standings["rounds"][0].update(changes.get("entry", {}))
        standings.update(changes.get("top", {}))
        manifest["standings"] = standings

    return change


@pytest.mark.parametrize(
    ("change", "english", "japanese"),
    [
        (
            _standings(entry={"weight": 0}),
            "standings.rounds[0].weight: 0 must be more than 0.",
            "0 は 0 より大きくなければなりません",
        ),
        (
            _standings(top={"rule": "xyz"}),
            "standings.rule: 'xyz' is not one of \"weighted_rank\"",
            "'xyz' は \"weighted_rank\"",
        ),
        (
            _standings(entry={"rankings": []}),
            "standings.rounds[0].rankings: 0 items; at least 1 are needed.",
            "少なくとも 1 個必要です",
        ),
    ],
)
def test_a_schema_refusal_reads_in_the_readers_language(world, change, english, japanese):
    organizer = creator(world.organizer)
    data = rebuilt(competition_bundle(competition=world.competition).data, change=change)
    assert any(english in message for message in _refused(data, organizer))
    with translation.override("ja"):
        assert any(japanese in message for message in _refused(data, organizer))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda m: m.update(version=2),
            "manifest.json: version 2 is unknown: this site reads version 1 bundles.",
        ),
        (
            lambda m: m.update(format="other"),
            "manifest.json: format 'other' is not a competition bundle",
        ),
        (
            lambda m: m["rounds"][0].update(kind="chess"),
            "manifest.json: rounds[0] (r1).kind: Unknown round kind 'chess'",
        ),
        (
            lambda m: m["rounds"][0].update(slug="no/slash"),
            "manifest.json: rounds[0].slug: 'no/slash' does not have the expected form",
        ),
        (
            lambda m: m["rounds"][0].update(timezone="Mars/Base"),
            "manifest.json: rounds[0] (r1).timezone: Unknown time zone 'Mars/Base'",
        ),
        (
            lambda m: m["rounds"][0].pop("settings"),
            "manifest.json: rounds[0]: settings is missing.",
        ),
        (
            lambda m: m["competition"].update(max_team_size=0),
            "manifest.json: competition.max_team_size: 0 is less than 1.",
        ),
        (
            lambda m: m.update(extra=1),
            "manifest.json: (top level): unexpected key(s) 'extra'.",
        ),
        (
            lambda m: m["rounds"][0]["settings"].update(data_mode="bogus"),
            "manifest.json: rounds[0] (r1).settings.data_mode: data_mode must be one of shared, "
            "per_team, not 'bogus'.",
        ),
        (
            lambda m: m["rounds"][0]["settings"].update(sample_size=-1),
            "manifest.json: rounds[0] (r1).settings.sample_size: sample_size must be a whole "
            "number from 0 to 2147483647, or null, not -1.",
        ),
        (
            lambda m: m["rounds"][0]["settings"].update(data_mode="per_team", sample_size=None),
            "manifest.json: rounds[0] (r1).settings.sample_size: The per-team mode needs a "
            "sample size.",
        ),
        (
            lambda m: m["rounds"][0]["settings"].update(utility_gates={"U9": 1}),
            "manifest.json: rounds[0] (r1).settings.utility_gates:",
        ),
        (
            lambda m: m["rounds"][0]["settings"].update(surprise=True),
            "manifest.json: rounds[0] (r1).settings.surprise: Unknown setting 'surprise'",
        ),
        (
            lambda m: m["rounds"][0]["settings"].pop("auto_freeze"),
            "manifest.json: rounds[0] (r1).settings.auto_freeze: The setting auto_freeze is "
            "missing.",
        ),
        (
            lambda m: m["rounds"][0]["settings"]["phases"]["attack"].update(daily_limit=0),
            "manifest.json: rounds[0] (r1).settings.phases.attack.daily_limit: "
            "phases.attack.daily_limit must be a whole number from 1",
        ),
        (
            lambda m: m["rounds"][0]["settings"]["phases"]["attack"].update(target_limit=0),
            "manifest.json: rounds[0] (r1).settings.phases.attack.target_limit: "
            "phases.attack.target_limit must be a whole number from 1",
        ),
        (
            lambda m: m["rounds"][0]["settings"]["phases"].update(presentation={}),
            "manifest.json: rounds[0] (r1).settings.phases.presentation: Unknown setting",
        ),
        (
            lambda m: m["rounds"][0]["settings"]["phases"]["attack"].update(opens_at="soon"),
            "manifest.json: rounds[0] (r1).settings.phases.attack.opens_at: 'soon' is not a "
            "duration",
        ),
        (
            lambda m: m["rounds"][0]["settings"]["phases"]["attack"].update(closes_at="-P1D"),
            "manifest.json: rounds[0] (r1).settings.phases.attack.closes_at: Round “Round” "
            "(r1), Attack phase: it closes when or before it opens",
        ),
        (
            lambda m: m["rounds"][0]["settings"]["config"].update(qi=["no-such-column"]),
            'manifest.json: rounds[0] (r1).settings.config.qi: "qi" names column(s) not in',
        ),
    ],
)
def test_a_bad_manifest_is_refused_naming_the_file_and_field(world, change, expected):
    organizer = creator(world.organizer)
    data = rebuilt(competition_bundle(competition=world.competition).data, change=change)
    messages = _refused(data, organizer)
    assert any(message.startswith(expected) for message in messages), messages
    assert Competition.objects.count() == 1 and Round.objects.count() == 1


def test_a_reserved_round_address_is_refused_by_the_core(world):
    organizer = creator(world.organizer)
    data = competition_bundle(competition=world.competition).data
    original = members_of(data)["rounds/r1/original.csv"]

    def moved(manifest):
        manifest["rounds"][0]["slug"] = "team"
        manifest["rounds"][0]["files"]["original.csv"]["path"] = "rounds/team/original.csv"

    data = rebuilt(
        data, change=moved, files={"rounds/team/original.csv": original}, drop=["rounds/r1/"]
    )
    assert _refused(data, organizer) == [
        "manifest.json: rounds[0] (team).slug: The address team is taken by the team pages: "
        "choose another one."
    ]


def test_an_original_failing_the_kinds_checks_is_refused_naming_the_file(world):
    organizer = creator(world.organizer)
    lines = world.original.decode().splitlines(keepends=True)
    lines[3] = lines[3].rstrip("\n") + ",surplus\n"  # row 3 (after the header) has 16 fields
    broken = "".join(lines).encode()
    data = rebuilt(
        competition_bundle(competition=world.competition).data,
        files={"rounds/r1/original.csv": broken},
    )
    (message,) = _refused(data, organizer)
    assert message.startswith("rounds/r1/original.csv: ")
    assert "wrong number of fields" in message and "row 3 has 16 fields" in message


@pytest.mark.parametrize(
    ("start", "change", "expected"),
    [
        (dt.datetime(1800, 1, 1, tzinfo=dt.UTC), None, "Start: 1800-01-01 00:00 is outside"),
        (
            dt.datetime(9000, 12, 1, tzinfo=dt.UTC),
            lambda m: m["rounds"][0]["settings"]["phases"]["attack"].update(closes_at="P90D"),
            "manifest.json: rounds[0] (r1).settings.phases.attack.closes_at: Attack phase "
            "closes: 9001-03-01",
        ),
        (
            START,
            lambda m: m["rounds"][0]["settings"]["phases"]["attack"].update(
                closes_at="P999999999D"
            ),
            "manifest.json: rounds[0] (r1).settings.phases.attack.closes_at:",
        ),
    ],
)
def test_dates_out_of_range_are_refused(world, start, change, expected):
    organizer = creator(world.organizer)
    data = rebuilt(competition_bundle(competition=world.competition).data, change=change)
    messages = _refused(data, organizer, start=start)
    assert any(message.startswith(expected) for message in messages), messages
    assert Competition.objects.count() == 1


def test_files_not_as_listed_are_refused(world):
    organizer = creator(world.organizer)
    data = competition_bundle(competition=world.competition).data
    original = members_of(data)["rounds/r1/original.csv"]
    longer = original + b"\n"
    changed = rebuilt(data, files={"rounds/r1/original.csv": longer}, relist=False)
    # An original edited by hand: the refusal says how to list it as it is now.
    assert _refused(changed, organizer) == [
        f"rounds/r1/original.csv: {len(longer)} bytes, but manifest.json lists "
        f"{len(original)}. If you changed the file on purpose, list it as it is now in "
        f'manifest.json (rounds[0].files.original.csv: "size": {len(longer)}, "sha256": '
        f'"{hashlib.sha256(longer).hexdigest()}"); otherwise export the bundle again.'
    ]
    same_size = original[:-1] + b"X"
    changed = rebuilt(data, files={"rounds/r1/original.csv": same_size}, relist=False)
    assert _refused(changed, organizer) == [
        "rounds/r1/original.csv: its SHA-256 differs from the one manifest.json lists (the "
        "file was changed or damaged). If you changed the file on purpose, list it as it is "
        f'now in manifest.json (rounds[0].files.original.csv: "size": {len(same_size)}, '
        f'"sha256": "{hashlib.sha256(same_size).hexdigest()}"); otherwise export the bundle '
        "again."
    ]
    extra = rebuilt(data, files={"rounds/r1/notes.txt": b"hello"})
    assert _refused(extra, organizer) == [
        "The bundle's member 'rounds/r1/notes.txt' is not listed in manifest.json."
    ]

    def drop(manifest):
        manifest["rounds"][0]["files"]["sample.csv"] = {
            "path": "rounds/r1/sample.csv",
            "sha256": "0" * 64,
            "size": 1,
        }

    assert _refused(rebuilt(data, change=drop), organizer) == [
        "rounds/r1/sample.csv: listed in manifest.json but missing from the bundle."
    ]

    def moved(manifest):
        manifest["rounds"][0]["files"]["original.csv"]["path"] = "rounds/r2/original.csv"

    assert _refused(rebuilt(data, change=moved), organizer)[0].startswith(
        "manifest.json: rounds[0].files.original.csv.path: 'rounds/r2/original.csv' should be "
        "rounds/r1/original.csv."
    )


def test_the_address_and_name_are_checked_first(world):
    organizer = creator(world.organizer)
    data = competition_bundle(competition=world.competition).data
    with pytest.raises(ValidationError) as caught:
        _import(data, organizer, slug="cup", name="x" * 201)
    assert set(caught.value.message_dict) == {"slug", "name"}
    with pytest.raises(ValidationError) as caught:
        _import(data, organizer, slug="import")
    assert "taken by the console's pages" in caught.value.message_dict["slug"][0]


def _three_rounds_third_broken(world) -> bytes:
    data = competition_bundle(competition=world.competition).data
    members = members_of(data)
    original = members["rounds/r1/original.csv"]

    def three(manifest):
        (entry,) = manifest["rounds"]
        for slug, order in (("r2", 2), ("r3", 3)):
            twin = copy.deepcopy(entry)
            twin.update(slug=slug, order=order, name=f"Round {order}")
            twin["files"]["original.csv"]["path"] = f"rounds/{slug}/original.csv"
            manifest["rounds"].append(twin)

    header_only = original.splitlines(keepends=True)[0]  # no row: the kind refuses it
    return rebuilt(
        data,
        change=three,
        files={"rounds/r2/original.csv": original, "rounds/r3/original.csv": header_only},
    )


def _nothing_left_by_a_failed_import(world):
    organizer = creator(world.organizer)
    data = _three_rounds_third_broken(world)
    before = storage_names()
    messages = _refused(data, organizer)
    assert messages[0].startswith("rounds/r3/original.csv: "), messages
    assert list(Competition.objects.values_list("slug", flat=True)) == ["cup"]
    assert Round.objects.count() == 1 and Pwscup2015Round.objects.count() == 1
    assert storage_names() == before
    # The same bundle with the third original whole imports, its three rounds' files kept.
    fixed = rebuilt(
        data, files={"rounds/r3/original.csv": members_of(data)["rounds/r1/original.csv"]}
    )
    new = _import(fixed, organizer)
    assert list(new.rounds.values_list("slug", flat=True)) == ["r1", "r2", "r3"]
    assert len(storage_names() - before) == 3


def test_one_import_names_the_errors_of_every_round(world):
    """A round with errors does not hide the next one's: every round is checked, and the
    answer names each error by its round and path."""
    organizer = creator(world.organizer)
    data = services.competition_export(competition=world.competition, user=organizer)
    first = manifest_of(data)["rounds"][0]
    original = members_of(data)[first["files"]["original.csv"]["path"]]

    def change(manifest):
        second = copy.deepcopy(manifest["rounds"][0])
        second.update(slug="second", order=2)
        second["files"]["original.csv"]["path"] = "rounds/second/original.csv"
        second["settings"]["phases"]["attack"]["closes_at"] = "next monday"
        second["settings"]["colour"] = "red"
        manifest["rounds"][0]["settings"]["data_mode"] = "everyone"
        manifest["rounds"].append(second)

    messages = _refused(
        rebuilt(data, change=change, files={"rounds/second/original.csv": original}), organizer
    )
    for where in (
        f"rounds[0] ({first['slug']}).settings.data_mode",
        "rounds[1] (second).settings.phases.attack.closes_at",
        "rounds[1] (second).settings.colour",
    ):
        assert any(m.startswith(f"manifest.json: {where}: ") for m in messages), (where, messages)
    assert not Competition.objects.filter(slug="copy").exists()


def test_a_failed_import_leaves_no_row_and_no_file_on_the_local_disk(world):
    _nothing_left_by_a_failed_import(world)


def test_a_failed_import_leaves_no_row_and_no_file_in_the_bucket(s3_bucket, make_world):
    world = make_world()
    assert any(name.startswith("private/rounds/") for name in storage_names())
    _nothing_left_by_a_failed_import(world)


def test_the_commands_export_and_import_through_the_services(world, tmp_path, capsys):
    creator(world.organizer)
    path = tmp_path / "cup.zip"
    call_command("bundle_export", "cup", str(path), "--user", world.organizer.username)
    assert "cup: " in capsys.readouterr().out
    assert path.read_bytes() == competition_bundle(competition=world.competition).data
    call_command(
        "bundle_import", str(path), "--slug", "cli", "--start", "2031-04-01T18:00+09:00",
        "--organizer", world.organizer.username,
    )  # fmt: skip
    assert "Competition 'cli' imported with 1 round(s)" in capsys.readouterr().out
    cli = Competition.objects.get(slug="cli")
    assert cli.rounds.get().phases.get(kind="anonymization").opens_at == START
    with pytest.raises(CommandError, match="A competition with this address already exists"):
        call_command(
            "bundle_import", str(path), "--slug", "cli", "--start", "2031-04-01T09:00Z",
            "--organizer", world.organizer.username,
        )  # fmt: skip
    path.write_bytes(b"garbage")
    with pytest.raises(CommandError, match="not a ZIP file"):
        call_command(
            "bundle_import", str(path), "--slug", "cli2", "--start", "2031-04-01T09:00Z",
            "--organizer", world.organizer.username,
        )  # fmt: skip


def test_presentation_windows_go_round_trip_without_their_slides(world):
    """A round's window and the competition-wide one travel with their times as offsets and
    their limits; a window naming a round the bundle lacks is refused naming the field."""
    organizer = creator(world.organizer)
    opens = world.anonymization.opens_at
    presentation_window_create(
        competition=world.competition,
        user=organizer,
        round=world.round,
        title="Round talks",
        opens_at=opens + dt.timedelta(days=1),
        closes_at=opens + dt.timedelta(days=2),
        daily_limit=2,
    )
    presentation_window_create(
        competition=world.competition,
        user=organizer,
        title="Final talks",
        opens_at=opens + dt.timedelta(days=3),
        closes_at=opens + dt.timedelta(days=4),
        max_bytes=1_000_000,
    )
    first = competition_bundle(competition=world.competition)
    assert [(w["round"], w["title"], w["opens_at"]) for w in first.manifest["presentations"]] == [
        ("r1", "Round talks", "P1DT00H00M00S"),
        (None, "Final talks", "P3DT00H00M00S"),
    ]
    new = _import(first.data, organizer, slug="copy")
    windows = {w.title: w for w in new.presentation_windows.all()}
    assert windows["Round talks"].round == new.rounds.get()
    assert windows["Round talks"].opens_at == START + dt.timedelta(days=1)
    assert windows["Round talks"].daily_limit == 2 and windows["Round talks"].published_at is None
    assert windows["Final talks"].round is None and windows["Final talks"].max_bytes == 1_000_000
    assert competition_bundle(competition=new).manifest == first.manifest

    broken = rebuilt(first.data, change=lambda m: m["presentations"][0].update(round="nope"))
    messages = _refused(broken, organizer, slug="copy-2")
    assert messages == ["manifest.json: presentations[0].round: the bundle has no round nope."], (
        messages
    )
    late = rebuilt(first.data, change=lambda m: m["presentations"][1].update(closes_at="P0D"))
    messages = _refused(late, organizer, slug="copy-3")
    assert any(m.startswith("manifest.json: presentations[1].closes_at:") for m in messages)
    assert not Competition.objects.filter(slug__in=["copy-2", "copy-3"]).exists()


def test_a_round_published_before_its_attack_phase_opened_exports_imports_and_clones(
    make_world,
):
    """Publishing closes the attack phase that had not opened yet at that instant (it opens
    and closes at once): the export gives its plan. A phase collapsed so before plans were
    kept (no plan recorded) gets seven days from its opening, after the anonymization phase
    as before; import and clone accept the bundle."""
    world = make_world(attack_open=False)
    organizer = creator(world.organizer)
    planned = world.attack.closes_at - world.attack.opens_at
    console_round_publish(user=organizer, round=world.round)
    world.attack.refresh_from_db()
    assert world.attack.opens_at == world.attack.closes_at  # what publishing did
    phases = manifest_of(
        services.competition_export(competition=world.competition, user=organizer)
    )["rounds"][0]["settings"]["phases"]
    attack = {key: parse_duration(phases["attack"][key]) for key in ("opens_at", "closes_at")}
    assert attack["closes_at"] - attack["opens_at"] == planned
    # A round published before the platform kept plans: nothing says how long it was.
    Phase.objects.filter(round=world.round).update(planned_opens_at=None, planned_closes_at=None)
    data = services.competition_export(competition=world.competition, user=organizer)
    phases = manifest_of(data)["rounds"][0]["settings"]["phases"]
    opens = parse_duration(phases["attack"]["opens_at"])
    assert parse_duration(phases["attack"]["closes_at"]) - opens == dt.timedelta(days=7)
    assert parse_duration(phases["anonymization"]["closes_at"]) == opens
    assert manifest_of(data)["rounds"][0]["settings"]["allow_attack_before_close"] is False
    imported = _import(data, organizer, slug="next-year")
    cloned = services.competition_clone(
        competition=world.competition, name="", slug="next-clone", start=START, user=organizer
    )
    for competition in (imported, cloned):
        attack = Phase.objects.get(round__competition=competition, kind=Phase.Kind.ATTACK)
        anonymization = Phase.objects.get(
            round__competition=competition, kind=Phase.Kind.ANONYMIZATION
        )
        assert anonymization.opens_at == START
        assert anonymization.closes_at == attack.opens_at
        assert attack.closes_at - attack.opens_at == dt.timedelta(days=7)


def _collapsed(manifest):
    """What an older export wrote of a round published before its attack phase opened."""
    attack = manifest["rounds"][0]["settings"]["phases"]["attack"]
    attack["closes_at"] = attack["opens_at"]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "Round “Round” (r1), Attack phase: it closes when or before it opens, so it has no "
            "length (older exports wrote a phase that was closed before it opened so). Export "
            "the competition again from its site, or in manifest.json set its closes_at to a "
            "later duration than its opens_at.",
        ),
        (
            "ja",
            "ラウンド「Round」（r1）の攻撃フェーズ：終了が開始と同時か開始より前のため、期間が"
            "ありません（開始前に締め切られたフェーズを、以前の書き出しはこのように記録していま"
            "した）。元のサイトでコンペティションをもう一度書き出すか、manifest.json でこの "
            "closes_at を opens_at より後の期間にしてください。",
        ),
    ],
)
def test_a_phase_without_length_is_refused_naming_the_round_the_phase_and_the_way_out(
    world, language, expected
):
    organizer = creator(world.organizer)
    data = rebuilt(competition_bundle(competition=world.competition).data, change=_collapsed)
    with translation.override(language):
        messages = _refused(data, organizer)
    colon = "：" if language == "ja" else ": "
    where = "rounds[0] (r1).settings.phases.attack.closes_at"
    assert messages == [f"manifest.json{colon}{where}{colon}{expected}"]
