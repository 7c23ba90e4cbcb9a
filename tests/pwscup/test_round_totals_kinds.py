"""A round's named scores are what its results show (``RoundKind.named_scores``), here for
the 2015 game: the final ranking's metrics, safety and attack score, offered before any
upload, a disqualified team left out of the scores and of the totals."""

import pytest

import scoring
from pwscup.competitions.total_services import round_total_formula_set
from pwscup.competitions.totals import named_scores, round_totals
from pwscup.console.services import console_team_disqualify
from pwscup.pwscup2015.leaderboards.selectors import final_ranking
from tests.pwscup.archive_world import play_2015

pytestmark = pytest.mark.django_db

NAMES = [*scoring.METRICS, "safety", "attack"]


def test_a_2015_round_offers_its_names_before_any_upload(make_world):
    world = make_world(data_mode="per_team")
    scores = named_scores(round=world.round)
    assert [name["key"] for name in scores["names"]] == NAMES
    assert scores["teams"] == {}
    round_total_formula_set(user=world.organizer, round=world.round, formula="U1 + S1")
    world.round.refresh_from_db()
    assert world.round.total_formula == "U1 + S1"


def test_a_2015_rounds_scores_are_its_final_rankings(make_world):
    world = make_world(data_mode="per_team")
    play_2015(world, publish=False)
    anonymization, attack = final_ranking(round=world.round)
    teams = named_scores(round=world.round)["teams"]
    assert set(teams) == {row.team.pk for row in anonymization}
    for row in anonymization:
        assert teams[row.team.pk]["U1"] == pytest.approx(row.scores["U1"])
        assert teams[row.team.pk]["EUC2"] == pytest.approx(row.scores["EUC2"])
        assert teams[row.team.pk]["safety"] == pytest.approx(row.safety)
    attackers = {row.team.pk: row.mean_rate for row in attack if row.mean_rate is not None}
    assert {world.teams["b"].pk, c := world.teams["c"].pk} <= set(attackers)
    for pk, rate in attackers.items():
        assert teams[pk]["attack"] == pytest.approx(rate)

    round_total_formula_set(user=world.organizer, round=world.round, formula="attack - U1")
    totals = round_totals(round=world.round)
    expected = {pk: rate - teams[pk]["U1"] for pk, rate in attackers.items()}
    assert {row.team.pk: row.value for row in totals} == pytest.approx(expected)
    assert [row.value for row in totals] == sorted(expected.values(), reverse=True)

    console_team_disqualify(user=world.organizer, team=world.teams["c"], reason="Cheated.")
    assert c not in named_scores(round=world.round)["teams"]
    assert c not in [row.team.pk for row in round_totals(round=world.round)]
    left = round_totals(round=world.round)
    assert {row.team.pk for row in left} == set(expected) - {c}
    assert [row.rank for row in left] == list(range(1, len(left) + 1))
