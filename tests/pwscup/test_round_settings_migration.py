"""The 2015 game's settings and state moved from ``Round`` to ``Pwscup2015Round``
(``pwscup2015.0003`` copies, ``competitions.0007`` drops the columns): every 2015 round of a
database made before keeps each value, the secret seed included; a round of another kind
gets no 2015 row; and migrating back restores the values on the round. One trip back and
forth proves both directions, on a database of its own migrated forward from nothing
(``tests.history``).
"""

import datetime as dt

import pytest

from tests.history import history_database, old_world

pytestmark = pytest.mark.django_db

BEFORE = [
    ("competitions", "0006_audit_entry_table_renamed"),
    ("pwscup2015", "0002_tables_renamed"),
]
AFTER = [
    ("competitions", "0007_round_game_fields_moved_to_pwscup2015"),
    ("pwscup2015", "0003_round_settings"),
]

FROZEN_AT = dt.datetime(2026, 6, 17, 9, 30, tzinfo=dt.UTC)

#: Values unlike every default, so that a field left behind or reset shows.
OLD_VALUES = {
    "data_mode": "per_team",
    "sample_size": 60,
    "decoy_count": 40,
    "secret_seed": 1234567890123,
    "utility_gates": {"U1": 100, "S1": {"min": 2}},
    "tie_break_metric": "U4",
    "ranking_rule": "mean_attack",
    "selection_rule": "best",
    "attack_visibility": "on_publish",
    "auto_freeze": False,
    "results_published": True,
    "frozen_at": FROZEN_AT,
}


#: Changed on the round's columns while migrated back: the forward copy reads them then.
CHANGED_BEFORE = {
    "sample_size": 61,
    "decoy_count": 41,
    "secret_seed": 9876543210987,
    "utility_gates": {"U2": 50},
    "frozen_at": FROZEN_AT + dt.timedelta(days=1),
}


def round_columns(history) -> set[str]:
    connection = history.connection
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(cursor, "competitions_round")
    return {column.name for column in described}


def test_each_round_keeps_its_settings_and_state_back_and_forth():
    """A 2015 round's values go back to the round's columns; values changed there then, and
    a round of another kind made then, come forward to the 2015 row (and no 2015 row for
    the other kind's round)."""
    with history_database() as history:
        apps = history.migrate(AFTER)
        world = old_world(history, apps)
        history.objects(apps, "pwscup2015", "Pwscup2015Round").create(
            round_id=world.round, **OLD_VALUES
        )
        apps = history.migrate(BEFORE)
        old_round = history.objects(apps, "competitions", "Round")
        assert "secret_seed" in round_columns(history)
        assert old_round.filter(pk=world.round).values(*OLD_VALUES).get() == OLD_VALUES
        old_round.filter(pk=world.round).update(**CHANGED_BEFORE)
        other = old_round.create(
            competition_id=world.competition,
            kind="dp",
            name="DP",
            slug="dp",
            original_file="private/rounds/dp.csv",
            config={},
            frozen_at=FROZEN_AT,
        ).pk

        apps = history.migrate(AFTER)
        games = history.objects(apps, "pwscup2015", "Pwscup2015Round")
        game = games.values(*OLD_VALUES).get(round_id=world.round)
        assert game == {**OLD_VALUES, **CHANGED_BEFORE}
        assert not games.filter(round_id=other).exists()
        assert history.objects(apps, "competitions", "Round").filter(pk=other, kind="dp").exists()
        assert not round_columns(history) & set(OLD_VALUES)
