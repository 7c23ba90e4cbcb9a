"""Login throttling (django-axes): repeated failures lock a user name out, in ja and en."""

import pytest
from django.contrib.auth import authenticate, get_user_model

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
PASSWORD = "right-password-1"


@pytest.fixture
def member():
    return get_user_model().objects.create_user(username="alice", password=PASSWORD)


def _post(client, password, *, username="alice", **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


def test_the_sixth_attempt_is_locked_out_even_with_the_right_password(client, settings, member):
    assert settings.AXES_FAILURE_LIMIT == 5  # the documented default
    for _ in range(4):
        response = _post(client, "wrong")
        assert response.status_code == 200
        assert "Your user name and password did not match" in response.content.decode()
    fifth = _post(client, "wrong")
    assert fifth.status_code == 429
    sixth = _post(client, PASSWORD)
    assert sixth.status_code == 429
    page = sixth.content.decode()
    assert (
        "Too many failed log-ins for this user name: it is locked for 15 minutes. "
        "Try again later." in page
    )
    assert "_auth_user_id" not in client.session


def test_the_lock_out_message_is_in_japanese(client, member):
    for _ in range(5):
        _post(client, "wrong", HTTP_ACCEPT_LANGUAGE="ja")
    response = _post(client, PASSWORD, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 429
    assert (
        "ログインの失敗が多すぎるため、このユーザー名は 15 分間ロックされています。"
        "しばらくしてからもう一度お試しください。" in response.content.decode()
    )


def test_failures_below_the_limit_are_forgotten_after_a_good_login(client, member):
    for _ in range(4):
        _post(client, "wrong")
    assert _post(client, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert _post(client, "wrong").status_code == 200
    assert _post(client, PASSWORD).status_code == 302


def test_the_lock_out_is_per_address_and_user_name(client, member):
    for _ in range(5):
        _post(client, "wrong", REMOTE_ADDR="10.0.0.1")
    assert _post(client, PASSWORD, REMOTE_ADDR="10.0.0.1").status_code == 429
    # Someone else's failures do not lock alice out of her own address.
    assert _post(client, PASSWORD, REMOTE_ADDR="10.0.0.2").status_code == 302


def test_behind_the_proxy_the_forwarded_address_is_used(client, settings, member):
    settings.PWSCUP_CLIENT_IP_HEADER = "HTTP_X_REAL_IP"
    for _ in range(5):
        _post(client, "wrong", HTTP_X_REAL_IP="203.0.113.7")
    assert _post(client, PASSWORD, HTTP_X_REAL_IP="203.0.113.7").status_code == 429
    assert _post(client, PASSWORD, HTTP_X_REAL_IP="203.0.113.8").status_code == 302


def test_a_log_in_without_a_request_is_not_throttled_but_still_checks_the_password(member):
    # Management commands and the test client's login() have no address to lock out.
    assert authenticate(username="alice", password=PASSWORD) == member
    assert authenticate(username="alice", password="wrong") is None


def test_the_test_clients_login_works(client, member):
    assert client.login(username="alice", password=PASSWORD)
    assert not client.login(username="alice", password="wrong")
