"""A kind that declares its round row counted (``RoundKind.counted_row``) has the trigger its
migration adds: any write to the row, by a path no model signal sees, moves the page
generation (``accounts.PageGeneration``), so the round's cached access (which holds the row)
is never read again after it. And a round page reads the row from that access: its selector
finds it on the round and asks the database nothing for it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pwscup.accounts.models import PageGeneration
from pwscup.kinds.registry import kind_of
from pwscup.kinds.tabs import tab_url


def _generation():
    return PageGeneration.objects.filter(pk=1).values_list("value", flat=True).first()


def _counted(player, arena):
    kind = kind_of(arena.round)
    if not kind.counted_row:
        pytest.skip(f"{player.key} keeps no counted round row")
    return kind, getattr(arena.round, kind.counted_row)


def test_a_write_to_a_counted_round_row_moves_the_page_generation(player, arena_of):
    arena = arena_of()
    _kind, row = _counted(player, arena)
    before = _generation()
    type(row).objects.filter(pk=row.pk).update(round=arena.round)  # the same value: a write
    after = _generation()
    assert after is not None and after != before
    with connection.cursor() as cursor:
        meta = type(row)._meta
        cursor.execute(f'DELETE FROM "{meta.db_table}" WHERE "{meta.pk.column}" = %s', [-1])
    assert _generation() != after  # raw SQL too, a statement that changes no row included


def test_a_round_page_reads_the_counted_row_with_the_access(player, arena_of, client):
    arena = arena_of()
    _kind, row = _counted(player, arena)
    client.force_login(arena.users["a"])
    table = type(row)._meta.db_table
    for tab in ("overview", "submit"):
        url = tab_url(arena.round, tab)
        assert client.get(url).status_code == 200  # the access cached
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        read = [q["sql"] for q in captured if f'FROM "{table}"' in q["sql"]]
        assert read == [], (tab, read)
