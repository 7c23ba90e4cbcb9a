"""Login throttling (django-axes): repeated failures lock a user name out, and many failures
over all user names lock an address out (password spraying), in ja and en."""

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
    assert settings.PWSCUP_LOGIN_FAILURE_LIMIT == 5  # the documented default
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


def test_password_spraying_from_one_address_is_locked_out(client, settings):
    settings.PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS = 30
    users = [
        get_user_model().objects.create_user(username=f"student{n}", password=PASSWORD)
        for n in range(30)
    ]
    statuses = [
        _post(client, guess, username=user.username, REMOTE_ADDR="10.0.0.9").status_code
        for guess in ("password1", "123456789", "qwertyuiop", "letmein123")
        for user in users
    ]
    # No user name failed 5 times, yet the address is locked at its 30th failure.
    assert statuses[:29] == [200] * 29
    assert statuses[29:] == [429] * 91
    locked = _post(client, PASSWORD, username="student0", REMOTE_ADDR="10.0.0.9")
    assert locked.status_code == 429
    assert "Too many failed log-ins from your network address" in locked.content.decode()
    assert _post(client, PASSWORD, username="student0", REMOTE_ADDR="10.0.0.10").status_code == 302


def test_the_address_limit_is_larger_by_default_so_a_class_behind_one_nat_can_mistype(
    client, settings
):
    assert settings.PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS == 50
    for n in range(40):
        get_user_model().objects.create_user(username=f"student{n}", password=PASSWORD)
    for n in range(40):  # every student of the class mistypes once, then logs in
        assert _post(client, "typo", username=f"student{n}").status_code == 200
        assert _post(client, PASSWORD, username=f"student{n}").status_code == 302
        client.logout()


def test_a_good_log_in_does_not_forgive_the_addresss_other_failures(client, settings, member):
    settings.PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS = 10
    for n in range(9):
        assert _post(client, "guess", username=f"someone{n}").status_code == 200
    # The sprayer's own account logs in: that must not reset the count of the address.
    assert _post(client, PASSWORD).status_code == 302
    client.logout()
    assert _post(client, "guess", username="someone9").status_code == 429
