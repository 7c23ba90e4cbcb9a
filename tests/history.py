"""A database of a migration test's own, migrated forward from nothing to a point in the
project's history, for a test of a data migration: rows made with the models as they were
then, the migration under test applied (and undone, where the test goes back), the rows
read again.

Why not the test database itself: it is at the last migration, and going back from there
to an early point and forward again cost 60 s and 37 s of CPU (Django clones and renders
the whole project's model state for each of the 500-odd operations in between, most of
them the late migrations' field names). From nothing to the same point costs about a
second, since the state is small then. The database is created empty on the test
database's server and dropped at the end; its connection is registered under its own alias
for the block, so a historical model reads and writes it through ``.using(alias)``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass

from tests.migrated import connection_options

ALIAS = "history"


@dataclass
class History:
    """The database's connection and the migrations to run on it."""

    connection: object
    alias: str = ALIAS

    def migrate(self, targets: list[tuple[str, str]] | None = None):
        """Migrate to ``targets`` (forwards or backwards) and return the apps of that state.

        ``targets`` are migrations of the project's history, squashed or not: the graph is
        Django's without the squashes standing in for what they replace
        (``MigrationLoader(replace_migrations=False)``), so a migration a squash replaces is
        a node a test can go to, and the squashes are nodes nobody asks for. Without
        ``targets``: to the end, as ``manage.py migrate`` does (a squash stands in for its
        migrations unless some of them are applied; then the rest of them run)."""
        from django.db.migrations.executor import MigrationExecutor
        from django.db.migrations.loader import MigrationLoader

        executor = MigrationExecutor(self.connection)
        if targets is not None:
            executor.loader = MigrationLoader(self.connection, replace_migrations=False)
        executor.migrate(targets or executor.loader.graph.leaf_nodes())
        # Read again: a squash whose migrations have all run now stands in for them.
        executor.loader.build_graph()
        return executor.loader.project_state(targets).apps

    def objects(self, apps, app_label: str, model: str):
        """The historical model's manager on this database."""
        return apps.get_model(app_label, model).objects.using(self.alias)

    def table_names(self) -> list[str]:
        return self.connection.introspection.table_names()


@contextlib.contextmanager
def history_database():
    """An empty database beside the test database (its name plus ``_history``: one per test
    process), registered as ``ALIAS`` for the block and dropped after it."""
    import psycopg
    from django.db import connections

    default = connections["default"]
    name = f"{default.settings_dict['NAME']}_history"
    server = connection_options(default.settings_dict)

    def recreate(create: bool) -> None:
        with psycopg.connect(**server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            if create:
                conn.execute(f'CREATE DATABASE "{name}"')

    recreate(True)
    connection = type(default)({**default.settings_dict, "NAME": name}, ALIAS)
    connections[ALIAS] = connection
    try:
        yield History(connection)
    finally:
        connection.close()
        del connections[ALIAS]
        recreate(False)


@dataclass
class OldWorld:
    """The primary keys of a competition made with the early models: its organizer, one
    round with an anonymization and an attack phase, teams a and b with one member each."""

    competition: int
    round: int
    anonymization: int
    attack: int
    teams: dict
    users: dict
    organizer: int


def old_world(history: History, apps) -> OldWorld:
    """The competition of ``OldWorld`` made through ``apps`` (any state of the project's
    history: these fields have not changed since the first migrations)."""
    now, hour = dt.datetime.now(dt.UTC), dt.timedelta(hours=1)

    def made(app_label, model, **fields) -> int:
        return history.objects(apps, app_label, model).create(**fields).pk

    organizer = made("auth", "User", username="organizer", password="!")
    competition = made("competitions", "Competition", name="Cup", slug="cup")
    round_ = made(
        "competitions",
        "Round",
        competition_id=competition,
        name="Round",
        slug="r1",
        original_file="private/rounds/original.csv",
    )
    phases = {
        kind: made(
            "competitions",
            "Phase",
            round_id=round_,
            kind=kind,
            opens_at=now - hour,
            closes_at=now + hour,
        )
        for kind in ("anonymization", "attack")
    }
    teams, users = {}, {}
    for letter in "ab":
        teams[letter] = made(
            "accounts", "Team", competition_id=competition, name=f"Team {letter}", slug=letter
        )
        users[letter] = made("auth", "User", username=f"team-{letter}", password="!")
        made(
            "accounts",
            "Membership",
            competition_id=competition,
            team_id=teams[letter],
            user_id=users[letter],
        )
    return OldWorld(
        competition, round_, phases["anonymization"], phases["attack"], teams, users, organizer
    )
