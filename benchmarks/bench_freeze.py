"""Benchmark of the freeze as a background job: 100 teams, real Celery workers.

Builds a round through the services in a database of its own (created and dropped
here): an organizer, ``--teams`` teams with one member each, a round whose original is
the first ``--rows`` rows of Adult (8,333 by default; 32,561 is all of it), and one
scored anonymization per team (a noisy copy of the original, uploaded and scored with
the services). Then it starts ``celery worker`` (``--concurrency`` processes, 2 by
default: the machine has 2 cores), asks for the freeze with ``round_freeze_request``
as the admin action does, and measures:

* how long the request took (it must return at once),
* when the freeze operation finished (every target published),
* when the built-in attacks of every target were done (one job per target).

Target: 100 teams frozen and every built-in attack done within 120 s.

Usage::

    .venv/bin/python benchmarks/bench_freeze.py                   # 100 teams, 8,333 rows
    .venv/bin/python benchmarks/bench_freeze.py --teams 30 --rows 32561

Needs PostgreSQL (``--database-url``, a server where it may create a database) and
Redis (``--redis-url``); it uses its own database and queue, and deletes both at the end.
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 120.0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=100)
    parser.add_argument("--rows", type=int, default=8333)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/pwscup_bench_freeze"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument(
        "--from-template",
        action="store_true",
        help="create the database as a copy of the benchmarks' migrated template "
        "(benchmarks/production.py), not by migrating it",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="run the freeze operation in this process under cProfile (no worker) instead",
    )
    return parser.parse_args()


def configure(args, media: Path) -> dict:
    env = {
        "DJANGO_SETTINGS_MODULE": "pwscup.settings.local",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "CELERY_QUEUE": f"bench-freeze-{os.getpid()}",
        "PWSCUP_MEDIA_ROOT": str(media),
        "PWSCUP_VAR_DIR": str(media),
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    os.environ.update(env)
    return {**os.environ, **env}


def create_database(url: str) -> None:
    import psycopg

    admin_url, name = url.rsplit("/", 1)
    with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    admin_url, name = url.rsplit("/", 1)
    with psycopg.connect(f"{admin_url}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def original_bytes(rows: int) -> bytes:
    with open(REPO / "fixtures" / "adult.csv", "rb") as handle:
        return b"".join(next(handle) for _ in range(rows + 1))


def noisy_copy(original, seed: int) -> bytes:
    """A valid anonymization: small noise on two numeric SA columns."""
    import numpy as np

    table = original.copy()
    rng = np.random.default_rng(seed)
    hours = table["hours-per-week"].astype(int) + rng.integers(-1, 2, len(table))
    table["hours-per-week"] = np.clip(hours, 1, None).astype(str)
    table["fnlwgt"] = (table["fnlwgt"].astype(int) + rng.integers(0, 7, len(table)) * 100).astype(
        str
    )
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue().encode()


def build_round(args):
    """Organizer, teams, round and one scored anonymization per team, via the services."""
    import datetime as dt
    import json

    import pandas as pd
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import timezone

    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.models import Phase
    from pwscup.competitions.services import competition_create, phase_set
    from pwscup.kinds.round_basics import RoundBasics
    from pwscup.pwscup2015 import services
    from pwscup.pwscup2015.models import AnonymizationSubmission
    from pwscup.pwscup2015.services.rounds import round_create
    from pwscup.submissions.models import Status

    original = original_bytes(args.rows)
    organizer = user_create(username="bench-organizer", password="bench-pw")
    competition = competition_create(name="Bench", slug="bench", organizers=[organizer])
    round_ = round_create(
        basics=RoundBasics(competition=competition, name="Round", slug="r1"),
        original=original,
        original_filename="adult.csv",
        config_raw=json.loads((REPO / "fixtures" / "adult_round.json").read_text()),
        auto_freeze=False,
    )
    now, hour = timezone.now(), dt.timedelta(hours=1)
    anonymization = phase_set(
        round=round_,
        kind=Phase.Kind.ANONYMIZATION,
        opens_at=now - hour,
        closes_at=now + hour,
    )
    phase_set(round=round_, kind=Phase.Kind.ATTACK, opens_at=now + hour, closes_at=now + 2 * hour)
    table = pd.read_csv(io.BytesIO(original), dtype=str, keep_default_na=False)
    started = time.perf_counter()
    for k in range(args.teams):
        team = team_create(competition=competition, name=f"Team {k:03d}", slug=f"team{k:03d}")
        user = user_create(username=f"bench-team-{k:03d}", password="bench-pw")
        membership_add(team=team, user=user)
        submission = services.anonymization_submission_create(
            phase=anonymization,
            team=team,
            user=user,
            uploaded_file=SimpleUploadedFile("anonymized.csv", noisy_copy(table, seed=k)),
        )
        services.anonymization_submission_score(submission_id=submission.pk)
    finished = AnonymizationSubmission.objects.filter(status=Status.FINISHED).count()
    print(
        f"built {args.teams} teams x {args.rows:,} rows through the services "
        f"({finished} scored) in {time.perf_counter() - started:.1f} s"
    )
    assert finished == args.teams, "every submission must be scored before the freeze"
    return round_, organizer


def start_worker(args, env: dict, log_path: Path) -> subprocess.Popen:
    from pwscup import celery_app

    log = open(log_path, "w")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "pwscup",
            "worker",
            "--concurrency",
            str(args.concurrency),
            "--loglevel",
            "WARNING",
            "-Q",
            env["CELERY_QUEUE"],
            "-n",
            f"bench-freeze-{os.getpid()}@%h",
        ],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while not celery_app.control.ping(timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the worker did not start: {log_path.read_text()[-2000:]}")
    return process


def worker_cpu_seconds(worker: subprocess.Popen) -> float:
    """CPU time (user + system) of the worker's main process and its pool processes."""
    found = subprocess.run(["pgrep", "-P", str(worker.pid)], capture_output=True, text=True)
    total = 0
    for pid in [worker.pid, *(int(p) for p in found.stdout.split())]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def measure(round_, organizer) -> dict:
    from pwscup.pwscup2015.models import RoundOperation, Target
    from pwscup.pwscup2015.services import round_freeze_request
    from pwscup.submissions.models import Status

    started = time.perf_counter()
    operation = round_freeze_request(round=round_, requested_by=organizer)
    request_s = time.perf_counter() - started
    times, last_progress = {}, None
    while True:
        operation = RoundOperation.objects.get(pk=operation.pk)
        elapsed = time.perf_counter() - started
        progress = (operation.status, operation.progress_done, operation.progress_total)
        if progress != last_progress:
            last_progress = progress
            print(f"  {elapsed:6.1f} s  freeze {operation.status}: {progress[1]}/{progress[2]}")
        if operation.status in (Status.FINISHED, Status.FAILED) and "freeze" not in times:
            times["freeze"] = elapsed
        if "freeze" in times:
            states = list(
                Target.objects.filter(round=round_).values_list("builtin__status", flat=True)
            )
            if all(s in (Status.FINISHED, Status.FAILED) for s in states):
                times["builtin"] = elapsed
                break
        if elapsed > 10 * TARGET_SECONDS:
            raise SystemExit("gave up waiting after 20 minutes")
        time.sleep(0.2)
    targets = Target.objects.filter(round=round_)
    return {
        "request_s": request_s,
        "freeze_s": times["freeze"],
        "all_builtin_s": times["builtin"],
        "operation": operation.status,
        "result": operation.result,
        "targets": targets.count(),
        "builtin_failed": targets.filter(builtin__status=Status.FAILED).count(),
    }


def profile_freeze(round_, organizer) -> None:
    """The freeze operation alone, in process, with the 25 most expensive calls."""
    import cProfile
    import pstats

    from pwscup.pwscup2015.services import round_freeze_request, round_operation_run

    operation = round_freeze_request(round=round_, requested_by=organizer)
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.runcall(round_operation_run, operation_id=operation.pk)
    print(f"freeze operation in process: {time.perf_counter() - started:.2f} s")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    args = parse_args()
    sys.path.insert(0, str(REPO))
    with tempfile.TemporaryDirectory(prefix="bench-freeze-") as media:
        env = configure(args, Path(media))
        if args.from_template:
            from production import database_created

            drop_database(args.database_url)
            database_created(*args.database_url.rsplit("/", 1), env)
        else:
            create_database(args.database_url)
        worker = None
        try:
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)  # with --from-template: nothing to apply
            round_, organizer = build_round(args)
            if args.profile:
                profile_freeze(round_, organizer)
                return
            worker = start_worker(args, env, Path(media) / "worker.log")
            cpu_before, load_before = worker_cpu_seconds(worker), os.getloadavg()[0]
            result = measure(round_, organizer)
            result["cpu_s"] = worker_cpu_seconds(worker) - cpu_before
            result["load"] = (load_before, os.getloadavg()[0])
        finally:
            if worker is not None:
                worker.terminate()
                worker.wait(timeout=30)
            from django.db import connections

            connections.close_all()
            drop_database(args.database_url)
    ok = (
        result["operation"] == "finished"
        and result["builtin_failed"] == 0
        and result["all_builtin_s"] <= TARGET_SECONDS
    )
    print(
        f"\nfreeze of {args.teams} teams x {args.rows:,} rows, {args.concurrency} worker processes:"
        f"\n  request returned in      {result['request_s'] * 1000:8.1f} ms"
        f"\n  freeze finished after    {result['freeze_s']:8.1f} s   ({result['result']})"
        f"\n  all built-in attacks in  {result['all_builtin_s']:8.1f} s   "
        f"({result['targets']} targets, {result['builtin_failed']} failed)"
        f"\n  target                   {TARGET_SECONDS:8.1f} s   -> {'OK' if ok else 'MISSED'}"
        f"\n  worker CPU time          {result['cpu_s']:8.1f} s   (about "
        f"{result['cpu_s'] / args.concurrency:.0f} s of wall time on {args.concurrency} idle "
        f"cores; load average {result['load'][0]:.1f} at the start, "
        f"{result['load'][1]:.1f} at the end)"
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
