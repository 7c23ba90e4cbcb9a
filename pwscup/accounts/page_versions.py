"""The versions a kept page is drawn from, read in one query (``pwscup.accounts.conditional``).

A kept page (a round's overview, its leaderboards) is answered 304 by
``pwscup.accounts.middleware.KeptPageMiddleware`` from what this module reads, and nothing
else: the page generation (``PageGeneration``: every write to the rows the page shows and
its access rests on, counted by the database), the viewer's unread notifications (the
header's badge) and the page's own versions (``VersionRead``: a team's live version, a
round's ranking version), all in one indexed query.
"""

import functools
from dataclasses import dataclass

from django.apps import apps
from django.db import connection

from pwscup.accounts.models import PageGeneration
from pwscup.competitions.models import Competition, RankingVersion, Round
from pwscup.core.sql_names import column, table
from pwscup.notifications.models import Notification

# These reads run on every round page and every kept page's 304, so they are written as
# SQL once per process, from the models' metadata (``pwscup.core.sql_names``), and sent
# with Django's cursor: the ORM builds the same query again on each call, 1.4 ms of CPU for
# ``request_versions`` against 0.1 ms (measured on this machine, PostgreSQL, 500 calls);
# Django keeps no compiled query between calls. ``tests/pwscup/test_page_versions.py``
# compares them with the ORM's reading.


@dataclass(frozen=True)
class VersionRead:
    """A version a page shows: the ``field`` of the ``model`` ("app_label.Model") row found
    by ``lookup`` (pairs of field and value), ``0`` when there is no such row. A version is
    a counter its owner moves on every change (``RankingVersion``, ``LiveVersion``)."""

    model: str
    lookup: tuple[tuple[str, object], ...]
    field: str = "version"

    def value_now(self) -> int:
        """The version now (one indexed read)."""
        rows = apps.get_model(self.model).objects.filter(**dict(self.lookup))
        return rows.values_list(self.field, flat=True).first() or 0

    def sql(self) -> tuple[str, list]:
        """The version as a column of another query (``versions_now``), with its values (a
        ``None`` value matches a NULL, as the ORM's lookup does)."""
        names = tuple((name, value is None) for name, value in self.lookup)
        values = [value for _name, value in self.lookup if value is not None]
        return _version_sql(self.model, names, self.field), values


@functools.cache
def _version_sql(model_label: str, names: tuple[tuple[str, bool], ...], field: str) -> str:
    model = apps.get_model(model_label)
    where = " AND ".join(
        f"{column(model, name)} IS NULL" if null else f"{column(model, name)} = %s"
        for name, null in names
    )
    return f"COALESCE((SELECT {column(model, field)} FROM {table(model)} WHERE {where} LIMIT 1), 0)"


def ranking_version_read(round_id: int) -> VersionRead:
    """The round's ranking version (``RankingVersion``): every cached ranking is keyed by it."""
    return VersionRead("competitions.RankingVersion", (("round_id", round_id),))


@functools.cache
def _generation_sql() -> tuple[str, str]:
    """The generation's column and the clause that finds its one row (alias ``g``)."""
    model = PageGeneration
    return f"g.{column(model, 'value')}", f"FROM {table(model)} g WHERE g.{column(model, 'pk')} = 1"


@functools.cache
def _unread_sql() -> str:
    return (
        f"(SELECT COUNT(*) FROM {table(Notification)} WHERE {column(Notification, 'user')} = %s "
        f"AND {column(Notification, 'read_at')} IS NULL)"
    )


@functools.cache
def _ranking_sql() -> str:
    version, round_, competition = RankingVersion, Round, Competition
    return (
        f"COALESCE((SELECT v.{column(version, 'version')} FROM {table(version)} v "
        f"INNER JOIN {table(round_)} r ON v.{column(version, 'round')} = r.{column(round_, 'id')} "
        f"INNER JOIN {table(competition)} c ON r.{column(round_, 'competition')} = "
        f"c.{column(competition, 'id')} "
        f"WHERE r.{column(round_, 'slug')} = %s AND c.{column(competition, 'slug')} = %s "
        "LIMIT 1), 0)"
    )


def _read(columns: list[tuple[str, list]]) -> tuple | None:
    """The page generation and ``columns`` (each SQL and its values) in one query; ``None``
    when the generation's row is missing."""
    value, source = _generation_sql()
    select = ", ".join([value, *(sql for sql, _values in columns)])
    values = [value for _sql, column_values in columns for value in column_values]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {select} {source}", values)
        return cursor.fetchone()


def _unread(user_id: int | None) -> tuple[str, list]:
    return (_unread_sql(), [user_id]) if user_id is not None else ("0", [])


def request_versions(*, competition_slug: str, round_slug: str, user_id: int | None) -> tuple:
    """``(page generation, the round's ranking version, the viewer's unread count)`` in one
    indexed read, read before any row a round's page shows (``round_access``): a page kept
    at this generation was drawn from rows no older. The generation is ``None`` when its
    row is missing (a flushed table before its next write): then nothing is trusted to it.
    The ranking version is 0 for a round without one (or no such round); the unread count 0
    for a visitor (``user_id`` ``None``)."""
    ranking = (_ranking_sql(), [round_slug, competition_slug])
    row = _read([ranking, _unread(user_id)])
    if row is None:
        version = RankingVersion.objects.filter(
            round__slug=round_slug, round__competition__slug=competition_slug
        )
        unread = Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()
        return None, version.values_list("version", flat=True).first() or 0, unread
    return tuple(row)


def versions_now(*, user_id: int | None, reads: tuple[VersionRead, ...]) -> tuple | None:
    """``(generation, unread, *each read's version)`` now, in one query; ``None`` when the
    generation's row is missing. ``unread`` is 0 for a visitor (``user_id`` ``None``)."""
    row = _read([_unread(user_id), *(read.sql() for read in reads)])
    return tuple(row) if row is not None else None
