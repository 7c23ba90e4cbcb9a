"""The versions every round page and kept page read (``pwscup.accounts.page_versions``) are
written as SQL once per process; here they are compared with the ORM's reading of the same
rows: ``request_versions`` (the generation, a round's ranking version or 0, the viewer's
unread count, for visitors and users, addresses of no round), ``versions_now`` (a team's live
version and a scope with an empty side, a NULL matched as the ORM matches it), and a missing
generation row (nothing trusted)."""

import pytest
from django.utils import timezone

from pwscup.accounts.models import PageGeneration
from pwscup.accounts.page_versions import (
    VersionRead,
    ranking_version_read,
    request_versions,
    versions_now,
)
from pwscup.competitions.models import RankingVersion, Round
from pwscup.competitions.services import ranking_version_bump
from pwscup.notifications.models import Notification
from pwscup.submissions.models import LiveVersion
from pwscup.submissions.selectors import live_version_read

pytestmark = pytest.mark.django_db


def reference(*, competition_slug, round_slug, user_id):
    """The same three values, each read by the ORM on its own."""
    generation = PageGeneration.objects.filter(pk=1).values_list("value", flat=True).first()
    version = (
        RankingVersion.objects.filter(
            round__slug=round_slug, round__competition__slug=competition_slug
        )
        .values_list("version", flat=True)
        .first()
    )
    unread = Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()
    return generation, version or 0, unread


def notify(user, event, *, read=False):
    Notification.objects.create(
        user=user,
        kind=Notification.Kind.SUBMISSION_FINISHED,
        event=event,
        read_at=timezone.now() if read else None,
    )


def test_the_sql_reads_what_the_orm_reads(world):
    a, b = world.users["a"], world.users["b"]
    notify(a, "one")
    notify(a, "two")
    notify(a, "three", read=True)
    notify(b, "four", read=True)
    ranking_version_bump(round_ids=[world.round.pk])
    ranking_version_bump(round_ids=[world.round.pk])
    slug, other = world.competition.slug, "no-such-competition"
    cases = [
        (slug, world.round.slug, a.pk),
        (slug, world.round.slug, b.pk),
        (slug, world.round.slug, None),
        (slug, "no-such-round", a.pk),
        (other, world.round.slug, a.pk),
    ]
    answers = []
    for competition_slug, round_slug, user_id in cases:
        where = {"competition_slug": competition_slug, "round_slug": round_slug, "user_id": user_id}
        answer = request_versions(**where)
        assert answer == reference(**where), where
        answers.append(answer)
    # the fixture reaches every branch: a version, none, unread counts of 2 and 0
    assert [answer[1:] for answer in answers] == [(2, 2), (2, 0), (2, 0), (0, 2), (0, 2)]
    assert answers[0][0] is not None


def test_a_missing_generation_row_is_none_with_the_other_values_read(world):
    notify(world.users["a"], "one")
    ranking_version_bump(round_ids=[world.round.pk])
    PageGeneration.objects.filter(pk=1).delete()
    assert request_versions(
        competition_slug=world.competition.slug,
        round_slug=world.round.slug,
        user_id=world.users["a"].pk,
    ) == (None, 1, 1)


def test_versions_now_read_each_version_as_the_orm_does(world):
    user, team = world.users["a"], world.teams["a"]
    Round.objects.filter(pk=world.round.pk).update(name="Moved")
    LiveVersion.objects.create(round=world.round, team=team, version=12)
    LiveVersion.objects.create(round=world.round, team=None, version=24)
    reads = (
        ranking_version_read(world.round.pk),
        live_version_read(round_id=world.round.pk, team_id=team.pk),
        live_version_read(round_id=world.round.pk, team_id=world.teams["b"].pk),  # no row
        VersionRead("submissions.LiveVersion", (("round_id", world.round.pk), ("team_id", None))),
    )
    notify(user, "one")
    now = versions_now(user_id=user.pk, reads=reads)
    generation, _ranking, unread = reference(
        competition_slug=world.competition.slug, round_slug=world.round.slug, user_id=user.pk
    )
    assert now == (generation, unread, *(read.value_now() for read in reads))
    assert now[2:] == (0, 12, 0, 24)


def test_a_missing_generation_row_is_read_as_none_by_versions_now(world):
    PageGeneration.objects.filter(pk=1).delete()
    assert versions_now(user_id=world.users["a"].pk, reads=()) is None


def test_the_generation_sequence_moves_forward_by_a_random_step(world):
    """``accounts/migrations/0008``: a database made anew does not count its generations
    from 1 again (a cache filled from the previous one holds entries under those values),
    and this database's own values stay new (the step is forward)."""
    import importlib

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("SQLite's generations are random already")
    step = importlib.import_module("pwscup.accounts.migrations.0008_page_generation_random_start")

    def moved() -> int:
        Round.objects.filter(pk=world.round.pk).update(name="Moved")
        return PageGeneration.objects.values_list("value", flat=True).get(pk=1)

    before = moved()
    steps = []
    for _ in range(3):
        with connection.schema_editor() as editor:
            step.forward(None, editor)
        after = moved()
        steps.append(after - before)
        before = after
    assert all(s > 1 for s in steps) and len(set(steps)) == 3, steps
