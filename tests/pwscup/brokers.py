"""A Redis server of the test's own (killed and restarted at will) and Celery workers on it."""

import contextlib
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from tests.support import child_env, start_in_session, stop_at_once, wait_for, worker_command

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """``redis-server`` on a free port keeping nothing on disk: a restart loses every key.

    ``host`` is the address it listens on: loopback by default, the root side of the test
    hosts' network (``tests.hosts``) for processes in other network namespaces."""

    def __init__(self, host: str = "127.0.0.1"):
        self.host = host
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="pwscup-redis-")
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def start(self) -> "RedisServer":
        """Start it (again, on the same port, after a ``kill``). A first start whose port
        another program took since ``free_port`` chose it (the server exits at once) tries
        again on a new port, three times at most."""
        for _ in range(3):
            self._spawn()
            wait_for(
                lambda: self.process.poll() is not None or self._answers(),
                timeout=20,
                interval=0.05,
                what="redis-server to start",
            )
            if self.process.poll() is None:
                self._started = True
                return self
            if self._started:  # a restart keeps its port: the clients know it
                break
            self.port = free_port()
        raise RuntimeError(f"redis-server could not listen on {self.host}:{self.port}")

    _started = False

    def _spawn(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                self.host,
                # No password on a test server: clients on other namespaces are let in.
                "--protected-mode",
                "no",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.folder,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def kill(self) -> None:
        """SIGKILL: no shutdown, no save."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def client(self) -> redis.Redis:
        return redis.Redis(host=self.host, port=self.port, socket_connect_timeout=1)

    def _answers(self) -> bool:
        try:
            return self.client().ping()
        except redis.ConnectionError:
            return False


@contextlib.contextmanager
def broker_at(url: str, **transport_options):
    """Send this process's Celery messages (uploads, the reaper's, remote control) to ``url``
    for a while, with ``transport_options`` if given (else the settings'); yields the app.

    Public Celery API only: an app of its own, configured from the settings like the project's
    but for the broker, is made the current app of this thread and the default of every other
    (``set_current``, ``set_default``), and the app that was current before is made so again at
    the end. The product sends and asks through ``celery.current_app``
    (``pwscup.submissions.broker``), so it uses the new app's connections; re-pointing the
    project's app itself would mean dropping the connection pools it keeps, which only
    Celery's private attributes reach. ``with`` closes the app at the end (``Celery.close``)."""
    from celery import Celery
    from celery.app import app_or_default

    previous = app_or_default()
    with Celery(previous.main, set_as_current=False) as app:
        app.config_from_object("django.conf:settings", namespace="CELERY")
        app.conf.broker_url = url
        if transport_options:
            app.conf.broker_transport_options = transport_options
        app.set_current()
        app.set_default()
        try:
            yield app
        finally:
            previous.set_current()
            previous.set_default()


def start_worker(
    *,
    broker_url: str,
    name: str,
    log_path: Path,
    beat_interval: int | None = None,
    extra_env: dict | None = None,
) -> subprocess.Popen:
    """A prefork Celery worker (concurrency 1) in its own process group, on the test
    database, consuming the test queue at ``broker_url``; with ``beat_interval``, it also
    runs beat, so the reaper runs every ``beat_interval`` seconds. ``extra_env`` adds to its
    environment."""
    env = child_env(broker_url=broker_url, **(extra_env or {}))
    command = worker_command(name)
    if beat_interval is not None:
        env["PWSCUP_REAPER_INTERVAL"] = str(beat_interval)
        command += ["--beat", "--schedule", str(log_path.with_suffix(".beat"))]
    log = open(log_path, "a")  # noqa: SIM115 - the child keeps it; closed with the process
    process = start_in_session(command, env=env, log=log)
    log.close()
    return process


def wait_for_worker(process: subprocess.Popen, name: str, log_path: Path) -> None:
    """Wait until the worker answers a ping sent through the current app (the project's, or
    the one of ``broker_at``). The ping is addressed to it: the call returns with its answer
    instead of waiting out the whole timeout for other workers' (0.5 s on every poll)."""
    from celery import current_app

    def answers():
        if process.poll() is not None:
            raise AssertionError(f"worker exited: {log_path.read_text()[-3000:]}")
        replies = current_app.control.ping(destination=[name], timeout=0.5) or []
        return any(name in reply for reply in replies)

    wait_for(answers, timeout=60, what=f"worker {name} to answer a ping")


def kill_group(process: subprocess.Popen) -> None:
    """SIGKILL the worker's whole process group (main process and pool children)."""
    stop_at_once(process)


def stop_worker(process: subprocess.Popen) -> None:
    """Stop a worker the test is done with, as ``running`` stops its processes (at once:
    ``tests.support.stop_at_once``)."""
    stop_at_once(process)


def elapsed_since(start: float) -> float:
    return time.monotonic() - start
