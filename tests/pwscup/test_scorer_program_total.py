"""A round's total naming the ranking program's numbers (docs/scorer.md, "PWSCup 2025 on this
platform"; docs/organizers.md, "A round's total"): in a round ranked by its program, the Total
card offers ``ranked_release`` and ``ranked_attack``, each team's numbers of the newest
finished run, which the totals, the top N by the total and the standings' weighted sum of
totals then follow. The 2025 program of the tests (``membership_2025_program.py``) computes
each release's ``U + max(0, (members - max_j TP_ij) - (L - 1))`` in the real sandbox; the
numbers are worked out by hand below. Two rounds of one competition are built once for the
module (a preliminary and a final); each test runs the program in its own transaction."""

import io
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions import attack_top
from pwscup.competitions.standings import standings_of
from pwscup.competitions.standings_services import EntryInput, standings_update
from pwscup.competitions.total_services import round_total_formula_set
from pwscup.competitions.totals import round_published_rankings, round_totals
from pwscup.kinds.tabs import RESULTS, RULES, tab_url
from pwscup.scorer import services
from pwscup.scorer.models import RankingRun
from tests.pwscup.bundle_helpers import START, creator, manifest_of
from tests.pwscup.membership_2025_world import (
    CONFIG,
    membership_play,
    membership_round,
    ranking_run,
)
from tests.pwscup.rendered_forms import form_fields_of, post_data
from tests.pwscup.scorer_world import scorer_world

pytestmark = pytest.mark.django_db

# The preliminary's utilities: the program's order (B, C, A) is not the utilities' (C, B, A).
# Its anonymity (each attacker's best upload counting; test_scorer_counted_attacks.py works
# it out): A 1, B 3, C 2, so ranked_release A 11, B 14.5, C 14; ranked_attack (the true
# positives summed): A 3, B 5, C 2.
PRELIMINARY = {"a": 10, "b": 11.5, "c": 12}
FINAL = {"a": 40, "b": 10, "c": 20}  # the same answers: ranked_release 41, 13, 22


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    from tests.support import flush_database

    with django_db_blocker.unblock():
        made = membership_play(scorer_world(slug="ptot", config=CONFIG, build=False), PRELIMINARY)
        made.final = membership_round(made, slug="s2", utility=FINAL)
    yield made
    with django_db_blocker.unblock():
        flush_database()


@pytest.fixture(autouse=True)
def rounds_as_built(world):
    """Each test starts from the rounds as built: its own changes are rolled back with its
    transaction, but stay on the module's objects."""
    for made in (world, world.final):
        made.scorer.refresh_from_db()
        made.round.refresh_from_db()


def totals(round_) -> list[tuple]:
    return [(row.team.slug, row.value, row.rank) for row in round_totals(round=round_)]


def results_page(world, language: str = "en") -> str:
    client = Client()
    client.force_login(world.users["a"])
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: language})
    page = client.get(tab_url(world.round, RESULTS))
    assert page.status_code == 200
    return page.content.decode()


def total_table(html: str) -> str:
    return html[html.index('data-testid="round-total-table"') :].split("</section>")[0]


def test_the_total_card_offers_the_programs_numbers_and_the_totals_wait_for_a_run(world):
    client = Client()
    client.force_login(world.organizer)
    args = [world.competition.slug, world.round.slug]
    card = client.get(reverse("console:round", args=args)).content.decode()
    assert "<code>ranked_release</code>" in card and "<code>ranked_attack</code>" in card
    assert "The ranking program&#x27;s release number" in card
    # Saved before any run (nobody has the numbers yet) as the browser posts the card, with
    # 2025's attack score: against the top 10 by the total, own release as the best other's.
    fields = form_fields_of(card, "round-total-form")
    typed = {
        "total_formula": "ranked_release",
        "attack_top_n": "10",
        "attack_top_by": "total",
        "attack_top_own": "best_other",
        "attack_top_combine": "sum",
    }
    saved = client.post(reverse("console:round_total", args=args), post_data(fields, typed))
    assert saved.status_code == 302
    world.round.refresh_from_db()
    assert (world.round.total_formula, world.round.attack_top_n) == ("ranked_release", 10)
    assert round_totals(round=world.round) == []
    services.results_publish(scorer=world.scorer, user=world.organizer)
    english = total_table(results_page(world))
    assert "The totals wait for the ranking program" in english
    assert "No team has a total." not in english
    japanese = total_table(results_page(world, "ja"))
    assert "合計は順位付けプログラムの実行を待っています" in japanese
    rules = Client()
    rules.force_login(world.users["b"])
    words = rules.get(tab_url(world.round, RULES)).content.decode()
    assert "<code>ranked_release</code>: The ranking program&#x27;s release number" in words
    ranking_run(world)
    table = total_table(results_page(world))
    assert "The totals wait" not in table
    assert table.count('data-testid="round-total-row"') == 3
    # A round ranked by its rules has no program's number to name.
    world.round.config = {**world.round.config, "ranking": "rules"}
    world.round.save(update_fields=["config"])
    with pytest.raises(ValidationError, match="names ranked_release, which is not a score"):
        round_total_formula_set(user=world.organizer, round=world.round, formula="ranked_release")


def test_a_total_naming_the_programs_numbers_follows_its_newest_run(world):
    round_total_formula_set(
        user=world.organizer, round=world.round, formula="ranked_release + ranked_attack"
    )
    ranking_run(world)
    # A 11 + 3, B 14.5 + 5, C 14 + 2.
    assert totals(world.round) == [("teamb", 19.5, 1), ("teamc", 16.0, 2), ("teama", 14.0, 3)]
    round_total_formula_set(user=world.organizer, round=world.round, formula="ranked_release")
    assert totals(world.round) == [("teamb", 14.5, 1), ("teamc", 14.0, 2), ("teama", 11.0, 3)]
    services.results_publish(scorer=world.scorer, user=world.organizer)
    total = next(r for r in round_published_rankings(world.round) if r.key == "total")
    assert [(row.team.slug, row.rank) for row in total.rows] == [
        ("teamb", 1),
        ("teamc", 2),
        ("teama", 3),
    ]
    assert "14.5000" in total_table(results_page(world))
    # A new run on other counted attacks (each attacker's newest): A (5 - 2) - 1 = 2, B
    # (5 - 2) - 0 = 3, C (5 - 1) - 0 = 4. The pages read it at once.
    world.round.config = {**world.round.config, "attack_counts": "last"}
    world.round.save(update_fields=["config"])
    ranking_run(world)
    assert totals(world.round) == [("teamc", 16.0, 1), ("teamb", 14.5, 2), ("teama", 12.0, 3)]
    table = total_table(results_page(world))
    assert table.index("Team C") < table.index("Team B") < table.index("Team A")
    assert "16.0000" in table and "12.0000" in table


def test_a_team_the_program_gave_no_number_has_no_total(world):
    round_total_formula_set(user=world.organizer, round=world.round, formula="ranked_release")
    ranking_run(world)
    newest = RankingRun.objects.filter(scorer=world.scorer).order_by("-pk").first()
    newest.teams = {slug: numbers for slug, numbers in newest.teams.items() if slug != "teamb"}
    newest.save(update_fields=["teams"])
    assert totals(world.round) == [("teamc", 14.0, 1), ("teama", 11.0, 2)]
    services.results_publish(scorer=world.scorer, user=world.organizer)
    total = next(r for r in round_published_rankings(world.round) if r.key == "total")
    assert [(row.team.slug, row.rank) for row in total.rows][-1] == ("teamb", None)


def test_the_top_n_by_the_total_follows_the_programs_numbers(world):
    rule = {"attack_top_by": "total", "attack_top_own": "best_other", "attack_top_combine": "sum"}
    pk = {world.teams[letter].pk: letter for letter in "abc"}

    def top_scores(formula: str) -> dict:
        round_total_formula_set(
            user=world.organizer, round=world.round, formula=formula, attack_top_n=1, rule=rule
        )
        return {
            pk[team]: value for team, value in attack_top.attack_top_scores(world.round).items()
        }

    # Before a run the program has ranked no attacker either: no score.
    assert top_scores("ranked_release") == {}
    ranking_run(world)
    # By the utility, C is first: its attackers' true positives on it, A 1 and B 2, and C's
    # own release counted as the best other's, 2.
    assert top_scores("U") == {"a": 1, "b": 2, "c": 2}
    # By the program's numbers, B is first (14.5): A 2 and C 1 on it, B's own 2.
    assert top_scores("ranked_release") == {"a": 2, "b": 2, "c": 1}


def test_the_standings_weigh_the_rounds_totals_of_the_programs_numbers(world):
    final = world.final
    for made in (world, final):
        round_total_formula_set(user=world.organizer, round=made.round, formula="ranked_release")
        ranking_run(made)
        services.results_publish(scorer=made.scorer, user=world.organizer)
    assert totals(final.round) == [("teama", 41.0, 1), ("teamc", 22.0, 2), ("teamb", 13.0, 3)]
    standings_update(
        user=world.organizer,
        competition=world.competition,
        rule="weighted_score",
        entries=[
            EntryInput(world.round, Decimal("0.1"), ("total",)),
            EntryInput(final.round, Decimal("0.9"), ("total",)),
        ],
    )
    table = standings_of(competition=world.competition)
    # A 0.1 * 11 + 0.9 * 41, C 0.1 * 14 + 0.9 * 22, B 0.1 * 14.5 + 0.9 * 13.
    assert [(row.team.slug, row.rank) for row in table.rows] == [
        ("teama", 1),
        ("teamc", 2),
        ("teamb", 3),
    ]
    assert [row.value for row in table.rows] == pytest.approx([38.0, 21.2, 13.15])


@pytest.mark.parametrize(
    ("key", "words", "japanese"),
    [
        ("ranked_release", "the ranking program's release number", "公開データの値"),
        ("ranked_attack", "the ranking program's attack number", "攻撃の値"),
    ],
)
def test_a_release_column_named_as_a_programs_number_is_refused(key, words, japanese):
    config = {**CONFIG, "release_columns": [{"key": "U"}, {"key": key}]}
    for language, expected in (("en", words), ("ja", japanese)):
        with translation.override(language), pytest.raises(ValidationError) as refused:
            services.scorer_config_validate(config)
        (error,) = refused.value.error_dict["config"]
        assert error.params["key"] == "release_columns[2].key"
        assert expected in error.messages[0]
    # An attack column is no formula's name: it may take the key.
    assert services.scorer_config_validate({**CONFIG, "attack_columns": [{"key": key}]})


def test_a_bundle_keeps_a_total_naming_the_programs_number(world):
    round_total_formula_set(user=world.organizer, round=world.round, formula="ranked_release")
    organizer = creator(world.organizer)
    data = competition_export(competition=world.competition, user=organizer)
    assert manifest_of(data)["rounds"][0]["total_formula"] == "ranked_release"
    copy = competition_import(
        bundle_file=io.BytesIO(data), name="Again", slug="ptot2", start=START, user=organizer
    )
    copied = copy.rounds.get(slug=world.round.slug)
    assert copied.total_formula == "ranked_release"
