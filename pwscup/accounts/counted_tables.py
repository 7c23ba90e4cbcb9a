"""A kind's round table counted toward the page generation (``accounts.PageGeneration``,
``RoundKind.counted_row``): the one migration operation every kind's migration uses.

The trigger is the core's (``accounts/migrations/0007_page_generation.py``): on PostgreSQL
one per statement calling the core's function, on SQLite one per event and row setting a
random 53-bit value, never one the row held before. It reads only the historical model's
table name, so a later change to the kind's models cannot change what an old migration does.
"""

from django.db import migrations
from django.db.migrations.operations.base import Operation

TRIGGER = "pwscup_page_generation"
FUNCTION = "pwscup_page_generation_bump"
EVENTS = ("INSERT", "UPDATE", "DELETE")
SQLITE_UPSERT = (
    "INSERT INTO accounts_pagegeneration (id, value) VALUES (1, (random() & 9007199254740991)) "
    "ON CONFLICT (id) DO UPDATE SET value = excluded.value"
)


class CountedTable(Operation):
    """The operation that makes every write to the table of ``app_label.model_name`` move
    the page generation (and, reversed, stops it). A migration operation of its own
    (Django's "Writing your own migration operation"), not a ``RunPython`` of two closures:
    Django can write it into a squashed migration (``deconstruct``), and the squash's
    optimizer may merge the table's other operations across it, as nothing but a
    different table name changes what it does (``reduce``)."""

    reversible = True

    def __init__(self, app_label: str, model_name: str) -> None:
        self.app_label, self.model_name = app_label, model_name

    def deconstruct(self):
        return (
            self.__class__.__name__,
            [],
            {"app_label": self.app_label, "model_name": self.model_name},
        )

    def describe(self) -> str:
        return f"Count writes to {self.app_label}.{self.model_name} toward the page generation"

    def state_forwards(self, app_label, state) -> None:
        pass  # the triggers are not part of the models' state

    def _table(self, state) -> str:
        return state.apps.get_model(self.app_label, self.model_name)._meta.db_table

    def database_forwards(self, app_label, schema_editor, from_state, to_state) -> None:
        name = self._table(to_state)
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(
                f'CREATE TRIGGER {TRIGGER} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{name}" '
                f"FOR EACH STATEMENT EXECUTE FUNCTION {FUNCTION}()"
            )
            return
        for event in EVENTS:
            schema_editor.execute(
                f'CREATE TRIGGER {TRIGGER}_{event.lower()}_{name} BEFORE {event} ON "{name}" '
                f"BEGIN {SQLITE_UPSERT}; END"
            )

    def database_backwards(self, app_label, schema_editor, from_state, to_state) -> None:
        name = self._table(from_state)
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f'DROP TRIGGER IF EXISTS {TRIGGER} ON "{name}"')
            return
        for event in EVENTS:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}_{event.lower()}_{name}")

    def references_model(self, name, app_label) -> bool:
        return (app_label, name.lower()) == (self.app_label, self.model_name.lower())

    def reduce(self, operation, app_label):
        """Other operations may be optimized across this one, except those that create,
        delete, rename or move the table it counts."""
        moves = (
            migrations.CreateModel,
            migrations.DeleteModel,
            migrations.RenameModel,
            migrations.AlterModelTable,
        )
        if isinstance(operation, moves) and operation.references_model(
            self.model_name, self.app_label
        ):
            return False
        return True


def counted_table(app_label: str, model_name: str) -> CountedTable:
    """The operation of the table of ``app_label.model_name`` (``CountedTable``)."""
    return CountedTable(app_label, model_name)
