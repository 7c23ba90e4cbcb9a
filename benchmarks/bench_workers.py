"""Benchmark: scoring throughput with 1, 2 and 3 worker hosts, files in an S3 bucket; and
what the bucket costs one job against the local disk.

The worker hosts are network namespaces with no shared folder (``tests/hosts.py``, the
multi-host test's harness): each runs ``celery worker --concurrency 1`` on production
settings and reaches PostgreSQL through a forwarder, and a Redis (broker and cache) and
moto's S3 server (``tests/s3.py``) on the root side of their LAN. This process builds, in a
database of its own, one round per size (``--sizes``, 8,333 and 100,000 rows by default:
Adult's rows resampled with replacement, generated at run time) with its original in the
bucket, and ``--uploads`` noisy copies of it (valid anonymizations) uploaded through the
services, so every file is an object of the bucket.

Throughput: for each number of worker hosts (``--hosts``), the workers are started (each
prepares the open rounds' originals at start, as in production) and, per size, every upload
is queued for scoring at once (the organizers' rescore, one transaction); measured from that
moment until the last job finished (the workers' ``finished_at``). Printed: uploads per
minute, the median job (claim to scores), and how many jobs each host ran.

The bucket against the disk: in this process, with no worker running, the same upload of the
same original is stored, read and scored once with the bucket as default storage and once
with ``FileSystemStorage`` on the local disk (``--cost-runs`` times, medians): storing the
upload (the web server's write), reading it back and reading the original (the worker's
reads), and three jobs: the usual one (the process has the original prepared: read the
upload, score, save), a new process's first (the prepared original loaded from the host's
disk cache) and a new host's first (the original read from storage and prepared).

moto's server is a stand-in for a real S3 or MinIO: it runs on the same cores, in Python,
and keeps objects in memory, so the bucket's figures are those of an S3 server on the
machine, not of a remote one. Everything shares the machine's cores: with 2 cores, a third
worker host cannot add throughput.

Usage (as root: namespaces need it; socat must be installed)::

    .venv/bin/python benchmarks/bench_workers.py
    .venv/bin/python benchmarks/bench_workers.py --sizes 8333 --uploads 120 --hosts 1,2

Needs PostgreSQL (``--database``, a server where it may create and drop a database); it
starts its own Redis and S3 servers and removes its namespaces, database and files at the end.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
from production import admin_sql, database_created, production_environment  # noqa: E402

PYTHON = sys.executable
PASSWORD = "bench-workers-pw"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8333,100000", help="rows of the originals")
    parser.add_argument(
        "--uploads",
        default="120,30",
        help="uploads scored per size and number of hosts (one number: every size)",
    )
    parser.add_argument("--hosts", default="1,2,3", help="numbers of worker hosts to measure")
    parser.add_argument("--cost-runs", type=int, default=5, help="bucket vs disk repetitions")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per measurement")
    args = parser.parse_args()
    args.sizes = [int(size) for size in args.sizes.split(",")]
    uploads = [int(n) for n in args.uploads.split(",")]
    if len(uploads) == 1:
        uploads *= len(args.sizes)
    if len(uploads) != len(args.sizes):
        parser.error("--uploads: one number, or one per size")
    args.uploads = dict(zip(args.sizes, uploads, strict=True))
    args.hosts = [int(n) for n in args.hosts.split(",")]
    return args


def resampled_original(rows: int, *, seed: int = 0) -> bytes:
    """``rows`` rows of Adult drawn with replacement: an original of any size."""
    import pandas as pd

    adult = pd.read_csv(REPO / "fixtures" / "adult.csv", dtype=str, keep_default_na=False)
    table = adult.sample(n=rows, replace=True, random_state=seed).reset_index(drop=True)
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue().encode()


def build(args) -> dict:
    """An organizer, one team, a round per size (original in the default storage) and its
    uploads, through the services; no worker runs yet (their messages are purged)."""
    import pandas as pd
    from bench_freeze import noisy_copy
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.db import transaction

    from pwscup import celery_app
    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.pwscup2015 import services

    organizer = user_create(username="bench-organizer", password=PASSWORD)
    member = user_create(username="bench-member", password=PASSWORD)
    competition = competition_create(name="Bench", slug="bench", organizers=[organizer])
    team = team_create(competition=competition, name="Team A", slug="team-a")
    membership_add(team=team, user=member)
    rounds = {}
    for rows in args.sizes:
        started = time.perf_counter()
        original = resampled_original(rows)
        phase = open_round(competition=competition, rows=rows, slug=f"r{rows}", original=original)
        table = pd.read_csv(io.BytesIO(original), dtype=str, keep_default_na=False)
        with transaction.atomic():
            for k in range(args.uploads[rows]):
                services.anonymization_submission_create(
                    phase=phase,
                    team=team,
                    user=member,
                    uploaded_file=SimpleUploadedFile("anonymized.csv", noisy_copy(table, k)),
                )
        rounds[rows] = {"phase": phase, "team": team, "user": member}
        print(
            f"built the {rows:,}-row round and {args.uploads[rows]} uploads "
            f"in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
    celery_app.control.purge()  # their first messages: each measurement queues its own
    return rounds


def host_environment(host, base: dict, *, gateway: str, database_port: int) -> dict:
    """``base`` (this process's settings) as a worker host sees it: every server through
    the LAN, folders of its own."""
    url = urllib.parse.urlsplit(base["DATABASE_URL"])
    auth = url.username + (f":{url.password}" if url.password else "")
    env = {
        **os.environ,
        **base,
        "DATABASE_URL": url._replace(netloc=f"{auth}@{gateway}:{database_port}").geturl(),
        "DJANGO_STATIC_ROOT": str(host.folder / "static"),
    }
    return host.env(env)


def start_workers(hosts, base: dict, *, gateway: str, database_port: int, name: str) -> set:
    from pwscup import celery_app

    names = set()
    for index, host in enumerate(hosts, start=1):
        worker = f"w{index}@{name}"
        host.start(
            [
                *(PYTHON, "-m", "celery", "-A", "pwscup", "worker"),
                *("--concurrency", "1", "--loglevel", "WARNING"),
                *("-Q", base["CELERY_QUEUE"], "-n", worker),
            ],
            env=host_environment(host, base, gateway=gateway, database_port=database_port),
            label="worker",
        )
        names.add(worker)
    deadline = time.monotonic() + 120
    while True:
        replies = celery_app.control.ping(timeout=0.5) or []
        if names <= {worker for reply in replies for worker in reply}:
            return names
        if time.monotonic() > deadline:
            logs = "\n".join(host.log_path("worker").read_text()[-1500:] for host in hosts)
            raise SystemExit(f"the workers did not answer:\n{logs}")


def drain(entry: dict, *, timeout: float) -> dict:
    """Queue every upload of the round at once; wait until all are scored."""
    from django.db import transaction

    from pwscup.pwscup2015.models import AnonymizationSubmission
    from pwscup.pwscup2015.services.anonymization import anonymizations_rescore
    from pwscup.submissions.models import Status

    uploads = AnonymizationSubmission.objects.filter(phase=entry["phase"])
    sent = time.time()
    with transaction.atomic():  # every message is sent at the commit
        count = anonymizations_rescore(queryset=uploads)
    deadline = time.monotonic() + timeout
    while uploads.filter(status__in=(Status.QUEUED, Status.RUNNING)).exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"the uploads were not scored within {timeout:.0f} s")
        time.sleep(0.1)
    jobs = list(uploads.values_list("status", "worker", "started_at", "finished_at"))
    last = max(finished.timestamp() for _status, _worker, _started, finished in jobs)
    per_host = Counter(worker.split("@")[0] for _status, worker, _started, _finished in jobs)
    return {
        "uploads": count,
        "seconds": last - sent,
        "per_minute": count / (last - sent) * 60,
        "job_median": statistics.median((f - s).total_seconds() for _st, _w, s, f in jobs),
        "failed": sum(status != Status.FINISHED for status, *_rest in jobs),
        "per_host": dict(sorted(per_host.items())),
    }


def storage_cost(entry: dict, *, rows: int, runs: int, disk_folder: Path) -> dict:
    """The same upload of the same original, stored, read and scored in this process with
    the bucket, then with the local disk, as default storage: medians of ``runs``."""
    import uuid

    import pandas as pd
    from bench_freeze import noisy_copy
    from django.conf import settings
    from django.core.files.base import ContentFile
    from django.core.files.storage import default_storage
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test.utils import override_settings

    from pwscup.core.files import opened
    from pwscup.pwscup2015 import services

    original = resampled_original(rows)
    table = pd.read_csv(io.BytesIO(original), dtype=str, keep_default_na=False)
    upload = noisy_copy(table, 1)
    disk = {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(disk_folder)},
    }
    results = {}
    for label, storage in (("bucket", settings.STORAGES["default"]), ("disk", disk)):
        with override_settings(STORAGES={**settings.STORAGES, "default": storage}):
            # A round of its own: its original is kept in this storage.
            phase = open_round(
                competition=entry["phase"].round.competition,
                rows=rows,
                slug=f"cost-{label}-{rows}",
                original=original,
            )
            times = {key: [] for key in COST_ROWS}
            for _run in range(runs):
                name = f"bench/{uuid.uuid4().hex}.csv"
                started = time.perf_counter()
                default_storage.save(name, ContentFile(upload))
                times["store the upload"].append(time.perf_counter() - started)
                default_storage.delete(name)
            submission = services.anonymization_submission_create(
                phase=phase,
                team=entry["team"],
                user=entry["user"],
                uploaded_file=SimpleUploadedFile("anonymized.csv", upload),
            )
            score(submission)  # once untimed: what a process does once (imports, caches)
            for _run in range(runs):
                for key, field in (
                    ("read the upload", submission.file),
                    ("read the original", phase.round.original_file),
                ):
                    started = time.perf_counter()
                    with opened(field) as handle:
                        handle.read()
                    times[key].append(time.perf_counter() - started)
                for key, forget in JOBS.items():
                    forget()
                    started = time.perf_counter()
                    score(submission)
                    times[key].append(time.perf_counter() - started)
            results[label] = {key: statistics.median(values) for key, values in times.items()}
    return results


def score(submission) -> None:
    """Score ``submission`` again in this process, as a worker does."""
    from pwscup.pwscup2015 import services
    from pwscup.pwscup2015.models import AnonymizationSubmission
    from pwscup.submissions.models import Status
    from pwscup.submissions.services.jobs import job_reset

    job_reset(model=AnonymizationSubmission, pks=[submission.pk])
    services.anonymization_submission_score(submission_id=submission.pk)
    submission.refresh_from_db()
    if submission.status != Status.FINISHED:
        raise SystemExit(f"the job failed: {submission.message}")


def _forget_nothing() -> None:
    pass


def _forget_process() -> None:
    from pwscup.pwscup2015.prepared import prepared_cache_clear

    prepared_cache_clear(host=False)


def _forget_host() -> None:
    from pwscup.pwscup2015.prepared import prepared_cache_clear

    prepared_cache_clear()


# The jobs timed, and what is forgotten before each: nothing (the usual job: the process
# has the original prepared), the process's memory (a new process: the host's disk cache has
# it), everything (a new host: the original is read from storage and prepared).
JOBS = {
    "job, original prepared": _forget_nothing,
    "first job of a process": _forget_process,
    "first job of a new host": _forget_host,
}


COST_ROWS = ("store the upload", "read the upload", "read the original", *JOBS)


def open_round(*, competition, rows: int, slug: str, original: bytes):
    """A round over ``original`` whose anonymization phase is open; that phase."""
    import datetime as dt
    import json

    from django.utils import timezone

    from pwscup.competitions.models import Phase
    from pwscup.competitions.services import phase_set
    from pwscup.kinds.round_basics import RoundBasics
    from pwscup.pwscup2015.services.rounds import round_create

    now, hour = timezone.now(), dt.timedelta(hours=1)
    round_ = round_create(
        basics=RoundBasics(competition=competition, name=f"{slug} ({rows:,} rows)", slug=slug),
        original=original,
        original_filename="original.csv",
        config_raw=json.loads((REPO / "fixtures" / "adult_round.json").read_text()),
        auto_freeze=False,
    )
    phase_set(round=round_, kind=Phase.Kind.ATTACK, opens_at=now + hour, closes_at=now + 2 * hour)
    return phase_set(
        round=round_, kind=Phase.Kind.ANONYMIZATION, opens_at=now - hour, closes_at=now + hour
    )


def print_throughput(args, measured: dict) -> None:
    print("\nscoring throughput: every upload queued at once, until the last is scored")
    print(
        f"{'rows':>9} {'hosts':>5} {'uploads':>7} {'seconds':>8} {'per min':>8} "
        f"{'job p50':>8} {'failed':>6}  jobs per host"
    )
    for (rows, hosts), m in sorted(measured.items()):
        spread = ", ".join(f"{host} {n}" for host, n in m["per_host"].items())
        print(
            f"{rows:>9,} {hosts:>5} {m['uploads']:>7} {m['seconds']:>8.1f} "
            f"{m['per_minute']:>8.1f} {m['job_median']:>8.3f} {m['failed']:>6}  {spread}"
        )


def print_cost(costs: dict) -> None:
    for rows, result in costs.items():
        print(f"\nthe bucket against the local disk, one {rows:,}-row job (medians, s)")
        print(f"{'':<26}{'bucket':>9}{'disk':>9}{'bucket-disk':>13}")
        for key in COST_ROWS:
            bucket, disk = result["bucket"][key], result["disk"][key]
            print(f"{key:<26}{bucket:>9.3f}{disk:>9.3f}{bucket - disk:>+13.3f}")
        share = result["bucket"]["read the upload"] / result["bucket"]["job, original prepared"]
        print(f"reading the upload is {share:.0%} of the usual job on the bucket")


def main() -> int:
    args = parse_args()
    from tests.hosts import HostNetwork, unavailable_reason

    reason = unavailable_reason()
    if reason:
        raise SystemExit(reason)
    from tests.pwscup.brokers import RedisServer

    name = f"bench_workers_{os.getpid()}"
    scratch = Path(tempfile.mkdtemp(prefix="bench-workers-"))
    database = urllib.parse.urlsplit(args.database)
    started = time.monotonic()
    load_before = os.getloadavg()
    measured, costs = {}, {}
    with HostNetwork(folder=scratch / "lan") as lan:
        redis = RedisServer(host=lan.gateway)
        base = production_environment(
            database=args.database,
            name=name,
            port=0,  # no web server
            scratch=scratch / "root",
            workers=1,
            broker_url=redis.url,
            cache_url=redis.url,
        )
        base["PWSCUP_MAX_STORED_BYTES_PER_TEAM"] = str(1 << 40)  # one team uploads them all
        # Before the settings module is first imported (tests.s3 imports it): it reads these.
        os.environ.update(base)
        from tests.s3 import S3Server

        s3 = S3Server(log_path=lan.log_folder / "moto.log", host=lan.gateway)
        created = False
        try:
            redis.start()
            s3.start()
            bucket = s3.new_bucket()
            base.update(s3.env(bucket))  # the worker hosts' storage
            database_created(args.database, name, dict(os.environ))
            created = True
            import django
            from django.conf import settings

            django.setup()
            # This process's storage is the bucket too (read when first used, after this).
            settings.STORAGES = {**settings.STORAGES, "default": s3.storage(bucket)}
            rounds = build(args)
            database_port = lan.forward(database.port or 5432, target=database.hostname)
            hosts = [lan.add_host(f"w{index}") for index in range(1, max(args.hosts) + 1)]
            for count in args.hosts:
                start_workers(
                    hosts[:count], base, gateway=lan.gateway, database_port=database_port, name=name
                )
                for rows, entry in rounds.items():
                    measured[(rows, count)] = drain(entry, timeout=args.timeout)
                    m = measured[(rows, count)]
                    print(
                        f"{count} worker host(s), {rows:,} rows: {m['per_minute']:.1f} uploads/min",
                        flush=True,
                    )
                for host in hosts[:count]:
                    host.stop()
            for rows, entry in rounds.items():
                costs[rows] = storage_cost(
                    entry, rows=rows, runs=args.cost_runs, disk_folder=scratch / "disk"
                )
        finally:
            lan.close()  # nothing may hold the database when it is dropped
            if created:
                from django.db import connections

                connections.close_all()
                admin_sql(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            s3.stop()
            redis.kill()
    shutil.rmtree(scratch, ignore_errors=True)
    print_throughput(args, measured)
    print_cost(costs)
    print(
        f"\n{os.cpu_count()} cores; load average {load_before[0]:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after; {time.monotonic() - started:.0f} s in all"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
