"""``request_versions``, every round page's first read, is written as SQL: it must give what
the ORM reads from the same rows (the reference below) for visitors and users, rounds with
and without a ranking version, addresses of no round, and a missing generation row."""

import pytest
from django.utils import timezone

from pwscup.accounts.models import PageGeneration
from pwscup.accounts.page_versions import request_versions
from pwscup.competitions.models import RankingVersion
from pwscup.competitions.services import ranking_version_bump
from pwscup.notifications.models import Notification

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
