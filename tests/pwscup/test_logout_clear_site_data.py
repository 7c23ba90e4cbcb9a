"""Log-out tells the browser to forget the pages it kept of the site (``Clear-Site-Data:
"cache", "storage"``, pwscup/accounts/views.py): on a classroom's shared computer the next
team's Back button must not show the last team's pages. Cookies are left to Django (the
session's is deleted), so the next log-in's form, CSRF checks on, still posts. The browser's
side is tested in Chromium: tests/e2e/test_logout_clears_browser.py."""

import re
import secrets

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from pwscup.accounts.services import user_create

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-password-1"


def _csrf_token(response) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.content.decode())[1]


def _log_in(browser: Client, username: str) -> None:
    """Log in through the login page's form, as a browser does (CSRF checks on)."""
    form = browser.get(reverse("login"))
    answer = browser.post(
        reverse("login"),
        {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": _csrf_token(form)},
    )
    assert answer.status_code == 302, answer.content.decode()[:500]


@pytest.fixture
def browser() -> Client:
    # The log-in throttles count in the cache, shared by the whole test run: an address of
    # this test's own.
    address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
    return Client(enforce_csrf_checks=True, REMOTE_ADDR=address)


def test_log_out_clears_what_the_browser_kept_and_the_next_log_in_works(browser):
    for username in ("team-a", "team-b"):
        user_create(username=username, password=PASSWORD, email=f"{username}@ex.org")
    _log_in(browser, "team-a")
    home = browser.get("/")
    out = browser.post(reverse("logout"), {"csrfmiddlewaretoken": _csrf_token(home)})
    assert out.status_code == 302
    assert out["Clear-Site-Data"] == '"cache", "storage"'
    # The session ended and its cookie is deleted by Django itself.
    assert out.cookies[settings.SESSION_COOKIE_NAME].value == ""
    assert browser.get(reverse("profile")).status_code == 302
    # The CSRF cookie was kept: the next team's log-in form posts, and the log-in rotates it.
    csrf_before = browser.cookies[settings.CSRF_COOKIE_NAME].value
    _log_in(browser, "team-b")
    assert browser.cookies[settings.CSRF_COOKIE_NAME].value != csrf_before
    assert 'data-testid="who">team-b<' in browser.get("/").content.decode()


def test_a_log_out_without_a_session_clears_too(browser):
    home = browser.get("/")
    out = browser.post(reverse("logout"), {"csrfmiddlewaretoken": _csrf_token(home)})
    assert out.status_code == 302
    assert out["Clear-Site-Data"] == '"cache", "storage"'
