"""Indicators L1, L2, L3, T on the platform: stored with each scored submission of a round
whose configuration names them, shown beside S1/S2 on the round page, the leaderboard and
its CSV, allowed in gates with their direction (spec indicators-and-kit.md Part A)."""

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

import scoring
from pwscup.competitions.models import Phase, Round
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.ranking import GateError, parse_gates, passes_gates
from pwscup.pwscup2015.services.rounds import round_settings_check
from tests.pwscup.factories import scored, team_original
from tests.support import FIXTURES, adult_config, noisy_copy

pytestmark = pytest.mark.django_db

INDICATORS = {"sa": "income"}


@pytest.fixture
def indicator_world(make_world):
    world = make_world(leaderboard_public=True)
    config = {**world.round.config, "indicators": INDICATORS}
    Round.objects.filter(pk=world.round.pk).update(config=config)
    world.round.refresh_from_db()
    return world


def _expected(world, letter, content) -> dict:
    original = scoring.read_table(team_original(world, letter), name="x")
    table = scoring.read_table(content, name="a")
    return scoring.evaluate(original, table, scoring.load_config(world.round.config, original))


def test_scored_submissions_store_the_indicators(indicator_world):
    world = indicator_world
    content = noisy_copy(team_original(world, "a"), seed=1, delete=5)
    submission = scored(world, "a", content=content)
    expected = _expected(world, "a", content)
    assert submission.status == "finished"
    for metric in scoring.INDICATOR_METRICS:
        assert metric in submission.scores
        assert submission.scores[metric] == expected[metric]
    assert submission.scores["L1"] >= 1 and 0 <= submission.scores["T"] <= 1


def test_a_round_without_indicators_stores_none(world):
    submission = scored(world, "a", seed=1)
    assert not set(scoring.INDICATOR_METRICS) & set(submission.scores)


def test_round_page_and_leaderboard_show_the_indicators(indicator_world, client):
    world = indicator_world
    scored(world, "a", seed=1)
    client.force_login(world.users["a"])
    page = client.get(tab_url(world.round, SUBMIT)).content.decode()
    assert 'data-testid="metric-L1"' in page and 'data-testid="metric-T"' in page
    assert 'data-metric="L2"' in page
    assert "Entropy l-diversity" in page  # the header's description
    board = client.get(reverse("leaderboard", args=[world.competition.slug, world.round.slug]))
    html = board.content.decode()
    assert 'data-metric="L3"' in html and 'data-metric="T"' in html
    assert 'data-legend="L1"' in html and "L2 entropy l-diversity, higher is better" in html


def test_a_round_without_indicators_shows_no_indicator_column(world, client):
    scored(world, "a", seed=1)
    client.force_login(world.users["a"])
    page = client.get(tab_url(world.round, SUBMIT)).content.decode()
    assert 'data-testid="metric-L1"' not in page
    assert 'data-testid="metric-S1"' in page
    Phase.objects.filter(pk=world.anonymization.pk).update(leaderboard_public=True)
    board = client.get(reverse("leaderboard", args=[world.competition.slug, world.round.slug]))
    assert "L1, L2, L3, T" not in board.content.decode()


def test_leaderboard_csv_has_the_indicator_columns(indicator_world, client):
    world = indicator_world
    submission = scored(world, "a", seed=1)
    client.force_login(world.organizer)
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug]) + "?format=csv"
    rows = list(csv.reader(io.StringIO(client.get(url).content.decode())))
    header, first = rows[0], rows[1]
    assert header[-4:] == ["L1", "L2", "L3", "T"]
    assert header.index("S1") < header.index("L1")
    by_name = dict(zip(header, first, strict=True))
    assert float(by_name["T"]) == pytest.approx(submission.scores["T"], rel=1e-12)
    assert int(by_name["L1"]) == submission.scores["L1"]


@pytest.mark.parametrize(
    "raw, text",
    [
        ({"L1": 2}, "L1 ≥ 2"),
        ({"L2": 1.5}, "L2 ≥ 1.5"),
        ({"L3": 3}, "L3 ≤ 3"),
        ({"T": 0.3}, "T ≤ 0.3"),
        ({"T": {"min": 0.1, "max": 0.4}}, "T ≥ 0.1, T ≤ 0.4"),
    ],
)
def test_indicator_gates_take_their_better_direction(raw, text):
    assert [str(g) for g in parse_gates(raw)] == [text]


def test_indicator_gates_allow_rounding_as_the_spec_says(indicator_world):
    round_ = indicator_world.round
    round_.pwscup2015.utility_gates = {"L2": 2, "T": 0.25}
    assert passes_gates({"L2": 2 - 1e-12, "T": 0.25 + 1e-12}, round_)
    assert not passes_gates({"L2": 1.99, "T": 0.2}, round_)
    assert not passes_gates({"L2": 2.5, "T": 0.26}, round_)
    round_.pwscup2015.utility_gates = {"L3": 3}
    assert not passes_gates({"L3": None}, round_)  # C_l = ∞ fails an upper bound


def test_a_gate_on_an_indicator_needs_the_indicators_block():
    with pytest.raises(ValidationError) as caught:
        round_settings_check(
            timezone="UTC", utility_gates={"T": 0.3}, tie_break_metric="U1", config=adult_config()
        )
    assert "need an indicators block" in caught.value.message_dict["utility_gates"][0]
    round_settings_check(
        timezone="UTC",
        utility_gates={"T": 0.3},
        tie_break_metric="U1",
        config={**adult_config(), "indicators": INDICATORS},
    )
    with pytest.raises(GateError):
        parse_gates({"X9": 1})


def test_round_create_refuses_an_indicator_gate_without_indicators(make_world):
    with pytest.raises(ValidationError) as caught:
        make_world(slug="nogate", utility_gates={"L1": 2})
    assert "utility_gates" in caught.value.message_dict


def test_the_leaderboard_ranks_with_an_indicator_gate(indicator_world, client):
    world = indicator_world
    a = scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    Pwscup2015Round.objects.filter(round=world.round).update(utility_gates={"T": a.scores["T"] / 2})
    client.force_login(world.organizer)
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug]) + "?format=csv"
    rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
    assert {row["passes_gates"] for row in rows} == {"False"}
    assert all(row["rank"] == "" for row in rows)


def test_the_demo_round_names_the_income_indicators():
    from pwscup.pwscup2015.demo import DEMO_INDICATORS

    original = scoring.read_table(FIXTURES / "adult.csv", name="adult.csv")
    config = scoring.load_config({**adult_config(), "indicators": DEMO_INDICATORS}, original)
    assert config.indicators.kind == "categorical"
    assert config.indicators.t_distance == "equal"
