"""Freezing a release step tells every team member once (issue 12): in online mode that the
next release is open, else that their sequence is scored; manual or automatic freeze alike."""

import datetime as dt

import pytest
from django.utils import translation

from pwscup.notifications.kinds import notification_text
from pwscup.notifications.models import Notification
from pwscup.sequential import services
from pwscup.sequential.models import SequentialRound
from tests.pwscup.seq_web_world import (
    fixture,
    fixture_config,
    freeze,
    publish,
    seq_world,
    tab,
)

pytestmark = pytest.mark.django_db

Kind = Notification.Kind
CLOSE_1 = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)


def member_world(**kwargs):
    """The three-team world, team A with a second member."""
    from pwscup.accounts.services import membership_add, user_create

    world = seq_world(**kwargs)
    world.second = user_create(username="seq-team-a2", password="pw")
    membership_add(team=world.teams["a"], user=world.second)
    return world


def members(world):
    return {*world.users.values(), world.second}


def test_a_manual_freeze_tells_each_member_once_that_the_next_release_is_open():
    world = member_world()
    publish(world, "a", 1, fixture("zhang_release_1.csv"))
    assert freeze(world) == 1
    told = Notification.objects.filter(kind=Kind.RELEASE_FROZEN)
    assert sorted(n.user.pk for n in told) == sorted(u.pk for u in members(world))
    assert world.organizer not in {n.user for n in told}
    assert {n.url for n in told} == {tab(world, "data")}  # the next release's data
    text = notification_text(told[0])
    assert text == "Release 1 of Sequential is frozen; release 2 is open."
    with translation.override("ja"):
        assert notification_text(told[0]) == (
            "Sequential の公開データ 1 が凍結されました。公開データ 2 の受付が始まりました。"
        )
    # The last step: nothing opens after it; the sequence is scored.
    assert freeze(world) == 2
    scored = Notification.objects.filter(kind=Kind.SEQUENCE_SCORED)
    assert scored.count() == len(members(world))
    assert {n.url for n in scored} == {tab(world, "results")}
    assert notification_text(scored[0]) == (
        "Release 2 of Sequential is frozen; your sequence is scored."
    )
    with translation.override("ja"):
        assert notification_text(scored[0]) == (
            "Sequential の公開データ 2 が凍結されました。あなたのチームの系列が採点されました。"
        )
    assert Notification.objects.filter(kind=Kind.RELEASE_FROZEN).count() == len(members(world))


def test_a_batch_round_says_the_sequence_is_scored_at_every_step():
    world = member_world(config={**fixture_config("zhang_config.json"), "mode": "batch"})
    freeze(world)
    assert set(Notification.objects.values_list("kind", flat=True)) == {Kind.SEQUENCE_SCORED}
    assert Notification.objects.get(user=world.second).params == {
        "round": "Sequential",
        "step": 1,
    }


def test_a_repeated_freeze_of_the_same_step_does_not_notify_again():
    world = member_world()
    assert services.step_freeze(sequential=world.sequential, step=1) == 1
    world.sequential.refresh_from_db()
    assert services.step_freeze(sequential=world.sequential, step=1) is None
    assert Notification.objects.count() == len(members(world))
    # Even if the step were frozen again (the counter put back), nobody is told twice.
    SequentialRound.objects.filter(pk=world.sequential.pk).update(frozen_steps=0)
    world.sequential.refresh_from_db()
    assert services.step_freeze(sequential=world.sequential) == 1
    assert Notification.objects.count() == len(members(world))


def test_the_automatic_freeze_at_a_close_notifies():
    world = member_world()
    services.schedule_set(
        sequential=world.sequential, first_close=CLOSE_1, step_length=dt.timedelta(days=1)
    )
    SequentialRound.objects.filter(pk=world.sequential.pk).update(auto_freeze=True)
    assert services.steps_auto_freeze(now=CLOSE_1 - dt.timedelta(seconds=1)) == []
    assert not Notification.objects.exists()
    assert services.steps_auto_freeze(now=CLOSE_1) == [(world.round.pk, 1)]
    assert services.steps_auto_freeze(now=CLOSE_1 + dt.timedelta(minutes=1)) == []
    told = Notification.objects.filter(kind=Kind.RELEASE_FROZEN)
    assert sorted(n.user.pk for n in told) == sorted(u.pk for u in members(world))
    assert all(n.params == {"round": "Sequential", "step": 1, "next": 2} for n in told)
