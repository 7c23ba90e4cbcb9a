"""A bundle carries a round's schedule as planned, not as an action cut it.

*Close now*, a publication and *Open the attack phase now* move a round's windows; the round's
pages keep showing when they really closed, and a clone (next year's contest) gets the phase
lengths the organizer had planned. An organizer's edit of the dates is the new plan.
(``pwscup.competitions.windows``, ``UploadDates.planned_window``, docs/bundles.md.)
"""

import datetime as dt
import itertools
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.bundles import services
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.selectors import phase_closes_at
from pwscup.competitions.services import phase_set, round_phase_open_now, round_phases_close
from pwscup.dp.models import DPRound
from pwscup.dp.services import dp_round_window_set
from pwscup.presentations.models import PresentationWindow
from pwscup.presentations.services import presentation_window_create, presentation_window_update
from pwscup.pwscup2015.console.services import console_round_update
from tests.pwscup.bundle_helpers import START, creator
from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.syn_world import syn_world
from tests.support import build_world

pytestmark = pytest.mark.django_db

HOUR, DAY = dt.timedelta(hours=1), dt.timedelta(days=1)
_numbers = itertools.count(1)


@dataclass
class Source:
    competition: Competition
    round: Round
    organizer: object


def _pwscup2015() -> Source:
    """Anonymization open for another hour (2 h planned), attack 1 h later for 2 h."""
    world = build_world(slug=f"plan{next(_numbers)}", attack_open=False)
    return Source(world.competition, world.round, world.organizer)


def _synthetic() -> Source:
    """Release open for another day (2 days planned), attack after it for 2 days."""
    world = syn_world(slug=f"synplan{next(_numbers)}", letters="a")
    return Source(world.competition, world.round, world.organizer)


def _dp() -> Source:
    """Release phase open for another hour (2 h planned)."""
    world = build_dp_world(slug=f"dpplan{next(_numbers)}")
    return Source(world.competition, world.round, world.organizer)


def windows(competition: Competition) -> list:
    """Every upload window of the competition's rounds, in the order they run."""
    phases = Phase.objects.filter(round__competition=competition).order_by(
        "round__order", "opens_at", "pk"
    )
    return [*phases, *DPRound.objects.filter(round__competition=competition)]


def times(competition: Competition) -> list[tuple[dt.datetime, dt.datetime]]:
    return [(window.opens_at, window.closes_at) for window in windows(competition)]


def from_start(schedule, start: dt.datetime) -> list[tuple[dt.timedelta, dt.timedelta]]:
    return [(opens - start, closes - start) for opens, closes in schedule]


def clone_of(source: Source, slug: str) -> Competition:
    return services.competition_clone(
        competition=source.competition,
        name="",
        slug=slug,
        start=START,
        user=creator(source.organizer),
    )


def console_action(source: Source, action: str) -> None:
    """The organizer presses the action's button on the round's control page."""
    client = Client()
    client.force_login(source.organizer)
    url = reverse("console:round_action", args=[source.competition.slug, source.round.slug, action])
    assert client.post(url).status_code == 302


# (kind, its source round, the action, as the console offers it)
CASES: list[tuple[str, Callable[[], Source], str]] = [
    ("pwscup2015", _pwscup2015, "close"),
    ("pwscup2015", _pwscup2015, "publish"),
    ("synthetic", _synthetic, "close"),
    ("synthetic", _synthetic, "publish"),
    ("synthetic", _synthetic, "attack_now"),
    ("dp", _dp, "close"),
]
# What the organizer presses first, for an action the console offers only after it: a
# two-sided round publishes its results once its releases are frozen (the freeze moves no
# window).
FIRST = {("synthetic", "publish"): "freeze"}


@pytest.mark.parametrize(
    ("kind", "build", "action"), CASES, ids=[f"{kind}-{action}" for kind, _b, action in CASES]
)
def test_a_round_cut_short_by_an_action_is_cloned_with_its_planned_schedule(kind, build, action):
    source = build()
    assert source.round.kind == kind
    if (kind, action) in FIRST:
        console_action(source, FIRST[kind, action])
    planned = times(source.competition)
    before = timezone.now()
    console_action(source, action)
    after = timezone.now()
    actual = times(source.competition)
    # The action really cut the round: a window closed now, earlier than planned.
    cut = [
        i for i, (window, plan) in enumerate(zip(actual, planned, strict=True)) if window != plan
    ]
    assert cut and before <= actual[cut[0]][1] <= after < planned[cut[0]][1]

    # The round's pages (here the API's schedule, what the pages and the client show) keep
    # when it really closed (a release phase: at the freeze, when that came first), and
    # the plan of a window that closed earlier.
    client = Client()
    client.force_login(source.organizer)
    status = client.get(
        reverse("api:round-status", args=[source.competition.slug, source.round.slug])
    ).json()
    shown = [dt.datetime.fromisoformat(line["closes_at"]) for line in status["schedule"]]
    real = [
        phase_closes_at(phase=window) if isinstance(window, Phase) else window.closes_at
        for window in windows(source.competition)
    ]
    assert shown == real
    plans = [line["planned_closes_at"] for line in status["schedule"]]
    assert [plan and dt.datetime.fromisoformat(plan) for plan in plans] == [
        plan if close < plan else None for close, (_opens, plan) in zip(real, planned, strict=True)
    ]

    # The clone gets the plan: every phase's length and gap as planned, from the new start.
    clone = clone_of(source, f"{source.competition.slug}-next")
    anchor = min(opens for opens, _closes in planned)
    assert from_start(times(clone), START) == from_start(planned, anchor)
    # A copy's windows were never moved: its own plan is its schedule.
    assert all(w.planned_opens_at is None for w in windows(clone))


def test_a_later_action_never_replaces_the_plan_the_first_one_kept():
    source = _pwscup2015()
    planned = times(source.competition)
    now = timezone.now()
    round_phases_close(round=source.round, now=now)  # the attack phase collapses at now
    round_phase_open_now(round=source.round, kind=Phase.Kind.ATTACK, now=now + HOUR)
    attack = Phase.objects.get(round=source.round, kind=Phase.Kind.ATTACK)
    plan_opens_at, plan_closes_at = attack.planned_window()
    assert plan_closes_at - plan_opens_at != 7 * DAY  # the bundles' default for a lost length
    # Opened again, it runs for its planned length, not the default.
    assert (attack.opens_at, attack.closes_at) == (
        now + HOUR,
        now + HOUR + (plan_closes_at - plan_opens_at),
    )
    assert [w.planned_window() for w in windows(source.competition)] == planned


def test_an_organizers_edit_after_an_early_close_is_the_new_plan():
    source = _pwscup2015()
    console_action(source, "close")
    # The console's round page, saved with new dates for both phases (the collapsed attack
    # phase cannot be saved as it is: a phase closes after it opens).
    zone_now = timezone.now().replace(second=0, microsecond=0)
    edited = {
        Phase.Kind.ANONYMIZATION: (zone_now + DAY, zone_now + 4 * DAY),
        Phase.Kind.ATTACK: (zone_now + 5 * DAY, zone_now + 6 * DAY),
    }
    console_round_update(
        user=source.organizer,
        round=source.round,
        values={},
        phases={
            kind: {"opens_at": opens, "closes_at": closes}
            for kind, (opens, closes) in edited.items()
        },
    )
    assert times(source.competition) == list(edited.values())
    assert all(w.planned_opens_at is None for w in windows(source.competition))
    clone = clone_of(source, "edited-next")
    assert from_start(times(clone), START) == from_start(list(edited.values()), zone_now + DAY)


def test_a_page_saved_again_with_the_dates_it_showed_keeps_the_plan():
    """A form shows and sends minutes: the cut close, sent back to the minute with only the
    limits changed, is no edit of the dates."""
    source = _pwscup2015()
    planned = times(source.competition)
    console_action(source, "close")
    anonymization = Phase.objects.get(round=source.round, kind=Phase.Kind.ANONYMIZATION)
    phase_set(
        round=source.round,
        kind=Phase.Kind.ANONYMIZATION,
        opens_at=anonymization.opens_at.replace(second=0, microsecond=0),
        closes_at=anonymization.closes_at.replace(second=0, microsecond=0),
        daily_limit=5,
    )
    anonymization.refresh_from_db()
    assert anonymization.daily_limit == 5
    assert anonymization.planned_window() == planned[0]


def test_a_dp_window_edited_after_close_now_is_cloned_as_edited():
    source = _dp()
    console_action(source, "close")
    dp_round = DPRound.objects.get(round=source.round)
    assert dp_round.planned_opens_at is not None
    opens = timezone.now().replace(second=0, microsecond=0) + DAY
    dp_round_window_set(dp_round=dp_round, opens_at=opens, closes_at=opens + 3 * DAY)
    dp_round.refresh_from_db()
    assert dp_round.planned_window() == (opens, opens + 3 * DAY)
    clone = clone_of(source, "dp-edited-next")
    assert from_start(times(clone), START) == [(dt.timedelta(0), 3 * DAY)]


def test_a_presentation_window_is_exported_as_planned():
    """No action moves a presentation window today; the export reads its plan all the same
    (one method for every window), and an edit of its dates clears a kept plan."""
    source = _pwscup2015()
    planned = times(source.competition)
    anchor = planned[0][0]
    window = presentation_window_create(
        competition=source.competition,
        user=source.organizer,
        title="Talks",
        opens_at=anchor + DAY,
        closes_at=anchor + 2 * DAY,
        time_zone="UTC",
        max_bytes=1000,
    )
    PresentationWindow.objects.filter(pk=window.pk).update(
        closes_at=anchor + DAY + HOUR,
        planned_opens_at=anchor + DAY,
        planned_closes_at=anchor + 2 * DAY,
    )
    clone = clone_of(source, "talks-next")
    copied = PresentationWindow.objects.get(competition=clone)
    assert (copied.opens_at, copied.closes_at) == (START + DAY, START + 2 * DAY)
    presentation_window_update(window=window, user=source.organizer, closes_at=anchor + 3 * DAY)
    window.refresh_from_db()
    assert window.planned_window() == (anchor + DAY, anchor + 3 * DAY)
