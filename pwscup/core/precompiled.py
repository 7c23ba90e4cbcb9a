"""ORM queries compiled to SQL once per process, then run with new parameters.

Building and compiling a Django queryset costs far more than running it: the access check
read on every round page and every poll (``round_access``: four small queries) took 5.6 ms
of CPU in the ORM against ~0.1 ms per query for the same SQL sent directly. Django keeps no
compiled form of a queryset (and no library adds one for arbitrary querysets), so this module
does it: a queryset is built once with *sentinel* values in place of its parameters (a user
id, a slug), compiled, and its SQL kept with the positions of the sentinels among the
parameters. A later call substitutes the real values and builds model instances from the
rows. The rules stay written once, in the ORM selectors the queryset is built from.

Only single-model querysets are supported (no ``select_related``/``prefetch_related``): the
row is the model's concrete fields followed by the annotations, in the compiler's order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from django.db import connections
from django.db.models import QuerySet


@dataclass(frozen=True)
class Compiled:
    model: type
    using: str
    sql: str
    params: tuple
    slots: tuple[tuple[int, str], ...]  # (position in params, sentinel name)
    field_names: tuple[str, ...]
    annotations: tuple[str, ...]
    converters: tuple[tuple[int, tuple, object], ...]  # the fields' from_db_value & co.

    def run(self, **values) -> list:
        params = list(self.params)
        for position, name in self.slots:
            params[position] = values[name]
        connection = connections[self.using]
        with prepared_cursor(connection) as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
        width = len(self.field_names)
        found = []
        for row in rows:
            if self.converters:
                row = list(row)
                for position, functions, expression in self.converters:
                    for convert in functions:
                        row[position] = convert(row[position], expression, connection)
            instance = self.model.from_db(self.using, self.field_names, row[:width])
            for name, value in zip(self.annotations, row[width:], strict=True):
                setattr(instance, name, value)
            found.append(instance)
        return found


def prepared_cursor(connection):
    """A cursor whose repeated queries PostgreSQL plans once per connection.

    Django's psycopg cursors bind parameters on the client, so PostgreSQL plans every query
    again: 0.4-0.9 ms of the database's CPU for the access check's and the header's
    queries, more than running them. With server-side binding psycopg prepares a query
    after ``prepare_threshold`` (5) runs on a connection, and the kept connections
    (``DJANGO_CONN_MAX_AGE``) reuse the plan. The cursor is Django's wrapper (errors,
    query logging) around it. Other databases: their usual cursor. (Prepared statements
    live in a server session: a pooler in transaction mode, which this stack does not use,
    would need psycopg's ``prepare_threshold`` set to ``None``.)
    """
    if connection.vendor != "postgresql":
        return connection.cursor()
    import psycopg  # the PostgreSQL backend's driver

    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


_compiled: dict[Hashable, Compiled] = {}
_lock = threading.Lock()


def precompiled(
    key: Hashable,
    build: Callable[..., QuerySet],
    sentinels: dict,
    fixed: dict | None = None,
    unused: tuple[str, ...] = (),
) -> Compiled:
    """``build(**sentinels, **fixed)`` compiled once per ``key``.

    ``sentinels`` maps each parameter's name to a value no real query holds, found back
    among the SQL's parameters. Each must be found (Django silently drops a condition it
    compiles as empty, e.g. an id out of its column's range: ids here stay within 32 bits),
    except those named in ``unused`` (an anonymous user's query has no user id). ``fixed``
    are the values that shape the query (whether the user is a superuser, say), which
    ``key`` must name.
    """
    found = _compiled.get(key)
    if found is None:
        found = _compile(build(**sentinels, **(fixed or {})), sentinels, unused)
        with _lock:
            found = _compiled.setdefault(key, found)
    return found


def _compile(queryset: QuerySet, sentinels: dict, unused: tuple[str, ...]) -> Compiled:
    query = queryset.query
    if query.select_related or queryset._prefetch_related_lookups or query.deferred_loading[0]:
        raise ValueError("precompiled querysets hold one model's full rows")
    if query.extra_select or query.values_select:
        raise ValueError("precompiled querysets return model rows, not values")
    compiler = query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    converters = compiler.get_converters([column for column, _, _ in compiler.select])
    by_value = {_token(value): name for name, value in sentinels.items()}
    slots = tuple((i, by_value[_token(p)]) for i, p in enumerate(params) if _token(p) in by_value)
    missing = set(sentinels) - set(unused) - {name for _, name in slots}
    if missing:
        raise ValueError(f"parameters missing from the compiled query: {sorted(missing)}")
    model = queryset.model
    return Compiled(
        model=model,
        using=queryset.db,
        sql=sql,
        params=tuple(params),
        slots=slots,
        field_names=tuple(f.attname for f in model._meta.concrete_fields),
        annotations=tuple(query.annotation_select),
        converters=tuple(
            (position, tuple(functions), expression)
            for position, (functions, expression) in converters.items()
        ),
    )


def _token(value):
    try:
        hash(value)
    except TypeError:  # a list parameter (``__in``) is never a sentinel
        return None
    return (type(value).__name__, value)
