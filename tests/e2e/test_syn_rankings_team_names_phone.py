"""The synthetic round's rankings (Results tab) at 390 px, found walking the demo: the reader's
own row read 「Team / A (あ / なた)」, "(あなた)" broken inside the word. The team's cell keeps
its words whole (``.team-name``, as the standings' and the 2015 round's team cells do), in
English and Japanese, at 390 and 1280 px."""

import pytest
from django.utils import translation

from tests.e2e.helpers import PASSWORD, log_in_by_cookie, switch_language
from tests.e2e.test_standings_team_names_phone import BROKEN_WORDS
from tests.pwscup import syn_world as syn

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_rankings_keep_the_reader_s_team_cell_words_whole(web, live_server, screenshot):
    world = syn.syn_world(slug="synnames", letters="ab", password=PASSWORD)
    for seed, letter in enumerate("ab"):
        syn.release(world, letter, syn.baseline_release(world, letter, seed=seed))
    targets = syn.freeze(world)
    syn.open_attack_phase(world)
    syn.attack(world, "a", targets["teamB"], syn.dcr_answer_bytes(world, targets["teamB"]))
    log_in_by_cookie(web, live_server.url, world.users["a"].username)
    address = f"/c/synnames/{world.round.slug}/results/"
    for language in ("en", "ja"):
        web.goto(address)
        switch_language(web, language)
        with translation.override(language):
            you = f"({translation.gettext('you')})"
        for width in (390, 1280):
            web.set_viewport_size({"width": width, "height": 900})
            web.goto(address)
            for ranking in ("release-rank-teamA", "attack-rank-teamA"):
                cell = web.get_by_test_id(ranking).locator("td").nth(1)
                assert you in cell.inner_text(), (ranking, language)
                assert cell.evaluate(BROKEN_WORDS) == [], (ranking, language, width)
            assert web.evaluate("document.documentElement.scrollWidth") <= width
            screenshot(web, f"syn-rankings-team-names-{language}-{width}")
