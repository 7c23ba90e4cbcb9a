"""Helpers shared by the test packages (import as ``tests.support``)."""

import contextlib
import datetime as dt
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ROWS = 200


ROOT = Path(__file__).resolve().parents[1]
DOCKER = ROOT / "scripts" / "docker"


def site_kinds() -> list:
    """The round kinds the site's apps register (each an installed app's ``KindApp``), in the
    registry's order: every registered kind but one a test registered for itself (the toy,
    whose class lives in no installed app). A test that holds every kind to a rule reads
    them here, so a new kind is held to it without the test naming it."""
    from django.apps import apps

    from pwscup.kinds import all_kinds

    return [
        kind
        for kind in all_kinds()
        if apps.get_containing_app_config(type(kind).__module__) is not None
    ]


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_answers(port: int) -> bool:
    """Something listens on this loopback port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def http_status(url: str, *, timeout: float = 5.0) -> int | None:
    """The status ``url`` answers with, or ``None`` when nothing answered in time (refused,
    reset, or too slow: a server still starting on a busy machine is not an error), for
    the readiness checks that poll a server a test started."""
    import requests

    try:
        return requests.get(url, timeout=timeout).status_code
    except (requests.ConnectionError, requests.Timeout):
        return None


@contextlib.contextmanager
def silent_port():
    """A loopback port whose connections the kernel accepts and nobody ever answers: a server
    that hangs (a frozen PostgreSQL, Redis or bucket, as seen by its clients). Closing it at
    the end resets the connections still waiting."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        yield sock.getsockname()[1]


def stop_at_once(process: subprocess.Popen) -> None:
    """End a process the tests started in a session of its own (``start_new_session``), with
    every process of its group (a Celery worker's pool child, gunicorn's workers): SIGKILL,
    then wait for it. A test that is done with a server or a worker stops it so, not by its
    graceful stop: an idle Celery worker's warm (or cold) shutdown took 2.3–4.5 s here
    (billiard's pool child sleeps a second before it exits and the worker joins it),
    gunicorn's 1.8–2.6 s, and no test proves what they do on the way out; the test's
    assertions are all made by then. Its connections end with it (PostgreSQL ends their
    backends; the suite's flush and database drop wait for other processes' connections)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=20)


def start_in_session(command: list[str], *, env: dict, log) -> subprocess.Popen:
    """``command`` started from the repository with ``env``, its output in the open file
    ``log``, in a session of its own: a process group that ``stop_at_once`` ends whole."""
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


@contextlib.contextmanager
def running(command: list[str], *, env: dict, log_path: Path, ready, what: str):
    """``command`` started from the repository with ``env`` in a session of its own, its
    output in ``log_path``; yields the process once ``ready()`` is true (the test fails with
    the log's end if the process exits first), and stops it and its children afterwards
    (``stop_at_once``)."""
    log = open(log_path, "w")  # noqa: SIM115 - closed below
    process = start_in_session(command, env=env, log=log)
    try:
        wait_for(lambda: process.poll() is not None or ready(), timeout=60, what=what)
        if process.poll() is not None:
            pytest.fail(f"{command[2]} exited: {log_path.read_text()[-3000:]}")
        yield process
    finally:
        stop_at_once(process)
        log.close()


def gunicorn_command() -> list[str]:
    """gunicorn with the production configuration file (scripts/docker/gunicorn.conf.py)."""
    return [
        *(sys.executable, "-m", "gunicorn", "--config", str(DOCKER / "gunicorn.conf.py")),
        "pwscup.wsgi:application",
    ]


def demo_gunicorn_command() -> list[str]:
    """gunicorn with the demo's configuration file (scripts/demo_gunicorn.conf.py)."""
    return [
        *(
            sys.executable,
            "-m",
            "gunicorn",
            "--config",
            str(ROOT / "scripts" / "demo_gunicorn.conf.py"),
        ),
        "pwscup.wsgi:application",
    ]


def child_env(*, broker_url: str | None = None, **extra: str) -> dict:
    """The environment of a process the tests start (worker, gunicorn): the test settings on
    this run's test database, queue, broker (``broker_url``, default this run's) and media."""
    from django.conf import settings
    from django.db import connection

    db = connection.settings_dict
    user, password = db.get("USER") or "postgres", db.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else f"{user}@"
    env = dict(os.environ)
    # The child takes this process's broker as given (the test settings would otherwise move
    # a pytest-xdist worker's Redis database down once more).
    env.pop("PYTEST_XDIST_WORKER", None)
    env.update(
        DJANGO_SETTINGS_MODULE="pwscup.settings.test",
        TEST_DATABASE_URL=f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:"
        f"{db.get('PORT') or 5432}/{db['NAME']}",
        TEST_DATABASE_NAME=db["NAME"],
        CELERY_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        TEST_REDIS_URL=broker_url or settings.CELERY_BROKER_URL,
        PWSCUP_MEDIA_ROOT=str(settings.MEDIA_ROOT),
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


def worker_command(hostname: str, *, queue: str | None = None) -> list[str]:
    """``celery worker`` (prefork, concurrency 1) on ``queue``, by default this run's test
    queue. Without Celery's start-up "mingle" (asking the other workers for the tasks they
    revoked, then waiting a whole second for their answers): the platform revokes no task, and
    each test worker was ready a second later for nothing."""
    from django.conf import settings

    return [
        *(sys.executable, "-m", "celery", "-A", "pwscup", "worker", "--without-mingle"),
        *("--concurrency", "1", "--loglevel", "INFO"),
        *("-Q", queue or settings.CELERY_TASK_DEFAULT_QUEUE, "-n", hostname),
    ]


def settled(model, pk: int):
    """The upload (any kept job row) once its job has ended. A test scores it in its own
    process, as a worker would; but a worker another test of this process started (a
    session's, earlier in the run) may have taken the job from the broker first, and then
    it is that worker's to finish."""
    from pwscup.submissions.models import Status

    wait_for(
        lambda: model.objects.get(pk=pk).status not in (Status.QUEUED, Status.RUNNING),
        what=f"{model.__name__} {pk}'s job",
    )
    return model.objects.get(pk=pk)


def wait_for(predicate, *, timeout: float = 60.0, interval: float = 0.2, what: str = "condition"):
    """Poll ``predicate`` until it returns a truthy value; fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")


def adult_head(rows: int = ROWS) -> bytes:
    with open(FIXTURES / "adult.csv", "rb") as handle:
        lines = [next(handle) for _ in range(rows + 1)]
    return b"".join(lines)


def adult_config() -> dict:
    return json.loads((FIXTURES / "adult_round.json").read_text())


def table_bytes(table: pd.DataFrame) -> bytes:
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue().encode()


def csv_upload(content: bytes, name: str = "anonymized.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/csv")


def noisy_copy(original: bytes, *, seed: int = 0, delete: int = 0) -> bytes:
    """A valid anonymization: noise on two numeric columns, ``delete`` rows blanked."""
    table = pd.read_csv(io.BytesIO(original), dtype=str, keep_default_na=False)
    order = pd.Series(range(len(table))).sample(frac=1.0, random_state=seed).to_numpy()
    hours = table["hours-per-week"].astype(int) + (order % 3) - 1
    table["hours-per-week"] = hours.clip(lower=1).astype(str)
    table["fnlwgt"] = (table["fnlwgt"].astype(int) + (order % 7) * 100).astype(str)
    if delete:
        table.iloc[order[:delete], :] = ""
    return table_bytes(table)


@dataclass
class World:
    """A competition with one round over the first rows of Adult and teams a, b, c."""

    competition: object
    round: object
    anonymization: object
    attack: object
    teams: dict
    users: dict
    organizer: object
    original: bytes

    def round_url(self) -> str:
        return f"/c/{self.competition.slug}/{self.round.slug}/"


def build_world(
    *,
    slug: str = "cup",
    username=lambda slug, who: f"{slug}-{who}",
    password: str = "pw",
    data_mode: str = "shared",
    anonymization_open: bool = True,
    attack_open: bool = True,
    daily_limit: int | None = None,
    total_limit: int | None = None,
    leaderboard_public: bool = False,
    rows: int = ROWS,
    **round_options,
) -> World:
    """Create the world through the services; ``username(slug, "team-a")`` names accounts."""
    from django.utils import timezone

    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.models import Phase
    from pwscup.competitions.services import competition_create, phase_set
    from pwscup.kinds.round_basics import RoundBasics
    from pwscup.pwscup2015.models import Pwscup2015Round
    from pwscup.pwscup2015.services import round_assign_samples
    from pwscup.pwscup2015.services.rounds import round_create

    now, hour = timezone.now(), dt.timedelta(hours=1)
    organizer = user_create(username=username(slug, "organizer"), password=password)
    competition = competition_create(name=f"Cup {slug}", slug=slug, organizers=[organizer])
    original = adult_head(rows)
    if data_mode == Pwscup2015Round.DataMode.PER_TEAM:
        round_options = {"sample_size": 60, "decoy_count": 40, **round_options}
    round_ = round_create(
        basics=RoundBasics(competition=competition, name="Round", slug="r1"),
        original=original,
        original_filename="adult_head.csv",
        config_raw=adult_config(),
        data_mode=data_mode,
        **round_options,
    )
    anonymization = phase_set(
        round=round_,
        kind=Phase.Kind.ANONYMIZATION,
        opens_at=now - hour if anonymization_open else now - 3 * hour,
        closes_at=now + hour if anonymization_open else now - 2 * hour,
        daily_limit=daily_limit,
        total_limit=total_limit,
        leaderboard_public=leaderboard_public,
    )
    attack = phase_set(
        round=round_,
        kind=Phase.Kind.ATTACK,
        opens_at=now - hour if attack_open else now + hour,
        closes_at=now + 2 * hour if attack_open else now + 3 * hour,
    )
    teams, users = {}, {}
    for letter in "abc":
        teams[letter] = team_create(
            competition=competition, name=f"Team {letter.upper()}", slug=f"team{letter.upper()}"
        )
        users[letter] = user_create(username=username(slug, f"team-{letter}"), password=password)
        membership_add(team=teams[letter], user=users[letter])
    round_assign_samples(round=round_)
    return World(competition, round_, anonymization, attack, teams, users, organizer, original)


def flush_database() -> None:
    """Empty every table of every database, as Django does after a ``transaction=True``
    test: the sequences go on from where they were (``flush``'s own default rewinds them).

    Primary keys are then never given twice in one process, so nothing the process cached
    under one (the header's console link per user, a round's awards and rankings per round)
    can answer for a later test's different row that got the same key."""
    from django.core.management import call_command
    from django.db import connections

    for alias in connections:
        call_command("flush", database=alias, interactive=False, verbosity=0, reset_sequences=False)


def tasks_sent(callbacks) -> list:
    """The on-commit callbacks that send a job to the broker (others, such as the ranking
    cache's invalidation, are left out)."""
    return [callback for callback in callbacks if callback.__qualname__.startswith("job_send.")]


PWSCUP_SCRIPT = Path(sys.executable).with_name("pwscup")  # installed by ``pip install -e .``


def run_pwscup(args, *, config_dir, language="en", stdin=None, timeout=180):
    """The ``pwscup`` console script in its own process, with its settings in ``config_dir``,
    running this checkout's client (``PYTHONPATH``: the script may be installed from another
    checkout)."""
    env = {
        **os.environ,
        "PWSCUP_CONFIG_DIR": str(config_dir),
        "PWSCUP_LANG": language,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    return subprocess.run(
        [str(PWSCUP_SCRIPT), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=config_dir,
    )
