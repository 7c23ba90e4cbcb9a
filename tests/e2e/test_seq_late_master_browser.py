"""A team that joins a sequential round with per-team masters after the draw, and the
console's confirmed "redraw the masters", in Chromium: English and Japanese at 390 px
(a phone), under the strict CSP."""

import pytest
from django.urls import reverse

from pwscup.accounts.services import team_create, user_create
from tests.e2e.helpers import PASSWORD, keep_screenshot, log_in, open_tab
from tests.pwscup.seq_web_world import fixture_config, seq_world
from tests.pwscup.test_seq_web_late_masters import pool_csv

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-US", "ja": "ja-JP"}


def pool_world(slug: str, *, persons: int, turnover: float):
    config = {
        **fixture_config("zhang_config.json"),
        "n_releases": 3,
        "per_team": {"pool": "pool.csv", "size": 40, "turnover": turnover, "seed": 7},
    }
    world = seq_world(
        slug=slug, config=config, master=None, pool=pool_csv(persons), password=PASSWORD
    )
    late = user_create(username=f"{slug}-late", password=PASSWORD)
    team_create(competition=world.competition, name="Team Late", captain=late)
    return world


def fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_late_team_data_tab_and_redraw_confirmation_on_a_phone(chromium, live_server, language):
    served = pool_world(f"late{language}", persons=400, turnover=0.25)
    short = pool_world(f"short{language}", persons=130, turnover=0)
    context = chromium.new_context(
        base_url=live_server.url, locale=LOCALES[language], viewport=PHONE
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    blocked = []
    page.on(
        "console",
        lambda message: "Content Security Policy" in message.text and blocked.append(message.text),
    )
    try:
        log_in(page, f"late{language}-late")
        page.goto(f"/c/{served.competition.slug}/{served.round.slug}/")
        open_tab(page, "data")
        assert page.get_by_test_id("download-master").is_visible()
        assert page.get_by_test_id("no-master").count() == 0
        assert fits(page)
        keep_screenshot(page, f"seq-data-served-{language}", full_page=True)

        log_in(page, f"short{language}-late")
        page.goto(f"/c/{short.competition.slug}/{short.round.slug}/")
        open_tab(page, "data")
        notice = page.get_by_test_id("no-master").inner_text()
        expected = {
            "en": "the pool has too few persons left to draw a master table for it",
            "ja": "プールに残っている人数が足りず",
        }[language]
        assert expected in notice
        assert fits(page)
        keep_screenshot(page, f"seq-data-short-{language}", full_page=True)

        log_in(page, f"late{language}-organizer")
        page.goto(reverse("console:round", args=[served.competition.slug, served.round.slug]))
        with page.expect_navigation():
            page.get_by_test_id("seq-draw").click()
        form = page.get_by_test_id("confirm-redraw")
        details = form.get_by_test_id("confirm-detail").all_inner_texts()
        assert len(details) == 3
        assert {"en": "Drawn again: ", "ja": "抽選し直すチーム: "}[language] in details[0]
        # Nobody uploaded anything: every drawn master, the late team's too, is drawn again.
        assert "Team A" in details[0] and "Team Late" in details[0]
        assert fits(page)
        keep_screenshot(page, f"seq-confirm-{language}", full_page=True)
    finally:
        context.close()
    assert blocked == [], blocked
