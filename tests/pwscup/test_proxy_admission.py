"""nginx's admission control (scripts/docker/nginx.conf): gunicorn is handed at most 32 reads
and 16 writes (POST, PUT, PATCH, DELETE) at once; past that bound nginx answers at once with a
503, Retry-After and its message in the caller's language, instead of queueing requests until
they time out. Every request it did hand over is answered when gunicorn answers. (Log-ins
have 8 places of their own: tests/pwscup/test_proxy_fairness.py.)

Behind nginx here is a gunicorn that has stalled (``StalledUpstream``: it accepts connections,
holds every request, and answers them all when released), so the bound is reached without
timing anything: the held requests are counted where they arrive.
"""

import json
import select
import socket
import threading
import urllib.error
import urllib.request

import pytest

from tests.support import wait_for

pytestmark = pytest.mark.proxy

READS, WRITES = 32, 16  # scripts/docker/nginx.conf: max_conns of pwscup_web, pwscup_web_writes
ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"


class StalledUpstream:
    """A listening socket that holds every connection until ``release()``, then answers them
    (and every later one) 200."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=256)
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        self.lock = threading.Lock()
        self.released = threading.Event()
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        self.listener.settimeout(0.2)
        while not self.closing.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            with self.lock:
                if self.released.is_set():
                    self._answer(connection)
                else:
                    self.held.append(connection)

    @staticmethod
    def _answer(connection):
        try:
            connection.settimeout(2)
            connection.recv(65536)  # the request (nginx has sent all of it)
            connection.sendall(ANSWER)
        except OSError:
            pass
        finally:
            connection.close()

    def holding(self) -> int:
        with self.lock:
            return len(self.held)

    def release(self):
        with self.lock:
            self.released.set()
            held, self.held = self.held, []
        for connection in held:
            self._answer(connection)

    def close(self):
        self.release()
        self.closing.set()
        self.thread.join(timeout=5)
        self.listener.close()


@pytest.fixture
def upstream():
    stalled = StalledUpstream()
    yield stalled
    stalled.close()


@pytest.fixture
def gunicorn_port(upstream):
    """The nginx_port fixture's upstream: the stalled one."""
    return upstream.port


def _send(port: int, method: str, path: str = "/c/demo/") -> socket.socket:
    """A request sent and left waiting for its answer."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    body = "note=x" if method == "POST" else ""
    sock.sendall(
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
        f"\r\n{body}".encode()
    )
    return sock


def _request(port: int, method: str = "GET", **headers) -> tuple[int, dict, bytes]:
    data = b"note=x" if method == "POST" else None
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/c/demo/", data=data, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _answers(sockets: list[socket.socket], within: float) -> list[bytes]:
    answers = []
    for sock in sockets:
        ready, _, _ = select.select([sock], [], [], within)
        answers.append(sock.recv(64) if ready else b"")
    return answers


def test_past_the_reads_bound_page_views_get_a_503_at_once_and_writes_still_pass(
    nginx_port, upstream
):
    pages = [_send(nginx_port, "GET") for _ in range(READS)]
    try:
        wait_for(lambda: upstream.holding() == READS, timeout=20, what="32 page views handed over")
        # The 33rd page view: refused by nginx at once, in the caller's language and format.
        status, headers, body = _request(nginx_port, **{"Accept-Language": "en"})
        assert (status, headers["Retry-After"]) == (503, "5")
        assert json.loads(body) == {
            "code": "server_unavailable",
            "message": "The site is restarting or busy: try again in a few seconds.",
        }
        status, headers, body = _request(
            nginx_port, Accept="text/html", **{"Accept-Language": "ja"}
        )
        assert (status, headers["Retry-After"]) == (503, "5")
        page = body.decode()
        assert '<html lang="ja">' in page and "数秒待ってからもう一度お試しください" in page
        assert upstream.holding() == READS  # neither reached gunicorn
        # An upload or a form (POST) has places of its own: it is handed over.
        form = _send(nginx_port, "POST")
        wait_for(lambda: upstream.holding() == READS + 1, timeout=10, what="the POST handed over")
        # gunicorn answers: every request nginx handed over gets its answer.
        upstream.release()
        answers = _answers([*pages, form], within=10)
        assert all(answer.startswith(b"HTTP/1.1 200") for answer in answers), answers
        form.close()
        assert _request(nginx_port)[0] == 200  # and the site takes page views again
    finally:
        for sock in pages:
            sock.close()


def test_past_the_writes_bound_a_post_gets_a_503_and_page_views_still_pass(nginx_port, upstream):
    forms = [_send(nginx_port, "POST") for _ in range(WRITES)]
    try:
        wait_for(lambda: upstream.holding() == WRITES, timeout=20, what="16 POSTs handed over")
        status, headers, body = _request(nginx_port, "POST", **{"Accept-Language": "ja"})
        assert (status, headers["Retry-After"]) == (503, "5")
        assert json.loads(body)["message"] == (
            "サイトは再起動中か混み合っています。数秒待ってからもう一度お試しください。"
        )
        page = _send(nginx_port, "GET")
        wait_for(lambda: upstream.holding() == WRITES + 1, timeout=10, what="the page view")
        upstream.release()
        answers = _answers([*forms, page], within=10)
        assert all(answer.startswith(b"HTTP/1.1 200") for answer in answers), answers
        page.close()
    finally:
        for sock in forms:
            sock.close()
