"""At phone width (390 px) the round's tab bar, wider than the screen, shows a scroll cue
("›" and an edge shadow) while tabs lie to the right, and the current tab (Results, the last)
is scrolled into view, in both languages."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import keep_screenshot, log_in, open_tab, switch_language

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844


def cue(bar) -> str:
    return bar.evaluate("e => getComputedStyle(e, '::after').content")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_tab_bar_shows_a_scroll_cue_and_its_current_tab(web, e2e_world, language):
    world, page = e2e_world, web
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    log_in(page, "team-a")
    if language != "en":
        switch_language(page, language)
    page.goto(world.round_url())
    bar = page.get_by_test_id("round-tabs")
    scroll, client = bar.evaluate("e => [e.scrollWidth, e.clientWidth]")
    if language == "en":
        assert scroll > client, "the English tabs overflow 390 px: the case of the report"
    if scroll > client:
        assert cue(bar) == '"›"', "no cue while tabs lie to the right"
        assert "gradient" in bar.evaluate("e => getComputedStyle(e).backgroundImage")
    keep_screenshot(bar, f"tabs-cue-overview-{language}")

    page.goto(world.round_url() + "results/")
    results = page.get_by_test_id("tab-results")
    expect(results).to_have_attribute("aria-current", "page")
    box, frame = results.bounding_box(), bar.bounding_box()
    assert (
        box["x"] >= frame["x"] - 0.5
        and box["x"] + box["width"] <= frame["x"] + frame["width"] + 0.5
    )
    assert cue(bar) in ("none", "normal"), "scrolled to the end: no cue left"
    keep_screenshot(bar, f"tabs-cue-results-{language}")
    if scroll > client:  # from the start of the bar, Results is one scroll away
        bar.evaluate("e => { e.scrollLeft = 0; }")
        expect(bar).to_have_class("round-tabs more-right")
    # Through the one tab-clicking helper (a click that starts no navigation is made once
    # more: this test lost one in two shuffled whole runs, see ``open_tab``).
    open_tab(page, "overview")
    open_tab(page, "results")  # reachable: Playwright scrolls it in view
    expect(page.get_by_test_id("tab-results")).to_have_attribute("aria-current", "page")
