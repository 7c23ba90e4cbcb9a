"""nginx's own answers (scripts/docker/nginx.conf), with nothing behind it: its refusals speak
the API's error format in the caller's language, the pwscup client prints them, one address
may hold a classroom's connections, and the Server header names no version.

The upstream here is a free port nobody listens on, so every request nginx lets through is
answered by nginx itself: a 502 (no gunicorn) sent as a 503 with Retry-After, which means the
request passed the connection limit. The admission control's tests put a gunicorn that never
answers behind it instead (``StalledUpstream``).
"""

import json
import select
import socket
import threading
import urllib.error
import urllib.request

import pytest

from tests.pwscup.client_servers import answering
from tests.support import free_port, run_pwscup, wait_for

pytestmark = pytest.mark.proxy

PER_ADDRESS_LIMIT = 512  # scripts/docker/nginx.conf, limit_conn pwscup_per_address


@pytest.fixture
def gunicorn_port():
    """No gunicorn at all: the nginx_port fixture's upstream is a port nobody listens on."""
    return free_port()


def _get(port: int, path: str = "/", **headers) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class HeldUploads:
    """``count`` connections from this address, each a POST whose body is still arriving
    (a byte every second): requests in progress, as a class's uploads are."""

    def __init__(self, port: int, count: int):
        self.sockets = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(
                f"POST /api/v1/upload HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Type: text/csv\r\nContent-Length: 1000000\r\n\r\nage\r\n".encode()
            )
            self.sockets.append(sock)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self):
        while not self.stop.wait(1.0):
            for sock in self.sockets:
                try:
                    sock.sendall(b"1")
                except OSError:
                    pass  # answered and closed: counted by answered()

    def answered(self, *, within: float) -> list[bytes]:
        """The first bytes of every held request that got an answer within ``within`` s."""
        ready, _, _ = select.select(self.sockets, [], [], within)
        answers = []
        for sock in ready:
            try:
                answers.append(sock.recv(64))
            except OSError as error:
                answers.append(repr(error).encode())
        return answers

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def test_the_server_header_names_no_version(nginx_port):
    _, headers, body = _get(nginx_port)
    assert headers["Server"] == "nginx"
    assert b"nginx/" not in body


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({"Accept-Language": "en-US,en;q=0.9"}, "The site is restarting or busy"),
        ({"Accept-Language": "ja,en;q=0.8"}, "サイトは再起動中か混み合っています"),
        ({}, "サイトは再起動中か混み合っています"),  # the site's default language
        ({"Accept-Language": "ja", "Cookie": "django_language=en"}, "restarting or busy"),
    ],
    ids=["en", "ja", "no-language", "cookie-first"],
)
def test_a_gateway_error_is_json_in_the_callers_language(nginx_port, headers, message):
    status, answer_headers, body = _get(nginx_port, "/api/v1/me/", **headers)
    assert status == 503 and answer_headers["Retry-After"] == "5"
    assert answer_headers["Content-Type"] == "application/json; charset=utf-8"
    payload = json.loads(body)
    assert payload["code"] == "server_unavailable"
    assert message in payload["message"]


def test_a_browser_gets_a_small_html_page_instead(nginx_port):
    status, headers, body = _get(
        nginx_port, Accept="text/html,application/xhtml+xml,*/*;q=0.8", **{"Accept-Language": "ja"}
    )
    assert status == 503 and headers["Retry-After"] == "5"
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    page = body.decode("utf-8")
    assert '<html lang="ja">' in page
    assert "サイトは再起動中か混み合っています" in page


def _request(port: int, method: str, path: str, **headers) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "en",
            "This site does not take this request's method: it takes GET, HEAD, POST and OPTIONS.",
        ),
        (
            "ja",
            "このサイトはこのリクエストのメソッドを受け付けません。受け付けるのは GET、HEAD、POST、OPTIONS です。",
        ),
    ],
)
def test_nginxs_own_405_names_the_allowed_methods_in_the_apis_format(nginx_port, language, message):
    # nginx refuses TRACE itself, before any location: it never reaches Django.
    status, headers, body = _request(
        nginx_port, "TRACE", "/api/v1/me/", **{"Accept-Language": language}
    )
    assert status == 405
    assert headers["Allow"] == "GET, HEAD, POST, OPTIONS"
    assert headers["Content-Type"] == "application/json; charset=utf-8"
    assert json.loads(body) == {"code": "method_not_allowed", "message": message}
    # Only a 405 names the methods: nginx's other refusals carry no Allow header; a 405 is
    # no reason to come back later.
    assert "Allow" not in _get(nginx_port, "/api/v1/me/")[1]
    assert "Retry-After" not in headers


def test_a_class_behind_one_address_is_let_in(nginx_port):
    # 50 uploads at once from one address (the field test's class behind a NAT): none refused.
    held = HeldUploads(nginx_port, 50)
    try:
        assert held.answered(within=2.0) == []
        status, _, body = _get(nginx_port, "/healthz")
        assert status == 503, body  # let through to the (absent) upstream, not refused
    finally:
        held.close()


def test_beyond_the_limit_the_client_prints_nginxs_message(nginx_port, tmp_path):
    held = HeldUploads(nginx_port, PER_ADDRESS_LIMIT)
    try:
        wait_for(
            lambda: _get(nginx_port, "/healthz")[0] == 429, timeout=20, what="the limit to be full"
        )
        assert held.answered(within=0.5) == []  # the limit's own connections were all let in
        status, headers, body = _get(nginx_port, "/api/v1/me/", **{"Accept-Language": "en"})
        assert status == 429 and headers["Retry-After"] == "5"
        assert headers["Content-Type"] == "application/json; charset=utf-8"
        assert json.loads(body) == {
            "code": "too_many_connections",
            "message": "Too many connections from your network at once: "
            "wait a few seconds and try again.",
        }
        url = f"http://127.0.0.1:{nginx_port}"
        english = run_pwscup(
            ["login", url, "--token-stdin"], config_dir=tmp_path, language="en", stdin="pws_x\n"
        )
        japanese = run_pwscup(
            ["login", url, "--token-stdin"], config_dir=tmp_path, language="ja", stdin="pws_x\n"
        )
    finally:
        held.close()
    assert english.returncode == 1
    assert english.stderr == (
        "error: Too many connections from your network at once: wait a few seconds and try "
        "again. [too_many_connections]\n"
    )
    assert japanese.returncode == 1
    assert japanese.stderr == (
        "エラー: お使いのネットワークからの同時接続が多すぎます。"
        "数秒待ってからもう一度お試しください。 [too_many_connections]\n"
    )


def test_the_client_prints_nginxs_message_for_a_too_large_upload(
    gunicorn_port, nginx_port, tmp_path
):
    (tmp_path / "credentials.json").write_text(
        json.dumps({"url": f"http://127.0.0.1:{nginx_port}", "token": "pws_x"})
    )
    big = tmp_path / "anonymized.csv"
    with open(big, "wb") as handle:
        handle.truncate(65 * 1024 * 1024)  # above client_max_body_size (64m)
    # The client reads the round's status first: the upstream answers every GET with one
    # listing an attack; the upload itself is refused by nginx, before any upstream.
    status = {
        "submission_types": [
            {
                "key": "attack",
                "label": "Attack",
                "open": True,
                "url": "/api/v1/rounds/cup/r1/attacks/",
                "fields": [{"name": "target", "required": True, "choices": ["teamB"]}],
            }
        ],
        "uploads": [],
        "metrics": [],
    }
    with answering(200, "application/json", json.dumps(status).encode(), port=gunicorn_port):
        result = run_pwscup(
            ["attack", "cup/r1", "teamB", str(big)], config_dir=tmp_path, language="en"
        )
    assert result.returncode == 1, result.stderr
    assert result.stderr == (
        "error: The request is too large: this site accepts at most 64 MB per request. "
        "[too_large]\n"
    )
