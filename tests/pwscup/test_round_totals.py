"""A round's total from its named scores (pwscup/competitions/totals.py): a scorer round's
release scores by key, the console card as the browser posts it, refusals next to the
field, the Results tab, the standings' ranking key, a bundle's round entry."""

import io
import json
import re

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions.models import Competition
from pwscup.competitions.total_services import round_total_formula_set
from pwscup.competitions.totals import (
    named_scores,
    round_published_rankings,
    round_ranking_keys,
    round_totals,
)
from pwscup.console.forms import TotalFormulaForm
from pwscup.kinds.tabs import RESULTS, RULES, tab_url
from pwscup.scorer import services
from scoring.formula import formula_check, formula_value
from tests.pwscup.bundle_helpers import START, creator, manifest_of, rebuilt
from tests.pwscup.scorer_world import freeze, release, release_bytes, scorer_world

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def world():
    world = scorer_world(slug="tot", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    freeze(world)
    return world


def _console(world):
    client = Client()
    client.force_login(world.organizer)
    assert not world.organizer.is_superuser
    return client


def test_scorer_names_and_totals_rank_higher_first(world):
    scores = named_scores(round=world.round)
    assert [n["key"] for n in scores["names"]] == ["utility", "protection", "power"]
    teams = scores["teams"]
    a, b = world.teams["a"].pk, world.teams["b"].pk
    assert teams[a]["utility"] is not None and teams[b]["utility"] is not None
    round_total_formula_set(user=world.organizer, round=world.round, formula="-utility * 2")
    rows = round_totals(round=world.round)
    expected = sorted([(-2 * teams[a]["utility"], a), (-2 * teams[b]["utility"], b)], reverse=True)
    assert [row.value for row in rows] == pytest.approx([value for value, _ in expected])
    assert [row.team.pk for row in rows] == [team for _, team in expected]
    assert teams[a]["utility"] != teams[b]["utility"]
    assert [row.rank for row in rows] == [1, 2]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_cards_2024_example_is_a_formula_a_scorer_round_takes(language):
    # The card's help gave max(0, A + U - ...): a scorer round has no score A (the anonymity
    # comes from the attacks: 100 - protection), so the example was refused as written.
    with translation.override(language):
        help_text = str(TotalFormulaForm().fields["total_formula"].help_text)
    example = re.search(r"PWSCup 2024[^:]*: (max\(.*\))", help_text).group(1)
    formula_check(example, ["U", "protection", "power"])
    # Protection 60: anonymity 40, 40 + 70 - 2 * 10 = 90 (docs/organizers.md).
    assert formula_value(example, {"U": 70, "protection": 60, "power": 0}) == 90


def test_the_names_use_the_results_words_in_japanese(world):
    # The Total card and the Rules tab list "protection" by the word the results tables use
    # for it (防御度), not another one (保護), and a release as a release (公開データ).
    with translation.override("ja"):
        labels = {n["key"]: n["label"] for n in named_scores(round=world.round)["names"]}
        assert labels["protection"].startswith(gettext("Protection")), labels
        assert "公開データ" in labels["protection"], labels


def test_the_console_card_saves_what_the_browser_posts(world):
    client = _console(world)
    page = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    assert page.status_code == 200
    assert (
        b'data-testid="round-total-form"' in page.content
        and b"<code>utility</code>" in page.content
    )
    # The names stand under the formula, each field in its own block: laid out in one row of
    # inline fields, "Names the formula may use:" sat beside the N field as if its label.
    text = page.content.decode()
    formula = text[text.index('data-testid="round-total-formula"') :]
    formula = formula[: formula.index('data-testid="round-total-top-n"')]
    assert 'name="total_formula"' in formula and 'data-testid="round-total-names"' in formula
    assert 'name="attack_top_n"' not in formula
    assert "{#" not in text and "{%" not in text  # no template comment shown as text
    url = reverse("console:round_total", args=[world.competition.slug, world.round.slug])
    response = client.post(url, {"total_formula": " max(0, utility) "})
    assert response.status_code == 302
    world.round.refresh_from_db()
    assert world.round.total_formula == "max(0, utility)"


@pytest.mark.parametrize(
    ("formula", "words"),
    [
        ("utility + safety", "names safety, which is not a score of the round"),
        ("1 / (utility - utility)", "divides by zero"),
    ],
)
def test_a_refused_formula_is_shown_next_to_the_field(world, formula, words):
    client = _console(world)
    url = reverse("console:round_total", args=[world.competition.slug, world.round.slug])
    response = client.post(url, {"total_formula": formula})
    assert response.status_code == 200
    text = response.content.decode()
    field = text[text.index('data-testid="round-total-form"') :]
    assert words in field[: field.index("</form>")]
    # The page comes back scrolled to the top, the card far below on a phone: said up there.
    top = text[: text.index('data-testid="round-total-form"')]
    assert "The total formula was not saved: its error is marked under Total." in top
    world.round.refresh_from_db()
    assert world.round.total_formula == ""


def test_a_syntax_error_says_where_in_the_readers_language(world):
    client = _console(world)
    url = reverse("console:round_total", args=[world.competition.slug, world.round.slug])
    expected = {
        ("1 + (", "en"): "The bracket at character 5 is never closed (near &#x27;1 + (&#x27;)",
        ("1 + (", "ja"): "式の 5 文字目の括弧が閉じられていません（&#x27;1 + (&#x27; の辺り）",
        ("a b", "en"): "The formula cannot be read at character 3 (near &#x27;a b&#x27;)",
        ("a b", "ja"): "式の 3 文字目（&#x27;a b&#x27; の辺り）を読み取れません",
    }
    for (formula, language), words in expected.items():
        response = client.post(url, {"total_formula": formula}, HTTP_ACCEPT_LANGUAGE=language)
        text = response.content.decode()
        field = text[text.index('data-testid="round-total-form"') :]
        field = field[: field.index("</form>")]
        assert words in field
        assert "invalid syntax" not in field and "was never closed" not in field


def test_results_tab_and_standings_once_published(world):
    round_total_formula_set(user=world.organizer, round=world.round, formula="utility")
    assert "total" in [key.key for key in round_ranking_keys(world.round)]
    assert "total" not in [r.key for r in round_published_rankings(world.round)]
    client = Client()
    client.force_login(world.users["a"])
    results = tab_url(world.round, RESULTS)
    assert b"round-total-table" not in client.get(results).content
    services.results_publish(scorer=world.scorer, user=world.organizer)
    total = next(r for r in round_published_rankings(world.round) if r.key == "total")
    assert [r.rank for r in total.rows] == [1, 2]
    for lang, title in (("en", "Total"), ("ja", "合計")):
        client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
        page = client.get(results)
        assert page.status_code == 200
        assert title in page.content.decode()
        assert page.content.count(b'data-testid="round-total-row"') == 2
        # The reader's own team marked, in a table as wide as the Results tab's others.
        with translation.override(lang):
            you = f"({gettext('you')})"
        html = page.content.decode()
        table = html[html.index('data-testid="round-total-table"') :].split("</table>")[0]
        rows = table.split('data-testid="round-total-row"')[1:]
        assert [you in row for row in rows] == ["Team A" in row for row in rows]
        assert '<table class="compact">' in table
        rules = client.get(tab_url(world.round, RULES)).content.decode()
        assert '<code data-testid="round-total-formula">utility</code>' in rules


@pytest.mark.parametrize(
    ("formula", "example"),
    [
        ("utility", ""),
        ("utility * (utility < 50)", "utility < 50"),
        # The formula's own first comparison, not a name the round does not have (A):
        ("max(0, utility - 2*(50-utility)*(utility<50) + (utility >= 90))", "utility<50"),
    ],
)
def test_the_rules_tab_explains_comparisons_with_the_formula_s_own(world, formula, example):
    round_total_formula_set(user=world.organizer, round=world.round, formula=formula)
    client = Client()
    client.force_login(world.users["a"])
    for lang in ("en", "ja"):
        client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
        rules = client.get(tab_url(world.round, RULES)).content.decode()
        with translation.override(lang):
            comparison = gettext(
                "A comparison such as (%(comparison)s) counts 1 when true and 0 when false."
            ) % {"comparison": escape(example)}
            missing = gettext("A team missing one of these scores, or disqualified, has no total.")
        notes = rules.split('data-testid="round-total-notes">')[1].split("</p>")[0]
        assert (comparison in notes) is bool(example), (lang, notes)
        assert "A&lt;50" not in notes and "A<50" not in notes, (lang, notes)
        assert missing in notes, (lang, notes)


def test_a_bundle_keeps_the_formula(world):
    round_total_formula_set(user=world.organizer, round=world.round, formula="utility + 1")
    organizer = creator(world.organizer)
    data = competition_export(competition=world.competition, user=organizer)
    assert manifest_of(data)["rounds"][0]["total_formula"] == "utility + 1"
    copy = competition_import(
        bundle_file=io.BytesIO(data), name="Totals again", slug="tot2", start=START, user=organizer
    )
    (copied,) = copy.rounds.all()
    assert copied.total_formula == "utility + 1"


def test_a_bundle_with_an_unknown_name_is_refused(world):
    organizer = creator(world.organizer)
    data = competition_export(competition=world.competition, user=organizer)

    def unknown(manifest):
        manifest["rounds"][0]["total_formula"] = "utility + U1"

    with pytest.raises(ValidationError) as refused:
        competition_import(
            bundle_file=io.BytesIO(rebuilt(data, change=unknown)),
            name="",
            slug="tot3",
            start=START,
            user=organizer,
        )
    assert "names U1, which is not a score of the round" in str(refused.value)
    assert not Competition.objects.filter(slug="tot3").exists()


def test_the_results_archive_holds_the_rounds_total_and_attack_top(world):
    # PWSCup 2025's round outcome is its total (U + A): the archive keeps it beside the
    # kind's rankings, as the Results tab shows it, in full numbers.
    from pwscup.archives.services import archive_publish
    from tests.pwscup.archive_world import archive_zip, read_field

    round_total_formula_set(
        user=world.organizer,
        round=world.round,
        formula="utility * 2",
        attack_top_n=5,
        rule={
            "attack_top_by": "total",
            "attack_top_own": "best_other",
            "attack_top_combine": "sum",
        },
    )
    services.results_publish(scorer=world.scorer, user=world.organizer)
    totals = round_totals(round=world.round)
    archive = archive_publish(competition=world.competition, secrets=[], user=world.organizer)
    members = archive_zip(read_field(archive.file))
    prefix = f"rounds/{world.round.slug}/"
    lines = members[prefix + "total.csv"].decode().splitlines()
    assert lines[0] == "rank,team,total"
    assert lines[1:] == [f"{row.rank},{row.team.name},{round(row.value, 9)}" for row in totals]
    assert len(lines) == 3
    assert members[prefix + "attack_top.csv"].decode().splitlines()[0] == "rank,team,attack_top"
    manifest = json.loads(members["manifest.json"])
    assert prefix + "total.csv" in {member["name"] for member in manifest["members"]}
    # The data card says how the attack score against the top N releases was read.
    (card,) = json.loads(members["data-card.json"])["rounds"]
    assert card["attack_top"] == {
        "n": 5,
        "by": "total",
        "own": "best_other",
        "combine": "sum",
        "words": "The top 5 by the round's total; the attacker's own release: the best other "
        "attacker's score; combined as the sum.",
    }
    assert (
        "**Attack against the top 5 releases (`attack_top.csv`).** The top 5 by the round's total"
        in (members["data-card.md"].decode())
    )


def test_a_team_without_a_total_is_listed_unranked_in_the_standings():
    """A team of the round the total ranking cannot rank (its release never attacked, so no
    protection) is listed last without a rank, as docs/organizers.md says, not left out: the
    total ranking lists it unranked, while the Results tab's Total table lists the totals."""
    from decimal import Decimal

    from pwscup.competitions.standings import standings_of
    from pwscup.competitions.standings_services import EntryInput, standings_update
    from tests.pwscup.scorer_world import attack, attack_phase, guess_bytes

    world = scorer_world(slug="unt", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    round_total_formula_set(user=world.organizer, round=world.round, formula="utility - protection")
    services.results_publish(scorer=world.scorer, user=world.organizer)
    assert [row.team.slug for row in round_totals(round=world.round)] == ["teama"]
    total = next(r for r in round_published_rankings(world.round) if r.key == "total")
    assert [(row.team.slug, row.rank) for row in total.rows] == [("teama", 1), ("teamb", None)]
    standings_update(
        user=world.organizer,
        competition=world.competition,
        rule="weighted_score",
        entries=[EntryInput(world.round, Decimal(1), ("total",))],
    )
    table = standings_of(competition=world.competition)
    ranks = [(row.team.pk, row.rank) for row in table.rows]
    assert ranks[0][0] == world.teams["a"].pk and ranks[0][1] == 1
    assert ranks[1:] == [(world.teams["b"].pk, None)]
