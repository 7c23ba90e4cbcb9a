"""Row locks whose wait is bounded: a request that waits for a row another transaction holds
(a team's row, held by its upload whose write a stalled storage keeps waiting) gives up after
a few seconds instead of holding its web thread for as long as the holder takes."""

import functools
from collections.abc import Callable

from django.conf import settings
from django.db import OperationalError, connections
from django.db.models import Model, QuerySet

from pwscup.core.storage import storage_write_pending

# PostgreSQL's SQLSTATE of a lock not granted in time (lock_not_available).
LOCK_NOT_AVAILABLE = "55P03"


def row_lock_within(queryset: QuerySet, *, seconds: float, busy: Callable[[], Exception]) -> list:
    """The rows of ``queryset``, locked (``select_for_update``) until the transaction ends,
    waiting at most ``seconds`` for a lock another transaction holds; ``busy()`` is raised
    when a lock was not free in time (the transaction is then aborted: let the exception
    leave the ``atomic`` block). Call it inside ``transaction.atomic()``.

    PostgreSQL's ``lock_timeout``, set with ``SET LOCAL`` for this one statement and set back
    after it: a later lock of the same transaction (a version row, a choice) waits as before,
    and a write already made is never rolled back for a short wait. ``select_for_update(
    nowait=True)`` would refuse at once, a healthy burst too (a team's second upload while its
    first is written in milliseconds); Django has no bounded wait of its own. On SQLite (one
    lock for every writer, no row locks) nothing changes: the rows are read as before.
    """
    connection = connections[queryset.db]
    # The queryset's own rows only (``of``), in one order: a model ordered by a foreign key
    # (a team by its competition) joins that table, whose row would be locked too, and every
    # team's upload would wait for the competition's row.
    locking = queryset.select_for_update(of=("self",)).order_by("pk")
    if connection.vendor != "postgresql":
        return list(locking)
    # lock_timeout = 0 means no bound at all: a bound of zero seconds is one millisecond.
    bound = f"{max(1, round(seconds * 1000))}ms"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('lock_timeout')")
        before = cursor.fetchone()[0]
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [bound])
    try:
        rows = list(locking)
    except OperationalError as error:
        if getattr(error.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE:
            raise busy() from error
        raise
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])
    return rows


def team_row_lock(teams: QuerySet, *, upload: bool = False, own: bool = True) -> Model | None:
    """The team of ``teams`` (a query of one team: its pk, an invitation code), its row locked
    until the transaction ends, or ``None`` when there is none. Every request that changes a
    team's state under its row (an upload, ``upload_keep``; a data pick, a final release, a
    member removed...) takes it here, so none waits long behind an upload of the team whose
    write a stalled storage holds (up to 30 s): the row is waited for no longer than a storage
    write slot is (``PWSCUP_STORAGE_SLOT_WAIT``), then ``storage_write_pending`` is raised
    (503, ``Retry-After``; its message for an ``upload`` says the file was not kept, for any
    other request that nothing was changed; ``own=False``: asked by an organizer, in the
    console, told of "this team"). Call it inside ``transaction.atomic()``."""
    rows = row_lock_within(
        teams,
        seconds=settings.PWSCUP_STORAGE_SLOT_WAIT,
        busy=functools.partial(storage_write_pending, upload=upload, own=own),
    )
    return rows[0] if rows else None
