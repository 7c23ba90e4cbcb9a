"""The synthetic round's Results tab at 390 px: who reached a release's worst attack (the
release ranking's "reached by" line under *Worst attack*) reads whole in English and
Japanese: each attacker's name on one line, never broken letter by letter, inside its cell;
the table scrolls sideways in its frame, as the site's other tables do, and the page does
not."""

import pytest
from django.utils import translation

from pwscup.submissions.attack_matrix import MatrixRow
from pwscup.synthetic import services
from pwscup.synthetic.api.round_status import attacker_name
from tests.e2e.helpers import PASSWORD, log_in, switch_language
from tests.pwscup.syn_world import baseline_release, freeze, release, syn_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# For each name given, how many lines its characters take in the element (-1: not there).
NAME_LINES = """(element, names) => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  const text = nodes.map(node => node.data).join("");
  const place = (index, end) => {
    for (const node of nodes) {
      if (index < node.data.length || (end && index === node.data.length)) return [node, index];
      index -= node.data.length;
    }
  };
  return names.map(name => {
    const start = text.indexOf(name);
    if (start < 0) return -1;
    const range = document.createRange();
    range.setStart(...place(start, false));
    range.setEnd(...place(start + name.length, true));
    const rects = [...range.getClientRects()].filter(rect => rect.width > 0);
    return new Set(rects.map(rect => Math.round(rect.top))).size;
  });
}"""


def attacker_names(world, language: str) -> list[str]:
    """Every name the line may hold: the teams' and the built-in attacks', in ``language``."""
    with translation.override(language):
        builtin = [
            attacker_name(MatrixRow(name=key, cells=[])) for key in ("dcr", "density", "null")
        ]
    return [team.name for team in world.teams.values()] + [str(name) for name in builtin]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_reached_by_line_reads_whole_at_390_px(web, screenshot, language):
    world = syn_world(slug="synreach", letters="ab", password=PASSWORD)
    release(world, "a", baseline_release(world, "a"))
    release(world, "b", baseline_release(world, "b", seed=1))
    freeze(world)
    services.results_publish(synthetic=world.synthetic, user=world.organizer)
    web.set_viewport_size({"width": 390, "height": 844})
    log_in(web, "synreach-team-a")
    if language != "en":
        switch_language(web, language)
    web.goto(f"/c/{world.competition.slug}/{world.round.slug}/results/")
    screenshot(web, f"syn-reached-by-{language}-phone")
    lines = web.get_by_test_id("worst-by")
    assert lines.count() == 2
    names = attacker_names(world, language)
    for index in range(lines.count()):
        line = lines.nth(index)
        counts = line.evaluate(NAME_LINES, names)
        shown = [(name, count) for name, count in zip(names, counts, strict=True) if count >= 0]
        assert shown, line.inner_text()
        assert all(count == 1 for _, count in shown), (language, shown)
        # Inside its cell (the cell is as wide as the names need).
        cell = line.locator("xpath=ancestor::td[1]")
        assert cell.evaluate("c => c.scrollWidth <= c.clientWidth"), language
    frame = web.get_by_test_id("release-ranking").locator(".scroll")
    assert frame.evaluate("e => getComputedStyle(e).overflowX") == "auto"
    assert web.evaluate("document.documentElement.scrollWidth") <= 390
