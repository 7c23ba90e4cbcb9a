"""Fair admission at the proxy (scripts/docker/nginx.conf): a client is bounded by what it
holds, so neither a client trickling uploads nor a flood of log-ins shuts others out.

* A client trickling 300 uploads from one address (more than a class's 240 connections and
  than the former per-address limit of 256, which it filled: every request from the address,
  a team's behind the same NAT included, was answered 429) leaves the team's pages and
  uploads answered.
* A log-in flood from one address is held to 4 log-ins a second (its excess answered 429 at
  once, a class's 40 let wait their turn) and to the log-ins' own 8 places at gunicorn: a team
  on another address gets all 16 places of the uploads (once the flood took them, 503).

Behind nginx is a gunicorn that answers at once or holds every request
(``StalledUpstream``), so what nginx hands over is counted where it arrives, not timed.
"""

import select
import socket
import threading

import pytest

from tests.pwscup.test_proxy_admission import WRITES, StalledUpstream
from tests.support import wait_for

pytestmark = pytest.mark.proxy

NAT, FLOODER, TEAM = "127.0.0.3", "127.0.0.4", "127.0.0.5"  # client addresses (loopback)
SLOW_UPLOADS = 300
LOGIN_PLACES, LOGIN_BURST = 8, 40  # max_conns of pwscup_web_logins; limit_req's burst
FLOOD = 60


@pytest.fixture
def upstream():
    stalled = StalledUpstream()
    yield stalled
    stalled.close()


@pytest.fixture
def gunicorn_port(upstream):
    """The nginx_port fixture's upstream: the stalled one."""
    return upstream.port


def _send(port: int, method: str, path: str, *, source: str, length: int | None = None):
    """A request from ``source``, left waiting for its answer; with ``length``, a body of
    that many bytes of which only the first has been sent."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    body = "" if method == "GET" else "note=x"
    sock.sendall(
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {length or len(body)}\r\n\r\n{body[:1] if length else body}".encode()
    )
    return sock


def _status(sock: socket.socket, within: float = 10) -> int | None:
    """The status nginx answered, or None if no answer came within ``within`` seconds."""
    ready, _, _ = select.select([sock], [], [], within)
    answer = sock.recv(64) if ready else b""
    return int(answer.split()[1]) if answer.startswith(b"HTTP/1.1 ") else None


class TricklingUploads:
    """``count`` uploads from ``source``, each a 10 MB body arriving a byte a second."""

    def __init__(self, port: int, count: int, *, source: str):
        self.sockets = [
            _send(port, "POST", "/c/demo/r1/upload/", source=source, length=10_000_000)
            for _ in range(count)
        ]
        self.rounds = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self):
        while not self.stop.wait(1.0):
            for sock in self.sockets:
                try:
                    sock.sendall(b"x")
                except OSError:
                    pass  # answered and closed: counted by answered()
            self.rounds += 1

    def answered(self) -> int:
        return len(select.select(self.sockets, [], [], 0)[0])

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)
        for sock in self.sockets:
            sock.close()


def test_a_client_trickling_uploads_leaves_a_team_behind_the_same_address_answered(
    nginx_port, upstream
):
    upstream.release()  # gunicorn answers at once
    slow = TricklingUploads(nginx_port, SLOW_UPLOADS, source=NAT)
    try:
        wait_for(lambda: slow.rounds >= 2, timeout=20, what="the uploads to be trickling")
        team = [
            _send(nginx_port, "GET", "/c/demo/", source=NAT),
            _send(nginx_port, "GET", "/healthz", source=NAT),
            _send(nginx_port, "POST", "/c/demo/r1/upload/", source=NAT),
        ]
        assert [_status(sock) for sock in team] == [200, 200, 200]
        assert slow.answered() == 0  # every slow upload is still in progress, none refused
    finally:
        slow.close()


def test_a_log_in_flood_from_one_address_takes_none_of_another_teams_upload_places(
    nginx_port, upstream
):
    flood = [_send(nginx_port, "POST", "/accounts/login/", source=FLOODER) for _ in range(FLOOD)]
    uploads = []
    try:
        # The log-ins let through fill their own places; gunicorn holds them.
        wait_for(lambda: upstream.holding() >= LOGIN_PLACES, timeout=30, what="log-ins held")
        held = upstream.holding()
        uploads = [
            _send(nginx_port, "POST", "/c/demo/r1/upload/", source=TEAM) for _ in range(WRITES)
        ]
        answered = lambda: len(select.select(uploads, [], [], 0)[0])  # noqa: E731
        wait_for(
            lambda: upstream.holding() - held + answered() == WRITES,
            timeout=20,
            what="every upload handed over or refused",
        )
        shed = [_status(sock, within=0) for sock in flood]
        upstream.release()
        assert [_status(sock) for sock in uploads] == [200] * WRITES
        # The flood's excess was refused by nginx itself; a class's 40 log-ins (and the one
        # the rate lets through) were not.
        assert 1 <= shed.count(429) <= FLOOD - (LOGIN_BURST + 1), shed
    finally:
        for sock in [*flood, *uploads]:
            sock.close()
