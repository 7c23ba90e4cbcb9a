"""Participants on their own: sign up, create a team, a second participant joins it by
the invitation link, they upload and both see the notification in the header's bell."""

import re

import pytest
from playwright.sync_api import expect

from pwscup.accounts.models import Team
from pwscup.accounts.services import user_create
from pwscup.pwscup2015.models import AnonymizationSubmission
from tests.e2e.helpers import PASSWORD, SCORING_TIMEOUT, log_in, open_tab, switch_language
from tests.support import noisy_copy

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def sign_up(page, username: str) -> None:
    page.get_by_test_id("signup").click()
    form = page.get_by_test_id("signup-form")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=email]").fill(f"{username}@example.org")
    form.locator("input[name=password1]").fill("a-long-password-1")
    form.locator("input[name=password2]").fill("a-long-password-1")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    expect(page.get_by_test_id("who")).to_have_text(username)


def test_sign_up_create_a_team_invite_upload_and_see_the_notification(
    web, chromium, live_server, e2e_world, celery_worker_process, screenshot, tmp_path
):
    world, captain = e2e_world, web
    competition_url = f"/c/{world.competition.slug}/"

    # The captain signs up from the home page and creates a team on the competition page.
    captain.goto("/")
    sign_up(captain, "hanako")
    captain.goto(competition_url)
    captain.get_by_test_id("team-name").fill("Night Owls")
    with captain.expect_navigation():
        captain.get_by_test_id("team-create").click()
    expect(captain.get_by_test_id("message")).to_contain_text(
        "Team Night Owls is created and you are its captain"
    )
    expect(captain.get_by_test_id("member-hanako")).to_contain_text("Captain")
    join_url = captain.get_by_test_id("join-url").input_value()
    team = Team.objects.get(name="Night Owls")
    assert join_url == f"{live_server.url}{competition_url}join/{team.invitation_code}/"
    assert team.slug == "night-owls"

    # A second participant follows the link, signs up from there, comes back and joins.
    context = chromium.new_context(base_url=live_server.url, locale="ja-JP", viewport=PHONE)
    mate = context.new_page()
    try:
        mate.goto(join_url)
        expect(mate.get_by_test_id("join")).to_contain_text("Night Owls")
        with mate.expect_navigation():
            mate.get_by_test_id("join").get_by_role("link").nth(1).click()
        form = mate.get_by_test_id("signup-form")
        form.locator("input[name=username]").fill("taro")
        form.locator("input[name=email]").fill("taro@example.org")
        form.locator("input[name=password1]").fill("a-long-password-2")
        form.locator("input[name=password2]").fill("a-long-password-2")
        with mate.expect_navigation():
            form.locator("button[type=submit]").click()
        assert mate.url == join_url
        with mate.expect_navigation():
            mate.get_by_test_id("join-confirm").click()
        expect(mate.get_by_test_id("message")).to_have_text("チーム Night Owls に参加しました。")
        expect(mate.get_by_test_id("member-taro")).to_contain_text("メンバー")
        screenshot(mate, "team-ja-phone")

        # Taro uploads an anonymization; once scored, both see it in the bell.
        mate.goto(world.round_url())
        open_tab(mate, "submit")
        upload_file = tmp_path / "night-owls_anonymized.csv"
        upload_file.write_bytes(noisy_copy(world.original, seed=4, delete=2))
        mate.set_input_files("[data-testid=upload-form] input[type=file]", str(upload_file))
        with mate.expect_navigation():
            mate.get_by_test_id("upload-submit").click()
        submission = AnonymizationSubmission.objects.get(team=team)
        row = mate.get_by_test_id(f"submission-{submission.pk}")
        expect(row).to_have_attribute("data-status", "finished", timeout=SCORING_TIMEOUT * 1000)
        mate.reload()
        expect(mate.get_by_test_id("unread")).to_have_text("1")
        with mate.expect_navigation():
            mate.get_by_test_id("bell").click()
        expect(mate.get_by_test_id("notification")).to_have_text(
            re.compile(r"Round へのアップロード night-owls_anonymized\.csv の採点が完了しました。")
        )
        screenshot(mate, "notifications-ja-phone")
        with mate.expect_navigation():
            mate.get_by_test_id("notification").get_by_role("button").click()
        assert mate.url.endswith(world.round_url())
        expect(mate.get_by_test_id("unread")).to_have_count(0)
    finally:
        context.close()

    captain.goto("/")
    expect(captain.get_by_test_id("unread")).to_have_text("1")
    captain.get_by_test_id("bell").click()
    expect(captain.get_by_test_id("notification")).to_contain_text(
        "Your upload night-owls_anonymized.csv in Round was scored."
    )
    # The captain's profile lists the team; the preferences turn e-mails on.
    captain.get_by_test_id("who").click()
    expect(captain.get_by_test_id("my-teams")).to_contain_text("Night Owls")
    captain.get_by_test_id("email-enabled").check()
    with captain.expect_navigation():
        captain.get_by_test_id("preferences").get_by_role("button").click()
    expect(captain.get_by_test_id("email-enabled")).to_be_checked()
    screenshot(captain, "profile-en")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_account_pages_fit_a_phone(web, e2e_world, screenshot, language):
    """Sign-up, log-in, password reset and the competition's "take part" box at 390 px."""
    page = web
    page.set_viewport_size(PHONE)
    page.goto("/")
    if language != "en":
        switch_language(page, language)
    for name, url in (
        ("signup", "/accounts/signup/"),
        ("login", "/accounts/login/"),
        ("password-reset", "/accounts/password/reset/"),
        ("competition", f"/c/{e2e_world.competition.slug}/"),
    ):
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{name} is {width}px wide in {language}"
        screenshot(page, f"{name}-{language}-phone")

    # Logged in, in no team yet: the "take part" box with its two forms.
    user_create(username="newcomer", password=PASSWORD)
    log_in(page, "newcomer")
    page.goto(f"/c/{e2e_world.competition.slug}/")
    expect(page.get_by_test_id("team-create")).to_be_visible()
    expect(page.get_by_test_id("team-join")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"take part is {width}px wide in {language}"
    screenshot(page, f"take-part-{language}-phone")
