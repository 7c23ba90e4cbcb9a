"""The 2015 game's settings and state moved from ``Round`` to ``Pwscup2015Round``
(``pwscup2015.0003`` copies, ``competitions.0007`` drops the columns): every 2015 round of a
database made before keeps each value, the secret seed included; a round of another kind
gets no 2015 row; and migrating back restores the values on the round. One trip back and
forth proves both directions.

Slow (about 20 s on its own, so its module is scheduled first): it migrates the test database
back before the move and forward again.
"""

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from pwscup.competitions.models import Round
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.support import migrate

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BEFORE = [
    ("competitions", "0006_audit_entry_table_renamed"),
    ("pwscup2015", "0002_tables_renamed"),
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


def round_columns() -> set[str]:
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(cursor, "competitions_round")
    return {column.name for column in described}


def test_each_round_keeps_its_settings_and_state_back_and_forth(world):
    """One trip (the migrations cost most of a test's time): a 2015 round's values go back to
    the round's columns; values changed there then, and a round of another kind made then,
    come forward to the 2015 row (and no 2015 row for the other kind's round)."""
    Pwscup2015Round.objects.filter(round=world.round).update(**OLD_VALUES)
    apps = migrate(BEFORE)
    try:
        OldRound = apps.get_model("competitions", "Round")
        assert "secret_seed" in round_columns()
        values = OldRound.objects.filter(pk=world.round.pk).values(*OLD_VALUES).get()
        assert values == OLD_VALUES
        OldRound.objects.filter(pk=world.round.pk).update(**CHANGED_BEFORE)
        other = OldRound.objects.create(
            competition_id=world.competition.pk,
            kind="dp",
            name="DP",
            slug="dp",
            original_file="private/rounds/dp.csv",
            config={},
            frozen_at=timezone.now(),
        )
    finally:
        migrate()
    game = Pwscup2015Round.objects.get(round=world.round)
    forward = {**OLD_VALUES, **CHANGED_BEFORE}
    assert {name: getattr(game, name) for name in forward} == forward
    assert game.is_per_team and game.get_ranking_rule_display()
    assert not Pwscup2015Round.objects.filter(round_id=other.pk).exists()
    assert Round.objects.filter(pk=other.pk, kind="dp").exists()
    assert not round_columns() & set(OLD_VALUES)
