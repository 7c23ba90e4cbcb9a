"""Who may create competitions, in the browser at phone width: a superuser's page fits the
screen in Japanese (an account's long e-mail address wraps, its Withdraw button stays in
view), and a staff organizer is refused in the site's layout with a reason saying whom to ask.
"""

import pytest
from playwright.sync_api import expect

from pwscup.accounts.services import user_create
from pwscup.console.services import competition_creator_grant
from tests.e2e.helpers import PASSWORD, log_in, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, check_page

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_creators_page_at_phone_width(web, e2e_world, screenshot):
    page, world = web, e2e_world
    root = user_create(username="root", password=PASSWORD, email="root@example.org")
    root.is_staff = root.is_superuser = True
    root.save(update_fields=["is_staff", "is_superuser"])
    creator = user_create(
        username="creator", password=PASSWORD, email="long.address.of.a.creator@example.org"
    )
    competition_creator_grant(user=creator)
    world.organizer.is_staff = True
    world.organizer.save(update_fields=["is_staff"])
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})

    log_in(page, "root")
    switch_language(page, "ja")
    page.goto("/console/creators/")
    withdraw = page.get_by_test_id("creator-creator").get_by_role("button")
    expect(withdraw).to_have_text("取り消す")
    box = withdraw.bounding_box()
    assert box["x"] + box["width"] <= WIDTH, box
    expect(page.get_by_test_id("creator-form")).to_contain_text("user:ユーザー名")
    check_page(page, screenshot, "creators-ja-390")

    page.context.clear_cookies()
    log_in(page, "organizer")
    switch_language(page, "ja")
    response = page.goto("/console/creators/")
    assert response.status == 403
    refusal = page.get_by_test_id("error-403")
    expect(refusal).to_contain_text("このサイトのスーパーユーザーだけです")
    expect(refusal).to_contain_text("サイトの管理者にご依頼ください")
    check_page(page, screenshot, "creators-refused-ja-390")
