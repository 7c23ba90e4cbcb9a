"""The API documentation (Swagger UI from the sidecar's static files) and the profile page's
tokens in Chromium, under the site's Content-Security-Policy (the ``web`` fixture fails a test
on any blocked script or style)."""

import re

import pytest

from tests.e2e.helpers import PASSWORD, log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_api_docs_render_from_this_site_only(web, live_server, screenshot):
    requested = []
    web.on("request", lambda request: requested.append(request.url))
    web.goto("/api/docs/")
    web.locator(".swagger-ui .opblock-summary-path").first.wait_for()
    paths = web.locator(".swagger-ui .opblock-summary-path").all_inner_texts()
    assert "/api/v1/me/" in [p.replace("\u200b", "") for p in paths]
    assert "PWSCup platform API" in web.locator(".swagger-ui .title").inner_text()
    # Everything came from the live server (no CDN), the schema included.
    assert requested and all(url.startswith(live_server.url) for url in requested), requested
    assert any("/api/schema/" in url for url in requested)
    html = web.content()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    screenshot(web, "api-docs")
    # In Japanese (``?lang=ja``, as for a reader whose language is Japanese): the page and
    # the schema it loads.
    web.goto("/api/docs/?lang=ja")
    web.locator(".swagger-ui .opblock-summary-description").first.wait_for()
    assert web.locator("html").get_attribute("lang") == "ja"
    assert "PWSCup プラットフォーム API" in web.locator(".swagger-ui .title").inner_text()
    summaries = web.locator(".swagger-ui .opblock-summary-description").all_inner_texts()
    assert "呼び出し元のユーザー" in summaries


def test_a_token_is_made_shown_once_and_revoked_on_the_profile(
    web, live_server, django_user_model, screenshot
):
    django_user_model.objects.create_user("tokenuser", password=PASSWORD)
    log_in(web, "tokenuser")
    web.goto("/accounts/profile/")
    web.get_by_test_id("token-name").fill("laptop")
    with web.expect_navigation():
        web.get_by_role("button", name="Create a token").click()
    secret = web.get_by_test_id("new-token").inner_text()
    assert secret.startswith("pws_")
    screenshot(web, "api-token-created")
    # The long token wraps on a phone (390 px): nothing scrolls sideways but the commands.
    web.set_viewport_size({"width": 390, "height": 800})
    assert web.evaluate("document.documentElement.scrollWidth") <= 390
    web.set_viewport_size({"width": 1366, "height": 900})
    # The API answers the token (a request outside the browser's session).
    answer = web.context.request.get(
        f"{live_server.url}/api/v1/me/", headers={"Authorization": f"Bearer {secret}"}
    )
    assert answer.json()["username"] == "tokenuser"
    web.goto("/accounts/profile/")
    tokens = web.get_by_test_id("token-list")
    assert "laptop" in tokens.inner_text() and secret not in web.content()
    # On a phone each token is a block: its dates and its Revoke button on the screen (five
    # columns lay off it), still a table for a screen reader.
    web.set_viewport_size({"width": 390, "height": 800})
    assert tokens.evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")
    for cell in tokens.locator("tbody td").all():
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert "- row " in tokens.aria_snapshot() and "- cell " in tokens.aria_snapshot()
    with web.expect_navigation():
        tokens.get_by_role("button", name="Revoke").click()
    assert web.get_by_test_id("token-list").count() == 0
    refused = web.context.request.get(
        f"{live_server.url}/api/v1/me/", headers={"Authorization": f"Bearer {secret}"}
    )
    assert refused.status == 401
