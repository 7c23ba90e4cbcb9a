"""Personal API tokens: made on the profile page and shown once, stored hashed, used as
Bearer (or Token), last-used time recorded, revoked -> 401; throttling per token, per user and
per anonymous address (429 + Retry-After); errors as {code, message} in the caller's language;
bound to the password (a new one set in any way ends them)."""

import hashlib
import importlib
import io
import re

import pytest
from django.apps import apps as django_apps
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from pwscup.api.models import ApiToken
from pwscup.api.selectors import api_tokens_of
from pwscup.api.services import api_token_create

pytestmark = pytest.mark.django_db

ME = "/api/v1/me/"


def bearer(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def create_on_profile(client, name="laptop") -> str:
    page = client.post(reverse("api_token_create"), {"name": name})
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]
    return re.search(r'data-testid="new-token">([^<]+)<', page.content.decode()).group(1)


def test_token_lifecycle_create_use_revoke(client, django_user_model):
    user = django_user_model.objects.create_user("alice", password="pw")
    client.force_login(user)
    secret = create_on_profile(client)
    token = ApiToken.objects.get(user=user)
    # Stored hashed: neither the secret nor its random part is in the row.
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in (token.digest, token.prefix) and secret.startswith(f"pws_{token.prefix}_")
    # The profile lists it by name and prefix, never the secret again.
    profile = client.get(reverse("profile")).content.decode()
    assert "laptop" in profile and f"pws_{token.prefix}_" in profile
    assert secret not in profile
    assert token.last_used_at is None

    client.logout()
    answer = client.get(ME, **bearer(secret))
    assert answer.status_code == 200
    assert answer.json()["username"] == "alice"
    assert client.get(ME, HTTP_AUTHORIZATION=f"Token {secret}").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None
    client.force_login(user)
    assert "never" not in client.get(reverse("profile")).content.decode().split("token-list")[1]

    # Revoked from the profile page: the token no longer authenticates.
    client.post(reverse("api_token_revoke", args=[token.pk]))
    client.logout()
    refused = client.get(ME, **bearer(secret))
    assert refused.status_code == 401
    assert refused["WWW-Authenticate"].startswith("Bearer")
    assert refused.json()["code"] == "authentication_failed"
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None


def test_a_token_cannot_be_revoked_by_someone_else(client, django_user_model):
    alice = django_user_model.objects.create_user("alice", password="pw")
    mallory = django_user_model.objects.create_user("mallory", password="pw")
    new = api_token_create(user=alice, name="ci")
    client.force_login(mallory)
    client.post(reverse("api_token_revoke", args=[new.token.pk]))
    client.logout()
    assert client.get(ME, **bearer(new.secret)).status_code == 200


@pytest.mark.parametrize(
    "header",
    ["Bearer pws_00000000_nope", "Bearer", "Bearer a b", "Token x", "Bearer pws_"],
)
def test_wrong_tokens_are_401(client, header, django_user_model):
    user = django_user_model.objects.create_user("alice", password="pw")
    good = api_token_create(user=user, name="ci").secret
    # The right prefix with another secret is refused too (the digest is compared).
    for value in (header, f"Bearer {good[:-2]}xx"):
        answer = client.get(ME, HTTP_AUTHORIZATION=value)
        assert answer.status_code == 401, value
        assert answer.json()["code"] == "authentication_failed"


def test_a_deactivated_users_token_stops_working(client, django_user_model):
    user = django_user_model.objects.create_user("alice", password="pw")
    secret = api_token_create(user=user, name="ci").secret
    user.is_active = False
    user.save()
    assert client.get(ME, **bearer(secret)).status_code == 401


def test_no_credentials_is_401_with_a_translated_message(client):
    english = client.get(ME, HTTP_ACCEPT_LANGUAGE="en")
    japanese = client.get(ME, HTTP_ACCEPT_LANGUAGE="ja")
    assert english.status_code == japanese.status_code == 401
    assert english.json()["code"] == japanese.json()["code"] == "not_authenticated"
    assert english.json()["message"].isascii()
    assert not japanese.json()["message"].isascii()


def test_token_names_are_required_and_bounded(client, django_user_model):
    user = django_user_model.objects.create_user("alice", password="pw")
    client.force_login(user)
    for name in ("", "   ", "x" * 101):
        page = client.post(reverse("api_token_create"), {"name": name}, follow=True)
        assert not ApiToken.objects.filter(user=user).exists()
        assert page.redirect_chain[-1][0] == reverse("profile")


def test_session_requests_need_the_csrf_token(django_user_model, make_world):
    from django.test import Client

    world = make_world()
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["a"])
    url = reverse("api:submissions", args=[world.competition.slug, world.round.slug])
    assert client.get(url).status_code == 200  # reads need no CSRF token
    refused = client.post(url, {"note": "x"})
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert "CSRF" in refused.json()["message"]


@pytest.fixture
def low_rates(settings):
    cache.clear()
    settings.PWSCUP_API_THROTTLE_RATES = {"anon": "2/min", "user": "5/min", "token": "3/min"}
    yield settings.PWSCUP_API_THROTTLE_RATES
    cache.clear()


def test_token_rate_is_enforced_with_retry_after(client, django_user_model, low_rates):
    user = django_user_model.objects.create_user("alice", password="pw")
    secret = api_token_create(user=user, name="ci").secret
    codes = [client.get(ME, **bearer(secret)).status_code for _ in range(3)]
    assert codes == [200, 200, 200]
    throttled = client.get(ME, **bearer(secret))
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "throttled"
    assert 1 <= int(throttled["Retry-After"]) <= 60


def test_user_rate_counts_all_the_users_tokens_together(client, django_user_model, low_rates):
    user = django_user_model.objects.create_user("alice", password="pw")
    first = api_token_create(user=user, name="one").secret
    second = api_token_create(user=user, name="two").secret
    codes = [client.get(ME, **bearer(first)).status_code for _ in range(3)]
    codes += [client.get(ME, **bearer(second)).status_code for _ in range(3)]
    assert codes == [200] * 5 + [429]
    # Another user is counted apart.
    other = django_user_model.objects.create_user("bob", password="pw")
    assert (
        client.get(ME, **bearer(api_token_create(user=other, name="x").secret)).status_code == 200
    )


def test_anonymous_rate(client, low_rates):
    codes = [client.get("/api/v1/competitions/").status_code for _ in range(3)]
    assert codes == [200, 200, 429]


def test_only_superusers_see_tokens_in_the_admin_and_can_revoke_them(client, django_user_model):
    owner = django_user_model.objects.create_user("alice", password="pw")
    new = api_token_create(user=owner, name="leaked")
    staff = django_user_model.objects.create_user("staff", password="pw", is_staff=True)
    client.force_login(staff)
    assert client.get("/admin/api/apitoken/").status_code == 403
    root = django_user_model.objects.create_superuser("root", password="pw")
    client.force_login(root)
    listing = client.get("/admin/api/apitoken/")
    assert listing.status_code == 200 and "leaked" in listing.content.decode()
    assert new.token.digest not in listing.content.decode()
    client.post(
        "/admin/api/apitoken/",
        {"action": "revoke", "_selected_action": [new.token.pk]},
    )
    client.logout()
    assert client.get(ME, **bearer(new.secret)).status_code == 401


# --- Tokens are bound to the password ------------------------------------------------


def _password_by_admin(client, django_user_model, user, password):
    root = django_user_model.objects.create_superuser("root", password="pw")
    client.force_login(root)
    answer = client.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"password1": password, "password2": password, "usable_password": "true"},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    client.logout()


def _password_by_changepassword(client, django_user_model, user, password, monkeypatch):
    monkeypatch.setattr("getpass.getpass", lambda prompt="": password)
    call_command("changepassword", user.username, stdout=io.StringIO())


def _password_by_set_password(client, django_user_model, user, password):
    user.set_password(password)
    user.save()


@pytest.mark.parametrize(
    "change", ["admin", "changepassword", "set_password"], ids=["admin", "command", "model"]
)
def test_a_password_changed_in_any_way_ends_the_tokens(
    client, django_user_model, monkeypatch, settings, change
):
    user = django_user_model.objects.create_user("alice", password="first-password-1")
    old = api_token_create(user=user, name="laptop")
    # Saving the user without a new password, or rotating the secret key (the old one kept
    # in SECRET_KEY_FALLBACKS), keeps the token.
    user.first_name = "Alice"
    user.save()
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-" + "x" * 40
    assert client.get(ME, **bearer(old.secret)).status_code == 200

    if change == "admin":
        _password_by_admin(client, django_user_model, user, "second-password-2")
    elif change == "changepassword":
        _password_by_changepassword(
            client, django_user_model, user, "second-password-2", monkeypatch
        )
    else:
        _password_by_set_password(client, django_user_model, user, "second-password-2")
    user.refresh_from_db()
    assert user.check_password("second-password-2")

    refused = client.get(ME, **bearer(old.secret))
    assert refused.status_code == 401
    assert refused.json()["message"] == "Invalid or revoked API token."
    # It leaves the profile's list and no longer counts towards the limit of live tokens.
    assert list(api_tokens_of(user=user)) == []
    # A token made under the new password works.
    new = api_token_create(user=user, name="laptop")
    assert client.get(ME, **bearer(new.secret)).status_code == 200


def test_the_migration_binds_existing_tokens_to_the_current_password(client, django_user_model):
    user = django_user_model.objects.create_user("alice", password="first-password-1")
    token = api_token_create(user=user, name="laptop")
    ApiToken.objects.filter(pk=token.token.pk).update(password_hash="")  # as before 0002
    assert client.get(ME, **bearer(token.secret)).status_code == 401

    migration = importlib.import_module("pwscup.api.migrations.0002_apitoken_password_hash")
    with connection.schema_editor() as editor:  # the database being migrated
        migration.bind_to_current_passwords(django_apps, editor)
    assert client.get(ME, **bearer(token.secret)).status_code == 200
    user.set_password("second-password-2")
    user.save()
    assert client.get(ME, **bearer(token.secret)).status_code == 401
