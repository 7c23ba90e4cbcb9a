"""The Submit and Results tabs apply two rules to the team's uploads they have already read,
without another query: the selection rule (``submission_by_rule_among``, against the
query ``submission_by_rule``) and the quota counts (``read_uploads_quota_usage``, against
``uploads_quota_usage``). On tie-heavy rows (equal upload times, a selected one, failed and
queued ones), each pair must give the same answer."""

import datetime as dt

import pytest
from django.utils import timezone

import scoring
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round
from pwscup.pwscup2015.selectors import (
    representative_submission,
    submission_by_rule,
    submission_by_rule_among,
    team_representative,
    team_submissions,
)
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import (
    QuotaDay,
    quota_day_of,
    read_uploads_quota_usage,
    uploads_quota_usage,
)
from tests.pwscup.factories import freeze, scored, upload

pytestmark = pytest.mark.django_db

START = dt.datetime(2025, 6, 3, 12, 0, tzinfo=dt.UTC)


def fake_scores(i: int) -> dict:
    """Scores of every metric; many submissions share their worst-case rate (ties)."""
    scores = {m: round(((i * 7 + k * 3) % 10) / 10, 3) for k, m in enumerate(scoring.METRICS)}
    for metric in scoring.ATTACK_METRICS:
        scores[metric] = 0.5
    return scores


# (team, minutes after START, status, selected); equal times on purpose
ROWS = [
    ("a", 0, Status.FINISHED, False),
    ("a", 0, Status.FINISHED, False),
    ("a", 5, Status.FAILED, False),
    ("a", 5, Status.QUEUED, False),
    ("b", 1, Status.FINISHED, False),
    ("b", 1, Status.FINISHED, True),
    ("b", 1, Status.FINISHED, False),
    ("b", 9, Status.RUNNING, False),
    ("c", 2, Status.FAILED, False),
]


def rows_of(world):
    for i, (letter, minutes, status, selected) in enumerate(ROWS):
        made = upload(world, letter, b"a,b\n1,2\n")
        AnonymizationSubmission.objects.filter(pk=made.pk).update(
            created_at=START + dt.timedelta(minutes=minutes),
            status=status,
            is_selected=selected,
            scores=fake_scores(i) if status == Status.FINISHED else {},
        )


@pytest.mark.parametrize("rule", list(Pwscup2015Round.SelectionRule))
def test_the_rule_over_read_rows_picks_what_the_query_picks(world, rule):
    Pwscup2015Round.objects.filter(round=world.round).update(selection_rule=rule)
    world.anonymization.round.refresh_from_db()
    rows_of(world)
    phase = world.anonymization
    picked = {}
    for letter, team in world.teams.items():
        read = list(team_submissions(phase=phase, team=team))
        expected = submission_by_rule(phase=phase, team=team)
        among = submission_by_rule_among(read, round=phase.round)
        reversed_among = submission_by_rule_among(read[::-1], round=phase.round)
        assert among == expected == reversed_among, (rule, letter)
        assert team_representative(phase=phase, team=team, submissions=read) == expected
        picked[letter] = among
    assert picked["a"] is not None and picked["b"] is not None
    assert picked["c"] is None  # a failed upload only
    if rule == Pwscup2015Round.SelectionRule.SELECTED_OR_LAST:
        assert picked["b"].is_selected


def test_once_frozen_the_representative_is_the_published_target(world):
    first = scored(world, "a", seed=1)
    published = scored(world, "a", seed=2)  # the last valid one: the target
    freeze(world)
    # The rule alone would now pick the first one (a row changed behind the services).
    AnonymizationSubmission.objects.filter(pk=first.pk).update(is_selected=True)
    phase, team = world.anonymization, world.teams["a"]
    phase.round.refresh_from_db()
    read = list(team_submissions(phase=phase, team=team))
    assert submission_by_rule_among(read, round=phase.round) == first
    chosen = team_representative(phase=phase, team=team, submissions=read)
    assert chosen == representative_submission(phase=phase, team=team) == published


@pytest.mark.parametrize("hours", [0, 1, 23, 24, 25, 49])
def test_the_quota_over_read_rows_counts_what_the_query_counts(world, hours):
    rows_of(world)
    phase = world.anonymization
    day = quota_day_of(phase.round)
    now = START + dt.timedelta(hours=hours)
    for team in world.teams.values():
        uploads = team_submissions(phase=phase, team=team)
        assert read_uploads_quota_usage(list(uploads), day=day, now=now) == (
            uploads_quota_usage(uploads, day=day, now=now)
        )


def test_the_quota_over_read_rows_leaves_out_failed_uploads_and_yesterdays():
    day = QuotaDay(time_zone="UTC")
    now = timezone.now()
    yesterday = now - dt.timedelta(days=1)

    class Row:
        def __init__(self, status, created_at):
            self.status, self.created_at = status, created_at

    rows = [
        Row(Status.FINISHED, now),
        Row(Status.QUEUED, now),
        Row(Status.FAILED, now),
        Row(Status.FINISHED, yesterday),
    ]
    quota = read_uploads_quota_usage(rows, day=day, now=now)
    assert (quota.used_today, quota.used_total) == (2, 3)
    assert quota.resets_at == day.resets_at(now)
