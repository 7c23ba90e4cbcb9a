"""Competition standings (pwscup/competitions/standings.py): two PWSCup editions' published
rules reproduced on a season of a preliminary and a final round, the rules' edges (pending,
ties, unranked teams), the service's checks, and the faces (console form, page, CSV, API).

The rounds here are of a test-only kind whose rankings are the generated data below (the
shape of the editions': five teams, an anonymization and an attack ranking per round);
tests/pwscup/test_standings_kinds.py combines the rankings of real 2015 rounds.
The expected standings were written by hand from the rulebooks' formulas
(/work/shared/spec/pwscup-editions.md), before running.
"""

import csv
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.competitions.services import competition_create, round_of_kind_create
from pwscup.competitions.standings import standings_of
from pwscup.competitions.standings_models import Standings
from pwscup.competitions.standings_services import EntryInput, standings_update
from pwscup.kinds import RoundKind, register, unregister
from pwscup.kinds.rankings import RankingKey, RankingRow, RoundRanking
from pwscup.kinds.round_basics import RoundBasics
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered

pytestmark = pytest.mark.django_db

ANON = RankingKey("anonymization", _("Anonymization ranking"), higher_is_better=False)
ATTACK = RankingKey("attack", _("Attack ranking"), higher_is_better=True)
# Published rankings per round slug: {key: {team letter: (rank, score)}}; absent: pending.
PUBLISHED: dict = {}


class EditionKind(RoundKind):
    key = "edition"
    label = "Edition"

    def ranking_keys(self, round):
        return [ANON, ATTACK]

    def published_rankings(self, round):
        rankings = PUBLISHED.get(round.slug)
        if rankings is None:
            return []
        teams = {team.slug: team for team in round.competition.teams.all()}
        return [
            RoundRanking(
                declared,
                tuple(
                    RankingRow(team=teams[letter], rank=rank, score=score)
                    for letter, (rank, score) in rankings[declared.key].items()
                ),
            )
            for declared in (ANON, ATTACK)
        ]


@pytest.fixture
def season():
    register(EditionKind())
    PUBLISHED.clear()
    organizer = user_create(username="season-organizer", password="pw")
    competition = competition_create(name="Season", slug="season", organizers=[organizer])
    for letter in "ABCDE":
        team = team_create(competition=competition, name=f"Team {letter}", slug=letter)
        if letter == "A":
            member = user_create(username="season-a", password="pw")
            membership_add(team=team, user=member)
    rounds = [
        round_of_kind_create(
            basics=RoundBasics(competition=competition, name=name, slug=slug),
            kind="edition",
            config={},
        )
        for name, slug in (("Preliminary", "pre"), ("Final", "final"))
    ]
    yield competition, rounds, organizer
    unregister("edition")
    PUBLISHED.clear()


def ranking(ranks: dict, scores: dict | None = None) -> dict:
    return {letter: (rank, (scores or {}).get(letter)) for letter, rank in ranks.items()}


def order(table) -> list[tuple]:
    return [(row.rank, row.team.slug) for row in table.rows]


def set_standings(competition, rounds, rule, keys=("anonymization", "attack"), weights=None):
    weights = weights or (Decimal("0.1"), Decimal("0.9"))
    return standings_update(
        user=None,
        competition=competition,
        rule=rule,
        entries=[
            EntryInput(round=round_, weight=weight, rankings=tuple(keys))
            for round_, weight in zip(rounds, weights, strict=True)
        ],
    )


def test_2020_inverse_of_the_rank_sums_preliminary_1_final_9(season):
    """PWSCup 2020: per contest, overall = 1 / (anonymization rank + attack rank); the two
    contests weigh 1 : 9. By hand: A 0.1/6 + 0.9/3 = 0.31667, B 0.1/3 + 0.9/7 = 0.16190,
    C 0.1/5 + 0.9/4 = 0.245, D 0.1/7 + 0.9/7 = 0.14286, E 0.1/9 + 0.9/9 = 0.11111, so
    A, C, B, D, E."""
    competition, rounds, _organizer = season
    PUBLISHED["pre"] = {
        "anonymization": ranking({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}),
        "attack": ranking({"A": 5, "B": 1, "C": 2, "D": 3, "E": 4}),
    }
    PUBLISHED["final"] = {
        "anonymization": ranking({"A": 2, "B": 3, "C": 1, "D": 5, "E": 4}),
        "attack": ranking({"A": 1, "B": 4, "C": 3, "D": 2, "E": 5}),
    }
    set_standings(competition, rounds, Standings.Rule.INVERSE_RANK_SUM)
    table = standings_of(competition=competition)
    assert order(table) == [(1, "A"), (2, "C"), (3, "B"), (4, "D"), (5, "E")]
    values = [round(row.value, 5) for row in table.rows]
    assert values == [0.31667, 0.245, 0.1619, 0.14286, 0.11111]
    assert table.higher_is_better and not table.pending


def test_2023_ranks_9_to_1(season):
    """PWSCup 2023, anonymization division: 0.9 × final rank + 0.1 × preliminary rank,
    lower is better. Final ranks with a tie (C and D share 2nd, A is 4th). By hand: A 0.1 +
    3.6 = 3.7, B 0.2 + 0.9 = 1.1, C 0.3 + 1.8 = 2.1, D 0.4 + 1.8 = 2.2, E 0.5 + 4.5 = 5.0,
    so B, C, D, A, E."""
    competition, rounds, _organizer = season
    attack = ranking({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5})
    PUBLISHED["pre"] = {
        "anonymization": ranking({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}),
        "attack": attack,
    }
    PUBLISHED["final"] = {
        "anonymization": ranking({"B": 1, "C": 2, "D": 2, "A": 4, "E": 5}),
        "attack": attack,
    }
    set_standings(competition, rounds, Standings.Rule.WEIGHTED_RANK, keys=("anonymization",))
    table = standings_of(competition=competition)
    assert order(table) == [(1, "B"), (2, "C"), (3, "D"), (4, "A"), (5, "E")]
    assert [round(row.value, 9) for row in table.rows] == [1.1, 2.1, 2.2, 3.7, 5.0]
    assert not table.higher_is_better


def test_a_weighted_score_adds_the_scores_in_their_direction(season):
    """PWSCup 2024/2025: 0.1 × preliminary + 0.9 × main of a score, higher is better."""
    competition, rounds, _organizer = season
    five = {"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}
    PUBLISHED["pre"] = {
        "anonymization": ranking(five),
        "attack": ranking(five, {"A": 90, "B": 50, "C": 10, "D": 0, "E": 0}),
    }
    PUBLISHED["final"] = {
        "anonymization": ranking(five),
        "attack": ranking(five, {"A": 10, "B": 20, "C": 30, "D": 0, "E": 0}),
    }
    set_standings(competition, rounds, Standings.Rule.WEIGHTED_SCORE, keys=("attack",))
    table = standings_of(competition=competition)
    # A 9 + 9 = 18, B 5 + 18 = 23, C 1 + 27 = 28, D and E 0 (a tie).
    assert order(table) == [(1, "C"), (2, "B"), (3, "A"), (4, "D"), (4, "E")]
    assert [round(row.value, 9) for row in table.rows] == [28.0, 23.0, 18.0, 0.0, 0.0]


def test_a_round_not_published_is_pending_never_zero(season, client):
    competition, rounds, _organizer = season
    PUBLISHED["pre"] = {
        "anonymization": ranking({"A": 2, "B": 1, "C": 3, "D": 4, "E": 5}),
        "attack": ranking({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}),
    }
    set_standings(competition, rounds, Standings.Rule.WEIGHTED_RANK)
    table = standings_of(competition=competition)
    assert table.pending
    assert [column.pending for column in table.columns] == [False, False, True, True]
    assert all(row.rank is None and row.value is None for row in table.rows)
    # The preliminary's ranks are shown meanwhile; the final's cells say pending.
    assert {row.team.slug: row.cells[0].rank for row in table.rows}["B"] == 1
    page = client.get(reverse("competition_standings", args=[competition.slug])).content.decode()
    assert 'data-testid="standings-pending"' in page and 'data-testid="standings-chart"' not in page
    rows = list(csv.reader(io.StringIO(_csv(client, competition))))
    assert rows[0][:3] == ["rank", "team", "combined"]
    team_b = next(row for row in rows if row[1] == "Team B")
    assert team_b[:3] == ["", "Team B", ""] and team_b[-4:] == ["pending"] * 4
    assert "0" not in team_b[2:3]


def _csv(client, competition) -> str:
    response = client.get(reverse("competition_standings_csv", args=[competition.slug]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return response.content.decode()


def test_equal_values_share_a_rank_and_an_unranked_team_comes_last(season):
    competition, rounds, _organizer = season
    PUBLISHED["pre"] = {
        "anonymization": ranking({"A": 1, "B": 2, "C": 3, "D": 4, "E": None}),
        "attack": ranking({"A": 2, "B": 1, "C": 3, "D": 4, "E": 5}),
    }
    PUBLISHED["final"] = {
        "anonymization": ranking({"A": 2, "B": 1, "C": 3, "D": 4, "E": 5}),
        "attack": ranking({"A": 2, "B": 3, "C": 1, "D": 4}),  # E is not in it
    }
    set_standings(competition, rounds, Standings.Rule.INVERSE_RANK_SUM)
    table = standings_of(competition=competition)
    # A 0.1/3 + 0.9/4 = B 0.1/3 + 0.9/4; C 0.1/6 + 0.9/4; D 0.1/8 + 0.9/8; E no rank.
    assert order(table) == [(1, "A"), (1, "B"), (3, "C"), (4, "D"), (None, "E")]
    assert table.rows[-1].value is None


@pytest.mark.parametrize(
    "change, message",
    [
        ({"weight": Decimal(0)}, "The weight of Final must be above 0."),
        ({"rankings": ("total",)}, "Final has no ranking total."),
        ({"rankings": ()}, "Tick at least one ranking of Final."),
    ],
)
def test_the_service_refuses_what_it_cannot_combine(season, change, message):
    competition, rounds, _organizer = season
    entries = [
        EntryInput(rounds[0], Decimal("0.1"), ("anonymization",)),
        EntryInput(
            **{"round": rounds[1], "weight": Decimal("0.9"), "rankings": ("attack",)} | change
        ),
    ]
    with pytest.raises(ValidationError) as caught:
        standings_update(user=None, competition=competition, rule="weighted_rank", entries=entries)
    assert message in caught.value.messages
    assert not Standings.objects.exists()


def test_no_round_of_another_competition_and_no_scores_pointing_both_ways(season):
    competition, rounds, organizer = season
    other = competition_create(name="Other", slug="other", organizers=[organizer])
    foreign = round_of_kind_create(
        basics=RoundBasics(competition=other, name="X", slug="x"), kind="edition", config={}
    )
    with pytest.raises(ValidationError) as caught:
        standings_update(
            user=None,
            competition=competition,
            rule="weighted_rank",
            entries=[EntryInput(foreign, Decimal(1), ("attack",))],
        )
    assert caught.value.messages == ["X is not a round of this competition."]
    # Which rankings point which way is named, so that the organizer knows what to untick
    # (the console's form ticks every ranking of every round by default).
    for language, message in (
        (
            "en",
            "A weighted sum of scores needs rankings whose scores point the same way: higher "
            "is better in Attack ranking of Preliminary, Attack ranking of Final; lower is "
            "better in Anonymization ranking of Preliminary, Anonymization ranking of Final. "
            "Untick the rankings of one way, or combine them by rank.",
        ),
        (
            "ja",
            "スコアの加重和には、スコアの向きがそろった順位が必要です。大きいほど良い: "
            "Preliminary の攻撃の順位、Final の攻撃の順位。小さいほど良い: Preliminary "
            "の匿名加工の順位、Final の匿名加工の順位。片方の向きの順位のチェックを外すか、"
            "順位で組み合わせてください。",
        ),
    ):
        with translation.override(language), pytest.raises(ValidationError) as caught:
            set_standings(competition, rounds, Standings.Rule.WEIGHTED_SCORE)
        assert caught.value.messages == [message]


def test_the_console_form_as_rendered_sets_the_standings(season, client):
    competition, rounds, organizer = season
    url = reverse("console:standings", args=[competition.slug])
    client.force_login(organizer)
    page = client.get(url).content.decode()
    # No link to the public page while it is a 404 (no standings set yet).
    public = reverse("competition_standings", args=[competition.slug])
    assert client.get(public).status_code == 404
    assert f'href="{public}"' not in page
    # Two rounds: 0.1 and 0.9 by default, every ranking ticked.
    assert 'value="0.1"' in page and 'value="0.9"' in page
    response = post_as_rendered(
        client, url, "standings-form", {"rule": "inverse_rank_sum", "rounds-1-weight": "0.8"}
    )
    assert response.status_code == 302
    standings = Standings.objects.get(competition=competition)
    assert standings.rule == "inverse_rank_sum"
    saved = [(e.round.slug, e.weight, e.rankings) for e in standings.entries.all()]
    assert saved == [
        ("pre", Decimal("0.1"), ["anonymization", "attack"]),
        ("final", Decimal("0.8"), ["anonymization", "attack"]),
    ]
    assert f'href="{public}"' in client.get(url).content.decode()
    # The saved weights (four places in the database) show as written, no trailing zeros.
    assert (
        post_as_rendered(client, url, "standings-form", {"rounds-1-weight": "1"}).status_code == 302
    )
    fields = form_fields_of(client.get(url).content.decode(), "standings-form")
    assert [f["value"] for f in fields if f["name"].endswith("-weight")] == ["0.1", "1"]
    # Unticking a counted round's rankings, a weight of 0: refused with the service's words.
    response = post_as_rendered(
        client, url, "standings-form", {"rounds-0-rankings": False, "rounds-0-weight": "0"}
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "The weight of Preliminary must be above 0." in text
    assert "Tick at least one ranking of Preliminary." in text
    assert Standings.objects.get(competition=competition).entries.count() == 2


def test_a_round_added_after_the_standings_counts_by_ticking_counts_alone(season, client):
    """A round the saved standings do not know yet starts unticked, with the weight 1 and all
    its rankings ticked (as the rounds present when they were first made): ticking *Counts*
    alone counts it."""
    competition, _rounds, organizer = season
    url = reverse("console:standings", args=[competition.slug])
    client.force_login(organizer)
    assert post_as_rendered(client, url, "standings-form").status_code == 302
    round_of_kind_create(
        basics=RoundBasics(competition=competition, name="Extra", slug="extra"),
        kind="edition",
        config={},
    )
    fields = form_fields_of(client.get(url).content.decode(), "standings-form")
    row = {f["name"]: f for f in fields if f["name"].startswith("rounds-2-")}
    assert not row["rounds-2-counts"]["checked"]
    assert row["rounds-2-weight"]["value"] == "1"
    ticked = [f["value"] for f in fields if f["name"] == "rounds-2-rankings" and f["checked"]]
    assert ticked == ["anonymization", "attack"]
    response = post_as_rendered(client, url, "standings-form", {"rounds-2-counts": True})
    assert response.status_code == 302
    entry = Standings.objects.get(competition=competition).entries.get(round__slug="extra")
    assert (entry.weight, entry.rankings) == (Decimal(1), ["anonymization", "attack"])


@pytest.mark.parametrize(
    "total, said",
    [
        ("3", "The competition&#x27;s rounds changed since this page was opened"),
        ("1", "The competition&#x27;s rounds changed since this page was opened"),
        # Past the formset's bound: Django's own refusal, before any row is read.
        ("99999999999999999999", "Please submit at most 1000 forms."),
    ],
)
def test_a_page_whose_rows_are_not_the_rounds_is_refused_and_saves_nothing(
    season, client, total, said
):
    """The form's row count (``rounds-TOTAL_FORMS``) tampered with, or from a page opened
    before a round was added or deleted: each row is its round by position, so the page is
    refused with a message (no 500) and the standings stay as they were."""
    competition, _rounds, organizer = season
    url = reverse("console:standings", args=[competition.slug])
    client.force_login(organizer)
    response = post_as_rendered(client, url, "standings-form", {"rounds-TOTAL_FORMS": total})
    assert response.status_code == 200
    text = response.content.decode()
    assert said in text.split('class="errorlist nonform"')[1].split("</ul>")[0]
    # One row per round, whatever the page said.
    assert text.count('data-testid="standings-row-') == 2
    assert not Standings.objects.filter(competition=competition).exists()


def test_a_page_whose_rows_name_other_rounds_is_refused_and_saves_nothing(season, client):
    """A page opened before one round was deleted and another added has the right count but
    its rows are other rounds: each row names its round (a hidden field), so it is refused
    rather than read by position."""
    competition, rounds, organizer = season
    url = reverse("console:standings", args=[competition.slug])
    client.force_login(organizer)
    swapped = {"rounds-0-round_id": rounds[1].pk, "rounds-1-round_id": rounds[0].pk}
    response = post_as_rendered(client, url, "standings-form", swapped)
    assert response.status_code == 200
    text = response.content.decode()
    errors = text.split('class="errorlist nonform"')[1].split("</ul>")[0]
    assert "The competition&#x27;s rounds changed since this page was opened" in errors
    assert not Standings.objects.filter(competition=competition).exists()
    # As rendered, the same page saves.
    assert post_as_rendered(client, url, "standings-form").status_code == 302


def test_only_the_competitions_organizers_open_the_console_page(season, client):
    competition, _rounds, _organizer = season
    url = reverse("console:standings", args=[competition.slug])
    member = type(_organizer).objects.get(username="season-a")  # in team A
    client.force_login(member)
    # The console's rule (tests/pwscup/test_console.py): an account that does not organize
    # the competition gets the 404 of a competition that does not exist.
    assert client.get(url).status_code == 404
    assert client.post(url, {"rule": "weighted_rank"}).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the log-in page
    assert not Standings.objects.exists()


def test_page_chart_csv_and_api_agree(season, client):
    competition, rounds, _organizer = season
    five = ranking({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}, {"A": 0.1, "B": 0.2})
    PUBLISHED["pre"] = PUBLISHED["final"] = {"anonymization": five, "attack": five}
    set_standings(competition, rounds, Standings.Rule.WEIGHTED_RANK, keys=("anonymization",))
    detail = client.get(reverse("competition_detail", args=[competition.slug])).content.decode()
    assert 'data-testid="standings-link"' in detail
    for language in ("en", "ja"):
        page = client.get(
            reverse("competition_standings", args=[competition.slug]),
            HTTP_ACCEPT_LANGUAGE=language,
        ).content.decode()
        assert 'data-testid="standings-chart"' in page and "<rect" in page
        # The rule's line says its direction once (the weighted rank's label holds it).
        rule = page.split('data-testid="standings-rule">')[1].split("</p>")[0]
        direction = "lower is better" if language == "en" else "低いほど良い"
        assert rule.count(direction) == 1, rule
    assert "総合順位" in page
    rows = list(csv.reader(io.StringIO(_csv(client, competition))))
    assert rows[0] == [
        "rank",
        "team",
        "combined",
        "pre:anonymization:rank",
        "pre:anonymization:score",
        "final:anonymization:rank",
        "final:anonymization:score",
    ]
    assert rows[1] == ["1", "Team A", "1.0", "1", "0.1", "1", "0.1"]
    answer = client.get(reverse("api:competition-standings", args=[competition.slug])).json()
    assert answer["rule"] == "weighted_rank" and not answer["pending"]
    assert [row["team"]["slug"] for row in answer["rows"]] == list("ABCDE")
    assert answer["rows"][1]["combined"] == pytest.approx(2.0)
    assert answer["columns"][1] == {
        "round": "final",
        "round_name": "Final",
        "ranking": "anonymization",
        "label": "Anonymization ranking",
        "weight": 0.9,
        "higher_is_better": False,
        "pending": False,
    }


def test_the_page_shows_the_weights_as_written_in_the_readers_language(season, client):
    # 0.1 and 0.9 are kept as 0.1000 and 0.9000; the page says 0.1 and 0.9, as the console's
    # form does, and lists the rounds with the reader's separator, not an English ", ".
    competition, rounds, _organizer = season
    five = ranking({"A": 1, "B": 2}, {"A": 0.1, "B": 0.2})
    PUBLISHED["pre"] = PUBLISHED["final"] = {"anonymization": five, "attack": five}
    set_standings(competition, rounds, Standings.Rule.WEIGHTED_RANK, keys=("anonymization",))
    url = reverse("competition_standings", args=[competition.slug])
    for language, separator in (("en", ", "), ("ja", "、")):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        line = page.split('data-testid="standings-rounds">')[1].split("</p>")[0]
        assert "×0.1</a>" not in line and "×0.1" + separator in line, line
        assert line.endswith("×0.9"), line
        assert "×0.1000" not in page and "×0.9000" not in page  # nor in the headers
        rule = page.split('data-testid="standings-rule">')[1].split("</p>")[0]
        assert not rule.endswith("."), rule


def test_a_competition_without_standings_has_no_page_nor_endpoint(season, client):
    competition, _rounds, _organizer = season
    assert client.get(reverse("competition_standings", args=[competition.slug])).status_code == 404
    answer = client.get(reverse("api:competition-standings", args=[competition.slug]))
    assert answer.status_code == 404
    detail = client.get(reverse("competition_detail", args=[competition.slug])).content.decode()
    assert 'data-testid="standings-link"' not in detail
