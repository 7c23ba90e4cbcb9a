"""Accounts against hostile or careless input: password rules, look-alike user names, e-mail
addresses not disclosed at sign-up, sign-up and password-reset throttles, sessions that end
when their rows do, and a password reset that ends the other sessions and the API tokens."""

import re
import secrets

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.services import user_create
from pwscup.api.services import api_token_create

pytestmark = pytest.mark.django_db

User = get_user_model()
GOOD_PASSWORD = "a-long-password-1"


def _address() -> str:
    # The throttles count in the cache, shared by the whole test run: one address per test.
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def _signup(client, *, username="newbie", email="newbie@ex.org", password=GOOD_PASSWORD, **extra):
    return client.post(
        reverse("signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
        **extra,
    )


def _field_error(page: str, field: str) -> str:
    found = re.search(rf'data-testid="error-{field}">(.*?)</div>', page, re.S)
    return found.group(1) if found else ""


# --- Password rules ---------------------------------------------------------------


@pytest.mark.parametrize(
    "username, password, english, japanese",
    [
        ("newbie", "password", "This password is too common.", "このパスワードは一般的すぎます。"),
        (
            "newbie",
            "12345678",
            "This password is entirely numeric.",
            "このパスワードは数字しか使われていません。",
        ),
        (
            "newbie",
            "short-pw",
            "This password is too short. It must contain at least 10 characters.",
            "このパスワードは短すぎます。最低 10 文字以上必要です。",
        ),
        (
            "tanaka-hanako",
            "tanaka-hanako",
            "The password is too similar to the username.",
            "このパスワードは ユーザー名 と似すぎています。",
        ),
    ],
)
def test_weak_passwords_are_refused_at_sign_up_next_to_the_field(
    client, username, password, english, japanese
):
    page = _signup(client, username=username, password=password).content.decode()
    assert english in _field_error(page, "password2")
    client.cookies["django_language"] = "ja"
    page = _signup(client, username=username, password=password).content.decode()
    assert japanese in _field_error(page, "password2")
    assert not User.objects.filter(username=username).exists()


def test_the_password_change_and_reset_forms_apply_the_same_rules(client):
    user = user_create(username="forgetful", password="pw-long-enough", email="f@ex.org")
    client.force_login(user)
    page = client.post(
        reverse("password_change"),
        {
            "old_password": "pw-long-enough",
            "new_password1": "12345678",
            "new_password2": "12345678",
        },
    ).content.decode()
    assert "This password is entirely numeric." in page
    client.logout()
    client.post(reverse("password_reset"), {"email": "f@ex.org"})
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    form_page = client.get(link.group(1), follow=True)
    page = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": "password", "new_password2": "password"}
    ).content.decode()
    assert "This password is too common." in page
    user.refresh_from_db()
    assert user.check_password("pw-long-enough")


# --- User names -------------------------------------------------------------------


def test_a_look_alike_user_name_is_refused(client):
    user_create(username="organizer", password="pw-long-enough")
    page = _signup(client, username="\u043erganizer").content.decode()  # Cyrillic о
    assert "Enter a valid username" in _field_error(page, "username")
    assert User.objects.count() == 1


def test_a_user_name_differing_only_in_case_is_refused(client):
    user_create(username="organizer", password="pw-long-enough")
    page = _signup(client, username="Organizer").content.decode()
    assert "A user with that username already exists." in _field_error(page, "username")
    assert User.objects.count() == 1


# --- E-mail addresses are not disclosed -------------------------------------------


def test_sign_up_with_a_registered_e_mail_answers_as_for_a_new_one_and_tells_the_owner(client):
    user_create(username="owner", password="pw-long-enough", email="shared@ex.org")
    fresh = _signup(client, username="first", email="fresh@ex.org")
    assert fresh.status_code == 302
    assert mail.outbox == []  # a new address gets no e-mail
    client.logout()
    taken = _signup(client, username="second", email="SHARED@ex.org")
    assert (taken.status_code, taken["Location"]) == (fresh.status_code, fresh["Location"])
    assert User.objects.filter(username="second").exists()
    assert len(mail.outbox) == 1
    notice = mail.outbox[0]
    assert notice.to == ["SHARED@ex.org"]
    assert "second" in notice.body and "owner" in notice.body
    assert "http://testserver/accounts/password/reset/" in notice.body


# --- Throttles ----------------------------------------------------------------------


def test_sign_ups_are_throttled_per_address(client, settings):
    settings.PWSCUP_SIGNUP_RATE = "3/h"
    address = _address()
    # A form sent back with an error does not count.
    assert _signup(client, password="password", REMOTE_ADDR=address).status_code == 200
    for n in range(3):
        response = _signup(client, username=f"bot{n}", email=f"bot{n}@ex.org", REMOTE_ADDR=address)
        assert response.status_code == 302
        client.logout()
    refused = _signup(client, username="bot3", email="bot3@ex.org", REMOTE_ADDR=address)
    assert refused.status_code == 429
    assert "Too many accounts were created from your network address" in refused.content.decode()
    assert not User.objects.filter(username="bot3").exists()
    # Another address is not affected.
    assert _signup(client, username="bot4", email="bot4@ex.org").status_code == 302


def test_password_reset_e_mails_are_throttled_per_address(client, settings):
    settings.PWSCUP_PASSWORD_RESET_RATE = "2/h"
    user_create(username="forgetful", password="pw-long-enough", email="f@ex.org")
    address = _address()
    for _ in range(2):
        response = client.post(
            reverse("password_reset"), {"email": "f@ex.org"}, REMOTE_ADDR=address
        )
        assert response.status_code == 302
    refused = client.post(reverse("password_reset"), {"email": "f@ex.org"}, REMOTE_ADDR=address)
    assert refused.status_code == 429
    assert "Too many password-reset e-mails" in refused.content.decode()
    assert len(mail.outbox) == 2


# --- Sessions -------------------------------------------------------------------------


def test_deleting_the_session_rows_logs_the_user_out(client):
    user = user_create(username="alice", password="pw-long-enough")
    client.force_login(user)
    assert client.get(reverse("profile")).status_code == 200
    Session.objects.all().delete()
    assert client.get(reverse("profile")).status_code == 302


def test_clearsessions_logs_out_expired_sessions(client):
    user = user_create(username="alice", password="pw-long-enough")
    client.force_login(user)
    assert client.get(reverse("profile")).status_code == 200
    Session.objects.update(expire_date=timezone.now() - timezone.timedelta(seconds=1))
    call_command("clearsessions")
    assert not Session.objects.exists()
    assert client.get(reverse("profile")).status_code == 302


# --- A new password ends the other sessions and the API tokens --------------------------


def _bearer(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def test_a_password_reset_ends_the_other_sessions_and_the_api_tokens(client):
    user = user_create(username="alice", password="pw-long-enough", email="alice@ex.org")
    elsewhere = Client()
    elsewhere.force_login(user)
    secret = api_token_create(user=user, name="laptop").secret
    assert client.get(reverse("api:me"), **_bearer(secret)).status_code == 200
    assert elsewhere.get(reverse("profile")).status_code == 200

    client.post(reverse("password_reset"), {"email": "alice@ex.org"})
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    form_page = client.get(link.group(1), follow=True)
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "after-the-reset", "new_password2": "after-the-reset"},
    )
    assert done["Location"] == reverse("password_reset_complete")

    assert elsewhere.get(reverse("profile")).status_code == 302  # logged out
    assert client.get(reverse("api:me"), **_bearer(secret)).status_code == 401


def test_a_password_change_keeps_this_session_and_ends_the_others(client):
    user = user_create(username="alice", password="pw-long-enough")
    elsewhere = Client()
    elsewhere.force_login(user)
    secret = api_token_create(user=user, name="laptop").secret
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "pw-long-enough",
            "new_password1": "brand-new-secret",
            "new_password2": "brand-new-secret",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    assert client.get(reverse("profile")).status_code == 200
    assert elsewhere.get(reverse("profile")).status_code == 302
    assert client.get(reverse("api:me"), **_bearer(secret)).status_code == 401
