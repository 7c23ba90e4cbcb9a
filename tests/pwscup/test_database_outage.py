"""PostgreSQL down costs a 503 in the reader's language, never a 500, and never tells a valid
API token that it is revoked: gunicorn runs the laptop settings on a PostgreSQL server of the
test's own, which the test stops while a user is logged in (its session cookie is sent).
And a server that accepts connections but never answers fails a page in seconds (503), not
after the system's TCP timeout.

Its server's database is first given the suite's migrated template's tables and rows
(``postgres_migrated``: a dump, a tenth of the CPU of migrating from nothing); ``migrate`` then
runs on it with these settings, as a start of the site does (in the process that seeds the
user), and finds nothing to apply.

Slow (over 20 s on its own, so its module is scheduled first): it starts a PostgreSQL server of
its own, migrates it and stops it under a live site.
"""

import socket
import time

import pytest
import requests

from tests.pwscup.outage_support import (
    django_script,
    logged_in,
    postgres_migrated,
    site_env,
    status_of,
)
from tests.pwscup.postgres import PostgresServer, server_bin
from tests.support import free_port, gunicorn_command, running

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(server_bin() is None, reason="no PostgreSQL server installed"),
]

PASSWORD = "outage-pw-123"
SEED = f"""
import json
from pwscup.accounts.services import user_create
from pwscup.api.services import api_token_create
user = user_create(username="alice", password="{PASSWORD}")
print(json.dumps({{"token": api_token_create(user=user, name="laptop").secret}}))
"""
# ``manage.py migrate``'s command with these settings, as a start of the site runs it, then
# the seed, in one process (a Django start fewer: 2 s of CPU).
MIGRATE_THEN_SEED = (
    "from django.core.management import call_command\n"
    'call_command("migrate", interactive=False, verbosity=0)\n' + SEED
)
JAPANESE = "一時的にご利用いただけません"
ENGLISH = "Temporarily unavailable"


@pytest.fixture
def own_postgres():
    server = PostgresServer().init().start()
    server.create_database()
    yield server
    server.remove()


def _gunicorn(env: dict, tmp_path, port: int):
    env = {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": "1"}
    return running(
        gunicorn_command(),
        env={**env, "GUNICORN_THREADS": "4"},
        log_path=tmp_path / "gunicorn.log",
        ready=lambda: status_of(f"http://127.0.0.1:{port}/accounts/login/") is not None,
        what="gunicorn to answer",
    )


def test_pages_and_the_api_answer_503_in_the_readers_language_while_postgresql_is_down(
    own_postgres, tmp_path
):
    env = site_env(tmp_path / "var", DATABASE_URL=own_postgres.url())
    postgres_migrated(own_postgres.url())
    secret = django_script(env, MIGRATE_THEN_SEED)["token"]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    bearer = {"Authorization": f"Bearer {secret}"}
    with _gunicorn(env, tmp_path, port):
        browser = logged_in(base, "alice", PASSWORD)
        assert "sessionid" in browser.cookies
        assert browser.get(base + "/", timeout=30).status_code == 200
        assert requests.get(base + "/api/v1/me/", headers=bearer, timeout=30).status_code == 200

        own_postgres.stop()
        seen = {}
        for language, expected, other in (("ja", JAPANESE, ENGLISH), ("en", ENGLISH, JAPANESE)):
            started = time.monotonic()
            page = browser.get(base + "/", headers={"Accept-Language": language}, timeout=30)
            seen[f"page {language}"] = time.monotonic() - started
            assert page.status_code == 503, page.text[:500]
            assert f'lang="{language}"' in page.text and expected in page.text
            assert other not in page.text
            assert page.headers["Retry-After"].isdigit()
        # The language cookie (the site's switch) wins over Accept-Language, as on every page.
        browser.cookies.set("django_language", "en")
        chosen = browser.get(base + "/", headers={"Accept-Language": "ja"}, timeout=30)
        assert chosen.status_code == 503 and ENGLISH in chosen.text
        # A form post (the session and the CSRF cookie sent) too.
        posted = browser.post(base + "/accounts/login/", {"username": "x"}, timeout=30)
        assert posted.status_code in (403, 503)  # no CSRF token: refused before any query

        for language, expected in (("ja", JAPANESE), ("en", None)):
            started = time.monotonic()
            answer = requests.get(
                base + "/api/v1/me/",
                headers={**bearer, "Accept-Language": language},
                timeout=30,
            )
            seen[f"api {language}"] = time.monotonic() - started
            assert answer.status_code == 503, answer.text
            body = answer.json()
            assert body["code"] == "unavailable", body
            assert "revoked" not in body["message"].lower()
            assert answer.headers["Retry-After"].isdigit()
            if expected:
                assert "一時的" in body["message"]
        # The API with the browser's session: the same, though the session cannot be read.
        by_session = browser.get(
            base + "/api/v1/me/", headers={"Accept-Language": "en"}, timeout=30
        )
        assert by_session.status_code == 503, by_session.text[:500]
        assert by_session.json()["code"] == "unavailable"
        # An upload by the API is refused the same way (nothing could be recorded).
        upload = requests.post(
            base + "/api/v1/competitions/cup/rounds/r1/submissions/",
            headers=bearer,
            files={"file": ("anonymized.csv", b"a,b\n1,2\n", "text/csv")},
            timeout=30,
        )
        assert upload.status_code == 503 and upload.json()["code"] == "unavailable"
        print("answers while PostgreSQL is down (s):", {k: round(v, 3) for k, v in seen.items()})

        own_postgres.start()  # back: the same session and token work again
        assert browser.get(base + "/", timeout=30).status_code == 200
        assert requests.get(base + "/api/v1/me/", headers=bearer, timeout=30).status_code == 200


def test_a_database_server_that_never_answers_fails_a_page_in_seconds(tmp_path):
    """A listener that accepts the connection and then says nothing (a hung server, a
    firewall that drops the traffic) holds a connection attempt until the connect timeout."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)  # never accepted: the kernel completes the handshakes, no one answers
    try:
        env = site_env(
            tmp_path / "var",
            DATABASE_URL=f"postgres://postgres@127.0.0.1:{silent.getsockname()[1]}/pwscup",
            PWSCUP_DB_CONNECT_TIMEOUT="2",
        )
        port = free_port()
        with _gunicorn(env, tmp_path, port):
            started = time.monotonic()
            answer = requests.get(
                f"http://127.0.0.1:{port}/", headers={"Accept-Language": "en"}, timeout=30
            )
            print(f"page with a silent database server: {time.monotonic() - started:.2f}s")
            assert answer.status_code == 503 and ENGLISH in answer.text
    finally:
        silent.close()
