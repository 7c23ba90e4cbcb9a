"""Ranking in one place: shared ranks (1, 2, 2, 4), the rule in force (worst case or mean)
on the pages and in the CSV headers, and the CSV downloads' header and rows."""

import csv
import io

import pytest

import scoring
from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.pwscup2015.models import AnonymizationSubmission, BuiltinAttack, Pwscup2015Round
from pwscup.submissions.models import Status
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of, upload

pytestmark = pytest.mark.django_db


def rates(e1: float, others: float = None) -> dict:
    """Built-in attack rates: E1 = ``e1``, the five others = ``others`` (default ``e1``)."""
    others = e1 if others is None else others
    return {m: (e1 if m == "E1" else others) for m in scoring.ATTACK_METRICS}


def finished(world, letter: str, **scores) -> AnonymizationSubmission:
    """A FINISHED submission of team ``letter`` holding exactly ``scores`` (no scorer run)."""
    submission = upload(world, letter, world.original)
    AnonymizationSubmission.objects.filter(pk=submission.pk).update(
        status=Status.FINISHED, scores={"U1": 10.0, "S1": 1, **scores}
    )
    return submission


def add_team_d(world) -> None:
    team = team_create(competition=world.competition, name="Team D", slug="teamD")
    user = user_create(username=f"{world.competition.slug}-team-d", password="pw")
    membership_add(team=team, user=user)
    world.teams["d"], world.users["d"] = team, user


def csv_rows(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


def set_rule(world, rule: str) -> None:
    Pwscup2015Round.objects.filter(round=world.round).update(ranking_rule=rule)
    world.round.refresh_from_db()


def test_equal_scores_share_a_rank_on_the_leaderboard_page_and_csv(world, client):
    from pwscup.pwscup2015.leaderboards.selectors import anonymization_leaderboard

    add_team_d(world)
    finished(world, "a", **rates(0.2))
    finished(world, "b", **rates(0.3))
    finished(world, "c", **rates(0.3))
    finished(world, "d", **rates(0.4))
    rows = anonymization_leaderboard(phase=world.anonymization)
    assert [(r.team.slug, r.rank) for r in rows] == [
        ("teamA", 1),
        ("teamB", 2),
        ("teamC", 2),
        ("teamD", 4),
    ]
    client.force_login(world.organizer)
    table = csv_rows(client.get(world.round_url() + "leaderboard/?format=csv"))
    assert table[0][:6] == ["rank", "team", "submission", "passes_gates", "worst_case_rate", "U1"]
    assert [row[:2] for row in table[1:]] == [
        ["1", "Team A"],
        ["2", "Team B"],
        ["2", "Team C"],
        ["4", "Team D"],
    ]
    assert [row[4] for row in table[1:]] == ["0.2", "0.3", "0.3", "0.4"]
    page = client.get(world.round_url() + "leaderboard/").content.decode()
    assert "Ties broken by the lower U1. Equal results share a rank." in page


def test_the_tie_break_separates_equal_safety_in_its_own_direction(world):
    from pwscup.pwscup2015.leaderboards.selectors import anonymization_leaderboard

    world.anonymization.round.pwscup2015.tie_break_metric = "S1"
    world.anonymization.round.pwscup2015.save(update_fields=["tie_break_metric"])
    finished(world, "a", S1=2, **rates(0.3))
    finished(world, "b", S1=5, **rates(0.3))  # higher k-anonymity is better
    rows = anonymization_leaderboard(phase=world.anonymization)
    assert [(r.team.slug, r.rank) for r in rows] == [("teamB", 1), ("teamA", 2)]


def test_the_mean_rule_ranks_by_the_mean_rate_and_says_so(world, client):
    from pwscup.pwscup2015.leaderboards.selectors import anonymization_leaderboard

    finished(world, "a", **rates(0.6, 0.0))  # worst case 0.6, mean 0.1
    finished(world, "b", **rates(0.2))  # worst case 0.2, mean 0.2
    rows = anonymization_leaderboard(phase=world.anonymization)
    assert [(r.team.slug, r.rank) for r in rows] == [("teamB", 1), ("teamA", 2)]
    set_rule(world, Pwscup2015Round.RankingRule.MEAN_ATTACK)
    rows = anonymization_leaderboard(phase=world.anonymization)
    assert [(r.team.slug, r.rank, r.safety) for r in rows] == [
        ("teamA", 1, pytest.approx(0.1)),
        ("teamB", 2, pytest.approx(0.2)),
    ]
    client.force_login(world.organizer)
    table = csv_rows(client.get(world.round_url() + "leaderboard/?format=csv"))
    assert table[0][4] == "mean_rate"
    page = client.get(world.round_url() + "leaderboard/").content.decode()
    assert "Then ranked by: Lowest mean re-identification rate" in page
    header = 'data-testid="safety-header">Mean re-identification rate of the built-in attacks<'
    assert header in page


@pytest.fixture
def frozen(world):
    """Three targets (A, B, C) with controlled built-in rates and equal U1 on A and B."""
    for letter, seed in zip("abc", (1, 2, 3), strict=True):
        scored(world, letter, seed=seed)
    targets = freeze(world)
    built_in = {"a": rates(0.3), "b": rates(0.3), "c": rates(0.1)}
    for letter, target in targets.items():
        BuiltinAttack.objects.filter(pk=target.pk).update(
            status=Status.FINISHED, rates=built_in[letter]
        )
        submission = target.submission
        submission.scores = {**submission.scores, "U1": 5.0}
        submission.save(update_fields=["scores"])
    world.round.refresh_from_db()
    return targets


def test_final_ranking_shares_ranks_in_both_tables_and_csvs(world, frozen, client):
    from pwscup.pwscup2015.leaderboards.selectors import final_ranking

    target_b = frozen["b"]
    answer = truth_of(target_b).copy()
    answer[40:] = 0  # 40 of 200 right: 0.2, below B's built-in 0.3
    scored_attack(world, "a", target_b, answer)
    anonymization, attack = final_ranking(round=world.round)
    assert [(r.team.slug, r.rank) for r in anonymization] == [
        ("teamC", 1),
        ("teamA", 2),
        ("teamB", 2),
    ]
    # B and C attacked nothing: no attack rank (not a tie for 2nd).
    assert [(r.team.slug, r.rank) for r in attack] == [
        ("teamA", 1),
        ("teamB", None),
        ("teamC", None),
    ]

    client.force_login(world.organizer)
    table = csv_rows(client.get(world.round_url() + "final/?format=anonymization-csv"))
    assert table[0][:5] == ["rank", "team", "passes_gates", "worst_case_rate", "U1"]
    assert [row[:4] for row in table[1:]] == [
        ["1", "Team C", "True", "0.1"],
        ["2", "Team A", "True", "0.3"],
        ["2", "Team B", "True", "0.3"],
    ]
    assert [row[4] for row in table[1:]] == ["5.0", "5.0", "5.0"]
    table = csv_rows(client.get(world.round_url() + "final/?format=attack-csv"))
    assert table == [
        ["rank", "team", "mean_rate", "targets_attacked"],
        ["1", "Team A", "0.1", "1"],
        ["", "Team B", "0.0", "0"],
        ["", "Team C", "0.0", "0"],
    ]


def test_the_final_csv_header_names_the_mean_rule_in_force(world, frozen, client):
    from pwscup.pwscup2015.leaderboards.selectors import final_ranking

    BuiltinAttack.objects.filter(pk=frozen["a"].pk).update(rates=rates(0.6, 0.0))
    set_rule(world, Pwscup2015Round.RankingRule.MEAN_ATTACK)
    anonymization, _ = final_ranking(round=world.round)
    assert [(r.team.slug, r.rank, r.safety) for r in anonymization] == [
        ("teamA", 1, pytest.approx(0.1)),
        ("teamC", 1, pytest.approx(0.1)),
        ("teamB", 3, pytest.approx(0.3)),
    ]
    client.force_login(world.organizer)
    table = csv_rows(client.get(world.round_url() + "final/?format=anonymization-csv"))
    assert table[0][3] == "mean_rate"
    assert [row[:2] for row in table[1:]] == [["1", "Team A"], ["1", "Team C"], ["3", "Team B"]]


def test_the_matrix_csv_lists_every_attacker_and_target(world, frozen, client):
    target_b = frozen["b"]
    answer = truth_of(target_b).copy()
    answer[50:] = 0  # 0.25
    scored_attack(world, "a", target_b, answer)
    client.force_login(world.organizer)
    table = csv_rows(client.get(world.round_url() + "matrix/?format=csv"))
    assert table[0] == ["attacker", "Team A", "Team B", "Team C"]
    assert table[1] == ["Team A", "", "0.25", ""]
    assert table[2] == ["Team B", "", "", ""]
    assert table[4] == ["built-in E1", "0.3", "0.3", "0.1"]
    assert [row[0] for row in table[4:]] == [f"built-in {m}" for m in scoring.ATTACK_METRICS] + [
        "built-in kit attacker (top-3, 1:1)",
        "reference attack",  # its own line, outside the worst case (test_reference_attack.py)
    ]
