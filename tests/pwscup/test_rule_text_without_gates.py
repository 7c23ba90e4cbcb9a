"""The ranking rule printed over a 2015 round's tables: with no utility gate it does not speak
of teams failing one."""

import pytest
from django.utils import translation

from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.ranking import rule_text

pytestmark = pytest.mark.django_db


def test_a_round_without_gates_says_every_scored_submission_ranks(world):
    Pwscup2015Round.objects.filter(round=world.round).update(utility_gates={})
    world.round.pwscup2015.refresh_from_db()
    with translation.override("en"):
        english = rule_text(world.round)
    with translation.override("ja"):
        japanese = rule_text(world.round)
    assert "Utility gates: none (every scored submission is ranked)." in english
    assert "fail them" not in english
    assert "有用性のゲート：なし（採点済みの提出はすべて順位が付きます）。" in japanese
    assert "満たさない" not in japanese


def test_a_round_with_gates_still_says_what_failing_one_does(world):
    Pwscup2015Round.objects.filter(round=world.round).update(utility_gates={"U1": 100})
    world.round.pwscup2015.refresh_from_db()
    with translation.override("en"):
        assert "teams that fail them are listed last, unranked" in rule_text(world.round)
