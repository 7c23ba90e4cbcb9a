"""Two requests creating a competition or a round under one address at the same moment (an
organizer's double click on *Create*), or moving two rounds to one address (two organizers
editing at once): each checks the address before either has committed, so both find it
free. The database's unique key decides, and the later request gets the
address rule's own refusal (``slug_check``'s message, keyed ``slug``), not a 500.

Real PostgreSQL transactions, each in its own thread and connection: the first inserts and
holds its transaction open; the second checks the address (free: the first has not
committed), inserts, and waits on the first's key; the first commits.
"""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connections, transaction

from pwscup.competitions.models import Competition, Round
from pwscup.competitions.services import (
    competition_create,
    round_core_update,
    round_of_kind_create,
)
from pwscup.kinds.round_basics import RoundBasics
from tests.pwscup.races import waiting_on_a_lock
from tests.support import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _at_the_same_moment(create) -> Exception | None:
    """``create()`` in two threads: the first's insert held uncommitted until the second
    waits on it. Returns what the second raised (None if nothing)."""
    inserted, release = threading.Event(), threading.Event()
    failures, second_raised = [], []

    def first():
        try:
            with transaction.atomic():
                create()
                inserted.set()
                release.wait(60)
        except Exception as error:  # noqa: BLE001 - the first must succeed
            failures.append(error)
            inserted.set()
        finally:
            connections.close_all()

    def second():
        try:
            create()
        except Exception as error:  # noqa: BLE001 - what it raised is the finding
            second_raised.append(error)
        finally:
            connections.close_all()

    holder = threading.Thread(target=first)
    holder.start()
    assert inserted.wait(60) and not failures, failures
    follower = threading.Thread(target=second)
    follower.start()
    try:
        # The second insert waits on the first's uncommitted key.
        wait_for(lambda: waiting_on_a_lock() >= 1, timeout=60, what="the second insert to wait")
    finally:
        release.set()
        holder.join(60)
        follower.join(60)
    assert not failures, failures
    return second_raised[0] if second_raised else None


def test_two_competitions_created_at_once_under_one_address_make_one():
    raised = _at_the_same_moment(lambda: competition_create(name="Cup", slug="cup"))
    assert isinstance(raised, ValidationError), repr(raised)
    assert raised.message_dict == {"slug": ["A competition with this address already exists."]}
    assert Competition.objects.filter(slug="cup").count() == 1


def test_two_rounds_created_at_once_under_one_address_make_one():
    competition = competition_create(name="Cup", slug="cup")

    def create():
        round_of_kind_create(
            basics=RoundBasics(competition=competition, name="Final", slug="final"),
            kind="pwscup2015",
            config={},
        )

    raised = _at_the_same_moment(create)
    assert isinstance(raised, ValidationError), repr(raised)
    assert raised.message_dict == {
        "slug": ["This competition already has a round at this address."]
    }
    assert Round.objects.filter(competition=competition, slug="final").count() == 1


def test_two_rounds_moved_at_once_to_one_address_keep_one():
    competition = competition_create(name="Cup", slug="cup")
    first, second = (
        round_of_kind_create(
            basics=RoundBasics(competition=competition, name=name, slug=slug),
            kind="pwscup2015",
            config={},
        )
        for name, slug in (("Prelim", "prelim"), ("Final", "final"))
    )
    moves = iter([first, second])
    moved = []

    def move():
        round_ = next(moves)
        moved.append(round_)
        round_core_update(
            user=None,
            round=round_,
            name=round_.name,
            slug="main",
            order=round_.order,
            timezone=round_.timezone,
        )

    raised = _at_the_same_moment(move)
    assert isinstance(raised, ValidationError), repr(raised)
    assert raised.message_dict == {
        "slug": ["This competition already has a round at this address."]
    }
    assert sorted(Round.objects.filter(competition=competition).values_list("slug", flat=True)) == [
        "final",
        "main",
    ]
    # The refused round, as its page shows it again, keeps its address.
    assert [round_.slug for round_ in moved] == ["main", "final"]
