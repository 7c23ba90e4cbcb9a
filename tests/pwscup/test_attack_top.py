"""The attack score against the top N releases (pwscup/competitions/attack_top.py), a core
setting of a round of any kind with an attack matrix: played here on a 2015 round (B and C
attack A; every team releases), whose attack ranking counts a target not attacked as 0."""

import io

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions.attack_top import ATTACK_TOP, attack_top_scores, scores_of
from pwscup.competitions.total_services import round_total_formula_set
from pwscup.competitions.totals import (
    named_scores,
    round_published_rankings,
    round_ranking_keys,
    round_totals,
)
from pwscup.kinds.rankings import AttackCells
from pwscup.kinds.tabs import RESULTS, RULES, tab_url
from pwscup.pwscup2015.leaderboards.matrix import attack_matrix
from pwscup.pwscup2015.leaderboards.selectors import final_ranking
from tests.pwscup.archive_world import play_2015
from tests.pwscup.bundle_helpers import START, creator, manifest_of
from tests.pwscup.dp_world import build_dp_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_world):
    world = make_world(data_mode="per_team", slug="top")
    play_2015(world)
    return world


def _by_hand(world, n: int) -> dict[int, float | None]:
    """The rule as docs/organizers.md writes it, from the final ranking's own rows: the
    releases ranked n or better, each attacker's best rate on them (0 where it did not
    attack) averaged without its own release."""
    anonymization, attack = final_ranking(round=world.round)
    matrix = attack_matrix(round=world.round)
    top = [row.target for row in anonymization if row.rank is not None and row.rank <= n]
    out = {}
    for row in attack:
        if row.rank is None:
            continue
        rates = [
            matrix.cell(f"team:{row.team.pk}", target.pk).best or 0.0
            for target in top
            if target.team_id != row.team.pk
        ]
        out[row.team.pk] = sum(rates) / len(rates) if rates else None
    return out


def test_every_release_counted_is_the_kinds_own_attack_ranking(played):
    _anonymization, attack = final_ranking(round=played.round)
    played.round.attack_top_n = 1000
    scores = attack_top_scores(played.round)
    ranked = {row.team.pk: row.mean_rate for row in attack if row.rank is not None}
    assert set(scores) == set(ranked) == {played.teams["b"].pk, played.teams["c"].pk}
    assert scores == pytest.approx(ranked)


# Releases 1..5: team 1 first, 2 and 3 tied second, 4 without a rank (a failed gate), 5
# fourth. Cells: target -> attacker -> score; team 6 attacks but releases nothing ranked.
CELLS = AttackCells(
    releases=((1, 1), (2, 2), (3, 2), (4, None), (5, 4)),
    cells={
        1: {2: 0.5, 3: 0.25, 6: 1.0},
        2: {1: 0.75, 3: 0.5},
        3: {1: 0.25, 2: 1.0, 6: 0.0},
        4: {1: 1.0, 2: 1.0, 3: 1.0, 6: 1.0},
        5: {1: 0.0, 2: 0.0, 6: 0.5},
    },
)


def test_the_rule_by_hand():
    """Written from docs/organizers.md before running: the top 2 are 1, 2 and 3 (a tie at
    the second place counts both), never 4 (no rank) nor 5 (fourth); own release left out;
    a target not in the matrix row does not count."""
    assert scores_of(CELLS, 1) == {1: None, 2: 0.5, 3: 0.25, 6: 1.0}
    assert scores_of(CELLS, 2) == {
        1: (0.75 + 0.25) / 2,
        2: (0.5 + 1.0) / 2,
        3: (0.25 + 0.5) / 2,
        6: (1.0 + 0.0) / 2,
    }
    assert scores_of(CELLS, 4) == {
        1: (0.75 + 0.25 + 0.0) / 3,
        2: (0.5 + 1.0 + 0.0) / 3,
        3: (0.25 + 0.5) / 2,
        6: (1.0 + 0.0 + 0.5) / 3,
    }


def test_names_formula_standings_and_tabs(played):
    round_total_formula_set(
        user=played.organizer, round=played.round, formula="attack_top * 100", attack_top_n=2
    )
    played.round.refresh_from_db()
    assert played.round.attack_top_n == 2
    names = named_scores(round=played.round)
    assert ATTACK_TOP in [name["key"] for name in names["names"]]
    expected = _by_hand(played, 2)
    totals = {row.team.pk: row.value for row in round_totals(round=played.round)}
    assert totals == pytest.approx({pk: v * 100 for pk, v in expected.items() if v is not None})

    assert ATTACK_TOP in [key.key for key in round_ranking_keys(played.round)]
    ranking = next(r for r in round_published_rankings(played.round) if r.key == ATTACK_TOP)
    scored = {row.team_id: row.score for row in ranking.rows}
    assert scored == pytest.approx(expected)
    best = max(v for v in expected.values() if v is not None)
    assert {row.team_id for row in ranking.rows if row.rank == 1} == {
        pk for pk, v in expected.items() if v == best
    }

    client = Client()
    client.force_login(played.users["a"])
    for lang, words in (("en", "Attack against the top 2 releases"), ("ja", "上位 2 件")):
        client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
        results = client.get(tab_url(played.round, RESULTS)).content.decode()
        assert words in results
        assert results.count('data-testid="round-attack-top-row"') == len(expected)
        rules = client.get(tab_url(played.round, RULES)).content.decode()
        assert 'data-testid="round-attack-top-rules"' in rules


def test_the_console_card_as_the_browser_posts_it(played):
    client = Client()
    client.force_login(played.organizer)
    assert not played.organizer.is_superuser
    page = client.get(reverse("console:round", args=[played.competition.slug, played.round.slug]))
    assert b'name="attack_top_n"' in page.content
    url = reverse("console:round_total", args=[played.competition.slug, played.round.slug])
    response = client.post(url, {"total_formula": "attack_top", "attack_top_n": "3"}, follow=True)
    # The message names both: setting only N (PWSCup 2020: 1) said "total formula is saved".
    assert "total formula and its attack against the top N are saved" in response.content.decode()
    played.round.refresh_from_db()
    assert (played.round.total_formula, played.round.attack_top_n) == ("attack_top", 3)

    refused = client.post(url, {"total_formula": "attack_top", "attack_top_n": "0"})
    assert refused.status_code == 200
    assert b"greater than or equal to 1" in refused.content
    # The formula names attack_top: clearing N makes it an unknown name, nothing is saved.
    cleared = client.post(url, {"total_formula": "attack_top", "attack_top_n": ""})
    assert cleared.status_code == 200
    assert b"names attack_top, which is not a score of the round" in cleared.content
    played.round.refresh_from_db()
    assert (played.round.total_formula, played.round.attack_top_n) == ("attack_top", 3)
    assert client.post(url, {"total_formula": "", "attack_top_n": ""}).status_code == 302
    played.round.refresh_from_db()
    assert (played.round.total_formula, played.round.attack_top_n) == ("", None)


def test_a_kind_without_a_matrix_offers_no_field():
    world = build_dp_world(slug="topdp")
    client = Client()
    client.force_login(world.organizer)
    page = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    assert page.status_code == 200
    assert b'name="attack_top_n"' not in page.content
    with pytest.raises(ValidationError):
        round_total_formula_set(
            user=world.organizer, round=world.round, formula="attack_top", attack_top_n=3
        )


def test_a_bundle_keeps_n(played):
    round_total_formula_set(
        user=played.organizer, round=played.round, formula="attack_top", attack_top_n=5
    )
    organizer = creator(played.organizer)
    data = competition_export(competition=played.competition, user=organizer)
    assert manifest_of(data)["rounds"][0]["attack_top_n"] == 5
    copy = competition_import(
        bundle_file=io.BytesIO(data), name="Top again", slug="top2", start=START, user=organizer
    )
    (copied,) = copy.rounds.all()
    assert (copied.attack_top_n, copied.total_formula) == (5, "attack_top")


def test_the_api_leaderboard_ends_with_the_cores_tables(played):
    round_total_formula_set(
        user=played.organizer, round=played.round, formula="attack_top", attack_top_n=2
    )
    client = Client()
    client.force_login(played.users["b"])
    url = reverse("api:round-standings", args=[played.competition.slug, played.round.slug])
    tables = client.get(url).json()["tables"]
    total, top = tables[-2], tables[-1]
    expected = _by_hand(played, 2)
    names = {team.pk: team.name for team in played.teams.values()}
    assert total["title"] == "Total: attack_top"
    assert {row[1]: row[2] for row in total["rows"]} == pytest.approx(
        {names[pk]: v for pk, v in expected.items() if v is not None}
    )
    assert top["title"] == "Attack score against the top 2 releases"
    assert {row[1]: row[2] for row in top["rows"]} == pytest.approx(
        {names[pk]: v for pk, v in expected.items()}
    )
    assert [row[0] for row in top["rows"]] == sorted(row[0] for row in top["rows"])


def test_the_api_gives_a_total_without_float_noise(played):
    """0.1 + 0.2 is 0.30000000000000004 in floating point: the API gives the total to the
    decimals that decide a tie (``TIE_DECIMALS``), as the page does to its own."""
    round_total_formula_set(user=played.organizer, round=played.round, formula="0.1 + 0.2")
    client = Client()
    client.force_login(played.users["b"])
    url = reverse("api:round-standings", args=[played.competition.slug, played.round.slug])
    (total,) = [t for t in client.get(url).json()["tables"] if t["title"].startswith("Total")]
    assert total["rows"] and {row[2] for row in total["rows"]} == {0.3}
    # What ``pwscup leaderboard`` prints: the figure as every page writes a total.
    assert {row[2] for row in total["rows_text"]} == {"0.3000"}
    assert all(row[0].isdigit() for row in total["rows_text"])


def test_the_standings_name_the_ranking_with_the_rounds_n(played):
    """The standings' column and the console's tick box said "the top N releases" with a
    literal N (PWSCup 2021's walk: its N is 3); they give the round's N."""
    from django.utils import translation

    round_total_formula_set(user=played.organizer, round=played.round, formula="", attack_top_n=3)
    played.round.refresh_from_db()
    for lang, words in (
        ("en", "Attack ranking against the top 3 releases"),
        ("ja", "上位 3 件の公開データに対する攻撃の順位"),
    ):
        with translation.override(lang):
            key = next(k for k in round_ranking_keys(played.round) if k.key == ATTACK_TOP)
            assert str(key.label) == words
