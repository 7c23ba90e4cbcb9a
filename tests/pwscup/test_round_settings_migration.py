"""The 2015 game's settings and state moved from ``Round`` to ``Pwscup2015Round``
(``pwscup2015.0003`` copies, ``competitions.0007`` drops the columns): every 2015 round of a
database made before keeps each value, the secret seed included; a round of another kind
gets no 2015 row; and migrating back restores the values on the round."""

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from pwscup.competitions.models import Round
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.support import migrate

pytestmark = pytest.mark.django_db(transaction=True)

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


def round_columns() -> set[str]:
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(cursor, "competitions_round")
    return {column.name for column in described}


def test_each_round_keeps_its_settings_and_state_after_the_move(world):
    apps = migrate(BEFORE)
    try:
        OldRound = apps.get_model("competitions", "Round")
        assert "secret_seed" in round_columns()
        OldRound.objects.filter(pk=world.round.pk).update(**OLD_VALUES)
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
    assert {name: getattr(game, name) for name in OLD_VALUES} == OLD_VALUES
    assert game.is_per_team and game.get_ranking_rule_display()
    assert not Pwscup2015Round.objects.filter(round_id=other.pk).exists()
    assert Round.objects.filter(pk=other.pk, kind="dp").exists()
    assert not round_columns() & set(OLD_VALUES)


def test_migrating_back_puts_the_values_on_the_round_again(world):
    Pwscup2015Round.objects.filter(round=world.round).update(**OLD_VALUES)
    apps = migrate(BEFORE)
    try:
        OldRound = apps.get_model("competitions", "Round")
        values = OldRound.objects.filter(pk=world.round.pk).values(*OLD_VALUES).get()
        assert values == OLD_VALUES
    finally:
        migrate()
    assert Pwscup2015Round.objects.get(round=world.round).secret_seed == OLD_VALUES["secret_seed"]
