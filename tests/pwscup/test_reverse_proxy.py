"""The production pair, started here on loopback: gunicorn behind nginx.

gunicorn runs with scripts/docker/gunicorn.conf.py (threaded workers; here one worker with three
threads) and Debian's nginx with scripts/docker/nginx.conf, only its upstream and listen address
changed to free local ports (and nginx connecting from 127.0.0.2, the one trusted proxy).

Slow clients cannot take the site down: clients open a 10 MB multipart POST and trickle it at
about 1 KB/s. Three straight to gunicorn hold all three threads and /healthz stops answering
(the field test's finding: 14 clients against production's 12 threads; checked here too so the
test can fail); fourteen through nginx leave /healthz answering at once. In docker-compose.yml
gunicorn publishes no port, so nginx's way is the only way in.

The site is on a port other than 80, as behind compose's ``8000:80``: the links it builds carry
that port, and the client's address is believed from the proxy only.
"""

import http.client
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from django.contrib.auth import get_user_model

from tests.pwscup.conftest import PROXY_ADDRESS
from tests.support import child_env, free_port, gunicorn_command, running, wait_for

pytestmark = [
    pytest.mark.proxy,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker_process"),
]

SLOW_CLIENTS = 3  # gunicorn's threads here
SLOW_CLIENTS_THROUGH_NGINX = 14  # the field test's count
BODY_BYTES = 10 * 1024 * 1024
TRICKLE = 512  # bytes every half second: about 1 KB/s


def _healthz(port: int, timeout: float) -> tuple[int | None, float]:
    """(HTTP status or None when no answer came within ``timeout``, seconds it took)."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=timeout) as r:
            status = r.status
    except urllib.error.HTTPError as error:
        status = error.code
    except (TimeoutError, urllib.error.URLError, ConnectionError):
        status = None
    return status, time.monotonic() - started


@pytest.fixture(scope="module")
def mail_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("mail")


@pytest.fixture(scope="module")
def gunicorn_port(django_db_setup, tmp_path_factory, mail_dir):
    """One gunicorn for the module's tests (its start and graceful stop are most of a test's
    cost): what a test leaves is in the database, flushed after it, or in the shared file
    cache, as with a gunicorn of its own; the slow clients' test waits for its threads to be
    free again before it ends. Each test holds the worker (``pytestmark``)."""
    port = free_port()
    env = child_env(
        GUNICORN_BIND=f"127.0.0.1:{port}",
        GUNICORN_WORKERS="1",
        GUNICORN_THREADS=str(SLOW_CLIENTS),
        # As in docker-compose.yml, the proxy's header believed from the proxy only.
        PWSCUP_CLIENT_IP_HEADER="HTTP_X_REAL_IP",
        PWSCUP_TRUSTED_PROXIES=f"{PROXY_ADDRESS}/32",
        EMAIL_URL=f"filemail:///{mail_dir}",
    )
    with running(
        gunicorn_command(),
        env=env,
        log_path=tmp_path_factory.mktemp("gunicorn") / "gunicorn.log",
        ready=lambda: _healthz(port, 5)[0] == 200,
        what="gunicorn to answer /healthz",
    ):
        yield port


class SlowUpload(threading.Thread):
    """An anonymous client POSTing a 10 MB multipart body at about 1 KB/s until stopped."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.stop = threading.Event()
        self.sent = 0

    def run(self):
        boundary = "slowclientboundary"
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="anonymized.csv"\r\nContent-Type: text/csv\r\n\r\n'
        ).encode()
        request = (
            f"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            # A well-formed CSRF cookie: Django reads the body to look for the token.
            f"Cookie: csrftoken={'a' * 32}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
            f"Content-Length: {BODY_BYTES}\r\n\r\n"
        ).encode() + head
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=5) as sock:
                sock.sendall(request)
                while not self.stop.wait(0.5):
                    sock.sendall(b"x" * TRICKLE)
                    self.sent += TRICKLE
        except OSError:
            pass  # the server gave up on us: that is its right


def _probe_while_slow_clients_trickle(port: int, *, clients: int, probes: int, timeout: float):
    clients = [SlowUpload(port) for _ in range(clients)]
    for client in clients:
        client.start()
    try:
        time.sleep(1.5)  # the slow requests have reached whoever reads them
        results = []
        for _ in range(probes):
            results.append(_healthz(port, timeout))
            time.sleep(0.5)
        still_sending = all(client.is_alive() and client.sent > 0 for client in clients)
    finally:
        for client in clients:
            client.stop.set()
        for client in clients:
            client.join(timeout=10)
    return results, still_sending


def test_healthz_answers_through_nginx_while_slow_clients_trickle(gunicorn_port, nginx_port):
    results, still_sending = _probe_while_slow_clients_trickle(
        nginx_port, clients=SLOW_CLIENTS_THROUGH_NGINX, probes=6, timeout=5
    )
    assert still_sending  # the fourteen uploads were in flight during every probe
    assert [status for status, _ in results] == [200] * 6, results
    assert max(seconds for _, seconds in results) < 2.0, results

    # The same three clients straight at gunicorn hold its three threads: no answer.
    # (This is what the proxy prevents; it also shows the probe above can fail.)
    direct, _ = _probe_while_slow_clients_trickle(
        gunicorn_port, clients=SLOW_CLIENTS, probes=1, timeout=3
    )
    assert direct[0][0] is None, direct
    # Once they hang up, the workers are free again.
    wait_for(lambda: _healthz(gunicorn_port, 5)[0] == 200, timeout=60, what="gunicorn to recover")


class Browser:
    """A browser on ``source`` (a loopback address of its own), with its cookies."""

    def __init__(self, port: int, *, source: str = "127.0.0.1"):
        self.port, self.source, self.cookies = port, source, {}

    def request(self, method: str, path: str, body: str | None = None, **headers):
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )
        headers = {
            "Host": f"127.0.0.1:{self.port}",
            "Accept-Language": "en",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            **headers,
        }
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            # As every browser does on a form POST; Django checks it against the Host.
            headers.setdefault("Origin", f"http://127.0.0.1:{self.port}")
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read().decode("utf-8", "replace")
        finally:
            connection.close()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        return response.status, content

    def submit(self, path: str, fields: dict, *, action: str = "", **headers) -> tuple[int, str]:
        """GET the page at ``path`` (its CSRF token), then POST ``fields`` to ``action``
        (default: the same path)."""
        status, page = self.request("GET", path)
        assert status == 200, page[:500]
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields})
        return self.request("POST", action or path, body, **headers)


def test_the_links_the_site_builds_keep_the_public_port(nginx_port, mail_dir):
    get_user_model().objects.create_user(
        username="carol", email="carol@example.org", password="right-password-1"
    )
    browser = Browser(nginx_port)
    sent_before = set(mail_dir.iterdir())  # the module's gunicorn shares the folder
    # A form POST from http://127.0.0.1:PORT: Django's CSRF check compares its Origin with the
    # Host nginx passes on (without the port it refused every form with 403).
    status, page = browser.submit("/accounts/password/reset/", {"email": "carol@example.org"})
    assert status == 302, page[:500]
    (mail,) = set(mail_dir.iterdir()) - sent_before
    assert f"\nhttp://127.0.0.1:{nginx_port}/accounts/password/reset/" in mail.read_text()

    login = {"username": "carol", "password": "right-password-1"}
    assert browser.submit("/accounts/login/", login)[0] == 302
    # The token page's `pwscup login URL` line.
    status, page = browser.submit(
        "/accounts/profile/", {"name": "cli"}, action="/accounts/tokens/new/"
    )
    assert status == 200, page[:500]
    assert f"pwscup login http://127.0.0.1:{nginx_port}/" in page


def _wrong_login(browser: Browser, username: str, **headers) -> int:
    return browser.submit(
        "/accounts/login/", {"username": username, "password": "wrong"}, **headers
    )[0]


def test_a_forged_address_straight_to_gunicorn_is_ignored(gunicorn_port, nginx_port):
    users = get_user_model().objects
    users.create_user(username="alice", password="right-password-1")
    users.create_user(username="bob", password="right-password-1")

    # Straight to gunicorn, a new X-Real-IP on every try: the peer's own address counts.
    direct = Browser(gunicorn_port)
    statuses = [_wrong_login(direct, "alice", **{"X-Real-IP": f"203.0.113.{n}"}) for n in range(12)]
    assert 429 in statuses, statuses

    # Through nginx, two clients on two addresses are told apart: one locked out, one not.
    intruder = Browser(nginx_port, source="127.0.0.5")
    for _ in range(5):
        _wrong_login(intruder, "bob")
    right = {"username": "bob", "password": "right-password-1"}
    assert intruder.submit("/accounts/login/", right)[0] == 429
    assert Browser(nginx_port, source="127.0.0.6").submit("/accounts/login/", right)[0] == 302
