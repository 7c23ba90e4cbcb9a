"""Cloning last term's competition for a new class, or importing its bundle: the organizer
picks which rounds the copy keeps (a clone: all ticked as the page opens; an import: the
addresses typed, none for every round, on the page or with ``bundle_import --rounds``); a
presentation window or a standings division counting a round left out is not copied."""

import copy
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_duration
from django.utils.duration import duration_iso_string

from pwscup.bundles import services
from pwscup.bundles.selectors import competition_bundle
from pwscup.competitions.models import Competition
from pwscup.competitions.standings_models import Standings
from pwscup.competitions.standings_services import (
    DivisionInput,
    EntryInput,
    standings_division_add,
    standings_update,
)
from pwscup.presentations.services import presentation_window_create
from tests.pwscup.bundle_helpers import START, creator, members_of, rebuilt
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered

pytestmark = pytest.mark.django_db


def _two_rounds(world, *, later: dt.timedelta = dt.timedelta(0)) -> Competition:
    """A competition of two rounds, r1 and r2, organized by the world's organizer; r2 as r1,
    each of its times ``later``."""
    data = competition_bundle(competition=world.competition).data
    original = members_of(data)["rounds/r1/original.csv"]

    def two(manifest):
        twin = copy.deepcopy(manifest["rounds"][0])
        twin.update(slug="r2", order=2, name="Round 2")
        twin["files"]["original.csv"]["path"] = "rounds/r2/original.csv"
        for phase in twin["settings"]["phases"].values():
            for key in ("opens_at", "closes_at"):
                phase[key] = duration_iso_string(parse_duration(phase[key]) + later)
        manifest["rounds"].append(twin)

    two_rounds = rebuilt(data, change=two, files={"rounds/r2/original.csv": original})
    organizer = creator(world.organizer)
    return services.competition_import(
        bundle_file=io.BytesIO(two_rounds), name="Last term", slug="last", start=START,
        user=organizer,
    )  # fmt: skip


def _talks(last: Competition, organizer) -> None:
    """A presentation window per round of ``last``, titled ``Talks <address>``."""
    for round_ in last.rounds.all():
        presentation_window_create(
            competition=last,
            user=organizer,
            round=round_,
            title=f"Talks {round_.slug}",
            opens_at=START + dt.timedelta(days=1),
            closes_at=START + dt.timedelta(days=2),
        )


def test_the_clone_page_ticks_every_round_and_copies_only_the_ticked(client, world):
    last = _two_rounds(world)
    _talks(last, world.organizer)
    client.force_login(world.organizer)
    address = reverse("bundles:clone", args=[last.slug])
    fields = form_fields_of(client.get(address).content.decode(), "bundle-clone-form")
    ticked = {f["value"]: f["checked"] for f in fields if f["name"] == "rounds"}
    assert ticked == {"r1": True, "r2": True}
    start = (START + dt.timedelta(days=400)).strftime("%Y-%m-%dT%H:%M")
    fill = {"name": "This term", "slug": "this", "start": start, "rounds": "r2"}
    response = post_as_rendered(client, address, "bundle-clone-form", fill)
    assert response.status_code == 302
    this = Competition.objects.get(slug="this")
    assert list(this.rounds.values_list("slug", flat=True)) == ["r2"]
    windows = this.presentation_windows.values_list("title", "round__slug")
    assert list(windows) == [("Talks r2", "r2")]
    assert last.rounds.count() == 2


def test_a_clone_without_any_round_is_refused_with_what_to_do(client, world):
    last = _two_rounds(world)
    client.force_login(world.organizer)
    address = reverse("bundles:clone", args=[last.slug])
    start = START.strftime("%Y-%m-%dT%H:%M")
    fill = {"name": "Empty", "slug": "empty", "start": start, "rounds": "none"}
    response = post_as_rendered(client, address, "bundle-clone-form", fill)
    assert response.status_code == 200
    assert "Tick at least one round to copy." in response.content.decode()
    assert not Competition.objects.filter(slug="empty").exists()


def _divisions(last: Competition, *, first: list[str], second: list[str]) -> None:
    """Two standings divisions of ``last``: the first counting the rounds ``first``, the
    ``attack`` division the rounds ``second``."""

    def entries(slugs):
        return [
            EntryInput(last.rounds.get(slug=slug), Decimal("1"), ("anonymization",))
            for slug in slugs
        ]

    standings_update(user=None, competition=last, rule="weighted_rank", entries=entries(first))
    standings_division_add(
        user=None,
        competition=last,
        division=DivisionInput("attack", "Attack division", "攻撃部門"),
        rule="weighted_rank",
        entries=entries(second),
    )


def _divisions_of(competition: Competition) -> list[tuple[str, list[str]]]:
    return [
        (division.key, [entry.round.slug for entry in division.entries.all()])
        for division in Standings.objects.filter(competition=competition).order_by("order")
    ]


def test_a_clone_leaves_out_a_later_division_counting_a_round_left_out(world):
    last = _two_rounds(world)
    _divisions(last, first=["r2"], second=["r1", "r2"])
    this = services.competition_clone(
        competition=last, name="This", slug="this", start=START, user=world.organizer,
        rounds={"r2"},
    )  # fmt: skip
    assert _divisions_of(this) == [("overall", ["r2"])]


def test_the_import_page_imports_only_the_rounds_typed_as_a_clone_keeps_them(client, world):
    last = _two_rounds(world)
    _talks(last, world.organizer)
    # The first division counts r1, left out: the attack division, on r2 only, comes first.
    _divisions(last, first=["r1", "r2"], second=["r2"])
    bundle = competition_bundle(competition=last).data
    client.force_login(creator(world.organizer))
    address = reverse("bundles:import")
    start = (START + dt.timedelta(days=400)).strftime("%Y-%m-%dT%H:%M")
    fill = {"bundle": ("last-bundle.zip", bundle), "slug": "picked", "start": start}
    refused = post_as_rendered(client, address, "bundle-import-form", fill | {"rounds": "r2 r9"})
    assert refused.status_code == 200
    assert (
        "The bundle has no round &#x27;r9&#x27;; its rounds are r1, r2." in refused.content.decode()
    )
    assert not Competition.objects.filter(slug="picked").exists()
    response = post_as_rendered(client, address, "bundle-import-form", fill | {"rounds": "r2"})
    assert response.status_code == 302
    picked = Competition.objects.get(slug="picked")
    assert list(picked.rounds.values_list("slug", flat=True)) == ["r2"]
    windows = picked.presentation_windows.values_list("title", "round__slug")
    assert list(windows) == [("Talks r2", "r2")]
    assert _divisions_of(picked) == [("attack", ["r2"])]


def _windows(competition: Competition, slug: str) -> list[tuple[dt.datetime, dt.datetime]]:
    """The round ``slug``'s phases in ``competition``, ``(opens_at, closes_at)`` in order."""
    phases = competition.rounds.get(slug=slug).phases.order_by("opens_at", "closes_at")
    return list(phases.values_list("opens_at", "closes_at"))


def _from(start: dt.datetime, *hours: tuple[int, int]) -> list[tuple[dt.datetime, dt.datetime]]:
    return [(start + dt.timedelta(hours=a), start + dt.timedelta(hours=b)) for a, b in hours]


# The world's round: anonymization 0 h → 2 h, attack 0 h → 3 h; r2 begins 2 h after r1.
LATER = dt.timedelta(hours=2)


def test_bundle_import_of_a_later_round_opens_it_on_the_start_typed(world, tmp_path):
    last = _two_rounds(world, later=LATER)
    path = tmp_path / "last.zip"
    path.write_bytes(competition_bundle(competition=last).data)
    organizer = creator(world.organizer)
    call_command(
        "bundle_import", str(path), "--slug", "cli", "--start", "2031-04-01T09:00+09:00",
        "--organizer", organizer.username, "--rounds", "r2", stdout=io.StringIO(),
    )  # fmt: skip
    imported = Competition.objects.get(slug="cli")
    assert list(imported.rounds.values_list("slug", flat=True)) == ["r2"]
    assert _windows(imported, "r2") == _from(START - dt.timedelta(hours=9), (0, 2), (0, 3))


def test_a_whole_import_keeps_the_later_round_later_and_a_clone_of_it_starts_it(world):
    last = _two_rounds(world, later=LATER)
    organizer = creator(world.organizer)
    both = services.competition_import(
        bundle_file=io.BytesIO(competition_bundle(competition=last).data), name="", slug="both",
        start=START, user=organizer, rounds={"r1", "r2"},
    )  # fmt: skip
    assert _windows(both, "r1") == _from(START, (0, 2), (0, 3))
    assert _windows(both, "r2") == _from(START, (2, 4), (2, 5))
    copied = services.competition_clone(
        competition=last, name="", slug="copied", start=START, user=organizer, rounds={"r2"}
    )
    assert _windows(copied, "r2") == _from(START, (0, 2), (0, 3))


def test_the_closed_phases_refused_are_those_of_the_later_round_on_the_start(world):
    last = _two_rounds(world, later=LATER)
    # r2's anonymization closed half an hour ago, its attack phase closes in half an hour.
    start = timezone.now() - dt.timedelta(hours=2.5)
    with pytest.raises(ValidationError) as refused:
        services.competition_clone(
            competition=last, name="", slug="late", start=start, user=creator(world.organizer),
            rounds={"r2"}, closed_allowed=False,
        )  # fmt: skip
    (message,) = refused.value.message_dict["start"]
    assert message.startswith(
        "With this start, 1 phase would already be closed: Round 2 (r2): Anonymization phase"
    )
    assert not Competition.objects.filter(slug="late").exists()


def test_a_kept_round_edited_to_begin_ages_later_is_refused_at_the_start(world):
    last = _two_rounds(world)

    def ages(manifest):
        for phase in manifest["rounds"][1]["settings"]["phases"].values():
            phase.update(opens_at="P999999990D", closes_at="P999999991D")

    edited = rebuilt(competition_bundle(competition=last).data, change=ages)
    with pytest.raises(ValidationError) as refused:
        services.competition_import(
            bundle_file=io.BytesIO(edited), name="", slug="ages", start=START,
            user=creator(world.organizer), rounds={"r2"},
        )  # fmt: skip
    assert refused.value.message_dict == {
        "start": ["The rounds to import begin too far from this start."]
    }
