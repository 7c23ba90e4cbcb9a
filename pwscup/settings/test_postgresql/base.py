"""Django's PostgreSQL backend, subclassed as Django's documentation allows ("Subclassing the
built-in database backends"), for the test settings only.

A ``transaction=True`` test (a live server's, a worker's) is followed by Django's ``flush``,
which empties every table with one ``TRUNCATE``. PostgreSQL's ``TRUNCATE`` gives each table,
index and TOAST table a new file: for the project's 68 nearly empty tables it took 225–288 ms
here, and ``DELETE FROM`` each of them 9–13 ms (both measured on a migrated copy of the test
database, ten runs each; benchmarks/README.md). The suite runs about 170 such tests.

The tables' foreign keys are Django's, ``DEFERRABLE INITIALLY DEFERRED``, so the ``DELETE``
statements run in any order inside the transaction ``execute_sql_flush`` opens, and the keys
are checked at its commit, when no row is left. They run in the tables' alphabetical order
(Django lists them from a set, whose order changes with each process's hash seed), so a flush
leaves the same thing in every process: the page generation's row (``accounts.PageGeneration``),
written again by the counted tables' triggers (``auth_*``, ``competitions_*``, after it) as
their rows go, as by any write: a new value, never one a page was kept under. A flush that
must restart the sequences (``reset_sequences``) or cascade to tables outside the list is
Django's own.
"""

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in sorted(tables)
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
