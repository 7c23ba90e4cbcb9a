"""The suite empties its database between modules (``demo_loaded``'s end) without rewinding
the sequences: a process never gives one primary key to two rows, so what it cached under a
key (the header's console link per user, a round's awards and rankings per round) cannot
answer for a later test's row. Rewound, a page read one query fewer than the same page of
another round, whenever the test ran after a module that had loaded the demo."""

import pytest
from django.contrib.auth import get_user_model

from tests.support import flush_database

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_flushed_database_is_empty_and_gives_no_key_twice():
    users = get_user_model().objects
    before = users.create_user("before").pk
    flush_database()
    assert not users.exists()
    assert users.create_user("after").pk > before
