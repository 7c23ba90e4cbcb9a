"""The leaderboard's one ranking number in a browser (issue 37, point 4): after publication
the table and the chart's data table head the number with the same words and give each
team the same value, the final ranking's (every attack counts), in English at 1280 px and
Japanese at 390 px (screenshots under ``PWSCUP_E2E_SCREENSHOTS``)."""

import pytest

from pwscup.pwscup2015.services.operations import round_results_set
from tests.e2e.helpers import log_in, switch_language
from tests.pwscup.factories import freeze, scored, scored_attack, team_original, truth_of
from tests.pwscup.test_ranking_number import rotated

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The ranking column of each table: its heading and each team's value, as displayed.
READ = """() => {
  const table = document.querySelector('[data-testid="leaderboard"]');
  const data = document.querySelector('[data-testid="scatter-data"] table');
  const rows = (t, team, value) => Object.fromEntries(Array.from(t.tBodies[0].rows,
    (r) => [r.cells[team].innerText.split(' (')[0].trim(), Number(r.cells[value].innerText)]));
  return {
    table: [table.querySelector('[data-testid="safety-header"]').innerText, rows(table, 1, 2)],
    chart: [data.tHead.rows[0].cells[3].textContent, rows(data, 1, 3)],
    axis: document.querySelector('[data-testid="scatter-y-label"]').textContent,
  };
}"""


def test_the_leaderboard_shows_one_ranking_number_in_both_languages(web, e2e_world, screenshot):
    world = e2e_world
    scored(world, "a", seed=1)
    scored(world, "b", content=rotated(team_original(world, "b")))
    scored(world, "c", seed=3)
    targets = freeze(world)
    scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    round_results_set(round=world.round, published=True)

    page = web
    log_in(page, "team-c")
    for language, width, words in (
        ("en", 1280, "Worst-case re-identification rate over every attack"),
        ("ja", 390, None),
    ):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(world.round_url() + "leaderboard/")
        if language == "ja":
            switch_language(page, "ja")
        page.get_by_test_id("scatter-data").locator("summary").click()
        shown = page.evaluate(READ)
        screenshot(page, f"ranking-number-{language}-{width}")
        heading, numbers = shown["table"]
        assert shown["chart"][0] == heading
        # the axis says the same words (its lines are tspans: compare without spaces)
        assert heading.lower().replace(" ", "") in shown["axis"].lower().replace(" ", "")
        assert numbers["Team B"] == 1.0  # team A's attack counts
        assert shown["chart"][1] == pytest.approx(numbers, abs=5e-5)
        if words:
            assert heading == words
        else:
            assert not heading.isascii()
