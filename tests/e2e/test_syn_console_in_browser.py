"""The synthetic round's creation form and console panel in Chromium, as an organizer who is
not a superuser, on a laptop (1280 px) and a phone (390 px), in English and Japanese: the
two steps, an error next to its field, the round made, the panel (screenshots kept under
``PWSCUP_E2E_SCREENSHOTS``). Nothing overflows the page sideways."""

import datetime as dt

import pytest
from django.utils import timezone

from tests.e2e.helpers import PASSWORD, keep_screenshot, log_in_by_cookie
from tests.pwscup.syn_world import adult_rows

pytestmark = pytest.mark.django_db(transaction=True)

VIEWS = {
    ("en", 1280): {"locale": "en-US", "viewport": {"width": 1280, "height": 900}},
    ("ja", 390): {"locale": "ja-JP", "viewport": {"width": 390, "height": 844}},
    ("ja", 1280): {"locale": "ja-JP", "viewport": {"width": 1280, "height": 900}},
    ("en", 390): {"locale": "en-US", "viewport": {"width": 390, "height": 844}},
}


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    view = page.evaluate("window.innerWidth")
    assert width <= view + 1, f"the page is {width}px wide in a {view}px window"


@pytest.mark.parametrize("view", list(VIEWS), ids=lambda v: f"{v[0]}-{v[1]}")
def test_create_and_panel_in_the_browser(chromium, live_server, screenshot, tmp_path, view):
    from pwscup.accounts.services import (
        membership_add,
        organizer_grant,
        team_create,
        user_create,
    )
    from pwscup.competitions.services import competition_create

    lang, width = view
    organizer = user_create(username="syn-e2e-org", password=PASSWORD)
    competition = competition_create(name="Syn e2e", slug="syne2e")
    organizer_grant(user=organizer, competition=competition)
    for letter in "ab":
        team = team_create(competition=competition, name=f"Team {letter}", slug=f"team{letter}")
        membership_add(team=team, user=user_create(username=f"syn-e2e-{letter}", password="pw"))
    table = tmp_path / "adult.csv"
    table.write_bytes(adult_rows(3000))

    context = chromium.new_context(base_url=live_server.url, **VIEWS[view])
    page = context.new_page()
    try:
        # The forms and the panel are looked at, not the log-in form (its own journeys
        # fill it in): a session cookie saves its page load and post.
        log_in_by_cookie(page, live_server.url, "syn-e2e-org")
        page.goto("/console/syne2e/synthetic/new/")
        no_sideways_scroll(page)
        screenshot(page, f"syn-console-1-{lang}-{width}")
        page.set_input_files("input[name=original]", str(table))
        with page.expect_navigation():
            page.get_by_test_id("syn-upload-submit").click()
        form = page.get_by_test_id("syn-create-settings")
        assert form.is_visible()
        assert page.locator("input[name=role_0][value=numeric]").is_checked()
        assert page.locator("select[name=label]").input_value() == "income"
        no_sideways_scroll(page)
        screenshot(page, f"syn-console-2-{lang}-{width}")
        page.fill("input[name=name]", "Synthetic")
        page.fill("input[name=slug]", "synth")
        for name, value in (("n_holdout", "500"), ("n_train", "300"), ("n_aux", "300")):
            page.fill(f"input[name={name}]", value)
        page.fill("input[name=n_challenge]", "82")
        with page.expect_navigation():
            page.get_by_test_id("syn-create-submit").click()
        error = page.locator('[data-field="n_challenge"] .errorlist')
        assert error.is_visible() and "82" in error.inner_text()
        screenshot(page, f"syn-console-2-error-{lang}-{width}")
        roles = page.get_by_test_id("syn-roles")
        keep_screenshot(roles, f"syn-console-roles-{lang}-{width}")
        page.fill("input[name=n_challenge]", "80")
        start = timezone.localtime(timezone.now(), dt.UTC).replace(tzinfo=None)
        page.select_option("select[name=timezone]", "UTC")
        page.fill(
            "input[name=release_opens_at]",
            (start - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        )
        with page.expect_navigation():
            page.get_by_test_id("syn-create-submit").click()
        panel = page.get_by_test_id("syn-panel")
        assert panel.is_visible(), page.content()[:2000]
        assert page.get_by_test_id("syn-teams-drawn").inner_text() == "2"
        no_sideways_scroll(page)
        screenshot(page, f"syn-console-panel-{lang}-{width}")
    finally:
        context.close()
