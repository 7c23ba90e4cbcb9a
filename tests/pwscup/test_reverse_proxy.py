"""Slow clients cannot take the site down: the production pair, started here on loopback.

gunicorn runs with scripts/docker/gunicorn.conf.py (threaded workers; here one worker with three
threads) and Debian's nginx with scripts/docker/nginx.conf, only its upstream and listen address
changed to free local ports. Three clients open a 10 MB multipart POST and trickle it at about
1 KB/s: straight to gunicorn they hold all three threads and /healthz stops answering (the field
test's finding, checked here too so the test can fail); through nginx /healthz keeps answering at once.
"""

import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from tests.support import child_env, free_port, gunicorn_command, running, wait_for

pytestmark = [pytest.mark.proxy, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SLOW_CLIENTS = 3
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


@pytest.fixture
def gunicorn_port(celery_worker_process, tmp_path):
    port = free_port()
    env = child_env(
        GUNICORN_BIND=f"127.0.0.1:{port}", GUNICORN_WORKERS="1", GUNICORN_THREADS=str(SLOW_CLIENTS)
    )
    with running(
        gunicorn_command(),
        env=env,
        log_path=tmp_path / "gunicorn.log",
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


def _probe_while_slow_clients_trickle(port: int, *, probes: int, timeout: float):
    clients = [SlowUpload(port) for _ in range(SLOW_CLIENTS)]
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
    results, still_sending = _probe_while_slow_clients_trickle(nginx_port, probes=6, timeout=5)
    assert still_sending  # the three uploads were in flight during every probe
    assert [status for status, _ in results] == [200] * 6, results
    assert max(seconds for _, seconds in results) < 2.0, results

    # The same three clients straight at gunicorn hold its three threads: no answer.
    # (This is what the proxy prevents; it also shows the probe above can fail.)
    direct, _ = _probe_while_slow_clients_trickle(gunicorn_port, probes=1, timeout=3)
    assert direct[0][0] is None, direct
    # Once they hang up, the workers are free again.
    wait_for(lambda: _healthz(gunicorn_port, 5)[0] == 200, timeout=60, what="gunicorn to recover")
