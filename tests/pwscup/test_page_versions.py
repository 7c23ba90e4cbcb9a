"""The versions every round page and kept page read (``pwscup.accounts.page_versions``) are
written as SQL once per process; here they are compared with the ORM's reading of the same
rows: the generation, a round's ranking version (its row, or none: 0), the viewer's unread
notifications (a visitor: 0), a team's live version and a scope with an empty side (a NULL
matched as the ORM matches it), and a missing generation row (nothing trusted)."""

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
from pwscup.notifications.models import Notification
from pwscup.submissions.models import LiveVersion
from pwscup.submissions.selectors import live_version_read

pytestmark = pytest.mark.django_db


def _orm(world, user) -> tuple:
    generation = PageGeneration.objects.values_list("value", flat=True).get(pk=1)
    ranking = ranking_version_read(world.round.pk).value_now()
    unread = Notification.objects.filter(user=user, read_at__isnull=True).count()
    return generation, ranking, unread


def _notify(user, *, read: bool) -> None:
    Notification.objects.create(
        user=user,
        kind=Notification.Kind.SUBMISSION_FINISHED,
        event=f"test-{timezone.now().timestamp()}",
        read_at=timezone.now() if read else None,
    )


def test_the_request_versions_are_the_orms_reading(world):
    user, slugs = world.users["a"], (world.competition.slug, world.round.slug)
    Round.objects.filter(pk=world.round.pk).update(name="Moved")  # a generation row
    read = lambda: request_versions(  # noqa: E731
        competition_slug=slugs[0], round_slug=slugs[1], user_id=user.pk
    )
    assert read() == _orm(world, user) and read()[1:] == (0, 0)
    RankingVersion.objects.update_or_create(round=world.round, defaults={"version": 41})
    _notify(user, read=False)
    _notify(user, read=False)
    _notify(user, read=True)
    _notify(world.users["b"], read=False)
    assert read() == _orm(world, user) and read()[1:] == (41, 2)
    visitor = request_versions(competition_slug=slugs[0], round_slug=slugs[1], user_id=None)
    assert visitor[1:] == (41, 0)
    elsewhere = request_versions(
        competition_slug="no-such-cup", round_slug=slugs[1], user_id=user.pk
    )
    assert elsewhere[1:] == (0, 2)


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
    _notify(user, read=False)
    now = versions_now(user_id=user.pk, reads=reads)
    generation, _ranking, unread = _orm(world, user)
    assert now == (generation, unread, *(read.value_now() for read in reads))
    assert now[2:] == (0, 12, 0, 24)


def test_a_missing_generation_row_is_read_as_none(world):
    PageGeneration.objects.filter(pk=1).delete()
    user = world.users["a"]
    assert versions_now(user_id=user.pk, reads=()) is None
    generation, ranking, unread = request_versions(
        competition_slug=world.competition.slug, round_slug=world.round.slug, user_id=user.pk
    )
    assert generation is None and (ranking, unread) == (0, 0)


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
