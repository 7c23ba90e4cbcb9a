"""One owner per rule: every kind's ranking gives its ranks with
``scoring.ranking.competition_ranks`` (1, 2, 2, 4), and a team that attacked nothing has no
attack rank, on every page, CSV and API answer that shows one."""

import csv
import io
import re
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.urls import reverse

import scoring
import scoring.ranking
from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.api.services import api_token_create
from pwscup.dp.ranking import overall_ranking
from pwscup.pwscup2015.leaderboards.selectors import anonymization_leaderboard, final_ranking
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round
from pwscup.sequential import selectors as seq_selectors
from pwscup.sequential.models import SequenceScore, SequentialRound
from pwscup.submissions import kind_rankings
from pwscup.submissions.models import Status
from scoring.dp import Entry, rank_entries
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of, upload
from tests.pwscup.seq_web_world import seq_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def calls(monkeypatch):
    """Every call of the one ranking function (it still ranks: the spy only counts)."""
    real = scoring.ranking.competition_ranks
    seen = []

    def spy(items, **options):
        out = real(items, **options)
        seen.append([rank for rank, _item in out])
        return out

    monkeypatch.setattr(scoring.ranking, "competition_ranks", spy)
    # The core's order of a kind's ranking (``ranked_by_name``) calls it by the name it imported.
    monkeypatch.setattr(kind_rankings, "competition_ranks", spy)
    return seen


def rates(value: float) -> dict:
    return {metric: value for metric in scoring.ATTACK_METRICS}


def add_team(world, letter: str) -> None:
    team = team_create(
        competition=world.competition, name=f"Team {letter.upper()}", slug=f"team{letter.upper()}"
    )
    user = user_create(username=f"{world.competition.slug}-team-{letter}", password="pw")
    membership_add(team=team, user=user)
    world.teams[letter], world.users[letter] = team, user


def test_the_2015_leaderboard_ranks_through_the_one_function(world, calls):
    add_team(world, "d")
    for letter, rate in zip("abcd", (0.2, 0.3, 0.3, 0.4), strict=True):
        submission = upload(world, letter, world.original)
        AnonymizationSubmission.objects.filter(pk=submission.pk).update(
            status=Status.FINISHED, scores={"U1": 10.0, "S1": 1, **rates(rate)}
        )
    rows = anonymization_leaderboard(phase=world.anonymization)
    assert [r.rank for r in rows] == [1, 2, 2, 4]
    assert calls == [[1, 2, 2, 4]]


def test_the_dp_level_tables_and_overall_ranking_rank_through_the_one_function(calls):
    entries = [
        Entry("a", 1.0, 0.9, submitted_at=1),
        Entry("b", 2.0, 0.9, submitted_at=1),
        Entry("c", 2.0, 0.9, submitted_at=1),
        Entry("d", 3.0, 0.9, submitted_at=1),
    ]
    assert rank_entries(entries) == {"a": 1, "b": 2, "c": 2, "d": 4}
    teams = {
        letter: SimpleNamespace(pk=k, name=f"Team {letter}") for k, letter in enumerate("abcd")
    }
    levels = [
        SimpleNamespace(
            level=name,
            epsilon=Fraction(epsilon),
            verified=[
                SimpleNamespace(team=teams[t], rank=r) for t, r in zip("abcd", ranks, strict=True)
            ],
        )
        for name, epsilon, ranks in (("eps-1", 1, (1, 2, 2, 4)), ("eps-4", 4, (1, 3, 3, 2)))
    ]
    overall = overall_ranking(levels)
    # Sums 2, 5, 5, 6: B and C tie (same sum, same rank at the smallest ε).
    assert [(row.team.name, row.rank) for row in overall] == [
        ("Team a", 1),
        ("Team b", 2),
        ("Team c", 2),
        ("Team d", 4),
    ]
    assert calls == [[1, 2, 2, 4], [1, 2, 2, 4]]


def test_the_sequential_leaderboard_ranks_through_the_one_function(calls):
    world = seq_world(letters="abcde")
    SequentialRound.objects.filter(pk=world.sequential.pk).update(frozen_steps=1)
    world.sequential.refresh_from_db()
    safety = {"a": 0.2, "b": 0.3, "c": 0.3, "d": 0.4}
    for letter, team in world.teams.items():
        results = {"MINV": 2, "MU_min": 2, "RN_max": safety.get(letter, 0.1)}
        results |= {"RN_mean": 0.1, "IL": 0.1, "MAP_N": 0.0, "MAP_A": 0.0}
        if letter == "e":
            results["MINV"] = 1  # fails the m-invariant gate: listed last, unranked
        SequenceScore.objects.create(
            sequential=world.sequential, team=team, step=1, complete=True, results=results
        )
    rows = seq_selectors.leaderboard_rows(sequential=world.sequential)
    assert [(row.team.slug, row.rank) for row in rows] == [
        ("teamA", 1),
        ("teamB", 2),
        ("teamC", 2),
        ("teamD", 4),
        ("teamE", None),
    ]
    assert calls == [[1, 2, 2, 4, None]]


# --- No attack, no attack rank ----------------------------------------------------------


@pytest.fixture
def attacked(world):
    """Teams A and B attack once each with the same rate; C attacks nothing."""
    for letter, seed in zip("abc", (1, 2, 3), strict=True):
        scored(world, letter, seed=seed)
    targets = freeze(world)
    for attacker, target in (("a", "b"), ("b", "a")):
        answer = truth_of(targets[target]).copy()
        answer[40:] = 0  # 40 of 200 rows right
        scored_attack(world, attacker, targets[target], answer)
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    world.round.refresh_from_db()
    return world


def test_a_team_without_attack_has_no_attack_rank_in_the_final_ranking(attacked, client, calls):
    world = attacked
    _anonymization, attack = final_ranking(round=world.round)
    assert [(r.team.slug, r.rank, r.targets_attacked) for r in attack] == [
        ("teamA", 1, 1),
        ("teamB", 1, 1),
        ("teamC", None, 0),
    ]
    assert [1, 1, None] in calls
    client.force_login(world.users["a"])
    url = reverse("final_ranking", args=[world.competition.slug, world.round.slug])
    page = client.get(url).content.decode()
    row_c = page.split('data-testid="attack-row-teamC"')[1].split("</tr>")[0]
    assert '<td class="num" data-testid="attack-rank">—</td>' in row_c
    row_a = page.split('data-testid="attack-row-teamA"')[1].split("</tr>")[0]
    assert '<td class="num" data-testid="attack-rank">1</td>' in row_a
    table = list(csv.reader(io.StringIO(client.get(url + "?format=attack-csv").content.decode())))
    assert [row[:2] for row in table[1:]] == [["1", "Team A"], ["1", "Team B"], ["", "Team C"]]
    token = api_token_create(user=world.users["a"], name="script").secret
    answer = client.get(
        reverse("api:final", args=[world.competition.slug, world.round.slug]),
        HTTP_AUTHORIZATION="Bearer " + token,
    ).json()
    assert [(row["team"]["slug"], row["rank"]) for row in answer["attack"]] == [
        ("teamA", 1),
        ("teamB", 1),
        ("teamC", None),
    ]


def test_a_team_without_attack_has_no_rank_in_the_sequential_attack_ranking(client):
    from pwscup.sequential.models import SeqTarget
    from tests.pwscup.seq_web_world import attack
    from tests.pwscup.test_seq_web_attack import W6_GUESSES, attack_world

    world = attack_world()
    target = SeqTarget.objects.get(sequential=world.sequential, team=world.teams["a"])
    attack(world, "b", target, W6_GUESSES)
    ranking = seq_selectors.attack_ranking(sequential=world.sequential)
    assert [(r["team"].slug, r["rank"]) for r in ranking] == [("teamB", 1), ("teamA", None)]
    client.force_login(world.organizer)
    page = client.get(
        reverse("sequential:leaderboard", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    row_a = page.split('data-testid="attack-rank-teamA"')[1].split("</tr>")[0]
    assert '<td class="num">—</td>' in row_a
    row_b = page.split('data-testid="attack-rank-teamB"')[1].split("</tr>")[0]
    assert '<td class="num">1</td>' in row_b


def test_no_module_ranks_with_a_copy_of_the_rule():
    """The loops that gave ranks (``rank, previous = position, …``) live in
    ``scoring/ranking.py`` only; every kind calls it."""
    root = Path(__file__).resolve().parents[2]
    owner = root / "scoring" / "ranking.py"
    copies = [
        str(path.relative_to(root))
        for folder in ("pwscup", "scoring")
        for path in (root / folder).rglob("*.py")
        if path != owner and re.search(r"\brank, previous = ", path.read_text())
    ]
    assert copies == []
    assert re.search(r"\brank, previous = ", owner.read_text())
