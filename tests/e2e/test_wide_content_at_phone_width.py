"""What overflowed in a new user's screenshots, measured in Chromium: in a 2-target round the
attack matrix and its colour legend stay inside a 390 px screen, so does the final ranking
(their tables scroll in their own frame), and the console's round table keeps 「未公開」 on
one line and scrolls instead — in English and Japanese."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.leaderboards.selectors import attack_matrix
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.submissions.models import Status
from tests.e2e.helpers import (
    log_in,
    submit_anonymization,
    switch_language,
    wait_for_builtin_attacks,
)
from tests.e2e.test_phone_width import WIDTH, escaping_elements, page_overflow
from tests.support import noisy_copy

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# How many lines the element's text takes (a text node's range has one rect per line).
LINES = """e => {
  const tops = new Set(), walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    Array.from(range.getClientRects(), (b) => tops.add(Math.round(b.top)));
  }
  return tops.size; }"""


def test_matrix_final_ranking_and_console_fit(web, e2e_world, celery_worker_process, screenshot):
    page, world = web, e2e_world
    for seed, letter in enumerate("ab", start=1):  # two targets
        done = submit_anonymization(world, letter, noisy_copy(world.original, seed=seed))
        assert done.status == Status.FINISHED, done.message
    services.round_freeze(round=world.round)
    wait_for_builtin_attacks(world)
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    assert len(attack_matrix(round=world.round).targets) == 2

    log_in(page, "organizer")
    console = reverse("console:competition", args=[world.competition.slug])
    for language in ("en", "ja"):
        if language != "en":
            switch_language(page, language)
        # The matrix is one coloured table (no heatmap: charts/heatmap.py says why): at phone
        # width the table scrolls in its own frame and the colour legend wraps.
        page.set_viewport_size({"width": WIDTH, "height": 844})
        page.goto(world.round_url() + "matrix/")
        expect(page.get_by_test_id("matrix").locator("tr[data-attacker]")).to_have_count(
            len(attack_matrix(round=world.round).attackers)
        )
        expect(page.get_by_test_id("heat-legend")).to_be_visible()
        assert escaping_elements(page) == [], language
        assert page_overflow(page) <= 0, language
        screenshot(page, f"phone-matrix-{language}")

        page.set_viewport_size({"width": WIDTH, "height": 844})
        page.goto(world.round_url() + "final/")
        expect(page.get_by_test_id("final-attack")).to_be_visible()
        assert escaping_elements(page) == [], language
        assert page_overflow(page) <= 0, language
        screenshot(page, f"phone-final-{language}")

        page.goto(console)
        results = (
            page.get_by_test_id(f"console-round-{world.round.slug}")
            .locator("xpath=ancestor::tr")
            .locator("td")
            .last
        )
        Pwscup2015Round.objects.filter(round=world.round).update(results_published=False)
        page.reload()
        expect(results).to_have_text("not published" if language == "en" else "未公開")
        assert results.evaluate(LINES) == 1, "the badge wraps"
        assert escaping_elements(page) == [], language
        assert page_overflow(page) <= 0, language
        screenshot(page, f"phone-console-{language}")
        Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
