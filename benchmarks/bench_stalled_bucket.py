"""Field test 3: the bucket frozen for a minute under the production stack.

What it does, all on this machine, with the production settings (their storage timeouts,
retries and write slots as shipped) behind Debian's nginx:

* the bucket is moto's S3 server (``tests/s3.py``) in a process of its own, reached through
  the standard ``AWS_STORAGE_BUCKET_NAME`` / ``AWS_S3_ENDPOINT_URL`` variables by gunicorn
  (``scripts/docker/gunicorn.conf.py``, ``--workers`` x ``--threads``) and by one Celery
  worker; PostgreSQL (a database of this run, created and dropped here) and Redis
  (databases 9 and 10 of ``--redis``, this run's keys deleted at the end);
* one competition, its round (the first 1,000 rows of Adult) open for uploads, ``--teams``
  teams of one member each with an API token;
* from 5 s before the freeze (``--lead-seconds``) until 10 s after it (``--tail-seconds``),
  each team uploads a valid anonymization (a different noisy copy each time) every
  ``--upload-every`` seconds (teams staggered), through the address the command-line client
  uses: the round's ``status/`` in the API lists the submission types and their upload URLs
  (``pwscup.client``);
* from 5 s before the freeze until 5 s after it (half the uploads' tail), a visitor (not logged in) opens the round's
  Overview and the competition page in turn every 0.5 s, and /healthz is asked every second;
  every request is started on time (open loop: a stalled one does not delay the next);
* the bucket is frozen with SIGSTOP on moto's server for ``--freeze-seconds`` (the kernel
  still accepts its connections, nothing answers), then thawed with SIGCONT.

Then, once every upload has its answer and /healthz answers 200 again, it waits for the
accepted uploads to be scored and checks, by the SHA-256 of what was sent: every upload
answered 2xx has its row, its object in the bucket (same bytes) and its scores (nothing
accepted lost); every upload answered 503 left no row and, once the worker has deleted what
the bucket stored of a write it answered too late (within ``DISCARDED_WITHIN_S``), no object.

Targets (printed PASS/FAIL, never a failing exit for timing), on the requests started while
the bucket was frozen: every visitor page answered 200 within 1 s; /healthz answered 503
within 2 s each time (those asked in the last 2 s before the thaw may rightly see the bucket
answer again, and are not judged); nothing accepted lost and nothing kept for a refused
upload. The exit
status is 1 only when the correctness checks fail (an accepted upload lost, a refused one
kept), so the test suite can run it as a smoke test; 0 otherwise.

The load runs on the same 2 cores as the servers, and so does whatever else this machine
runs: the load average is printed beside the figures.

Usage::

    .venv/bin/python benchmarks/bench_stalled_bucket.py                  # 60 s, 5 teams
    .venv/bin/python benchmarks/bench_stalled_bucket.py --freeze-seconds 5 --teams 2
    .venv/bin/python benchmarks/bench_stalled_bucket.py --json stalled.json

Needs PostgreSQL (``--database``, a server where it may create a database), Redis
(``--redis``) and nginx (``/usr/sbin/nginx``); ``--no-nginx`` talks to gunicorn directly.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
from bench_rush import (  # noqa: E402 - after the path
    clean_redis,
    fmt,
    free_port,
    nginx_command,
    percentile,
    redis_url,
    round_with_phases,
    start,
    stop_all,
    tail,
    wait_healthy,
)
from production import admin_sql, database_migrated, production_environment  # noqa: E402

PYTHON = sys.executable
ROWS = 1000  # of the round's original and of every upload
LEAD_S = 5.0  # load before the freeze (--lead-seconds)
UPLOAD_TAIL_S = 10.0  # uploads after the thaw, accepted ones scored then (--tail-seconds)
# Visitor pages and /healthz go on after the thaw for half of the uploads' tail (5 s).
VISITOR_EVERY_S, HEALTHZ_EVERY_S = 0.5, 1.0
CLIENT_TIMEOUT_S = 120.0  # longer than gunicorn's worker timeout: a hang shows as no answer
SCORED_WITHIN_S = 300.0  # after the thaw, for the accepted uploads to be scored
# Then, for the worker to delete what the bucket stored of a refused upload after refusing it
# (a write it answered too late: pwscup.core.storage.stored_file_discard_later): its retries
# while the bucket stalled (10, 20, 40 s) and its second delete (a minute after the first).
DISCARDED_WITHIN_S = 180.0
BROKER_DB, CACHE_DB = 9, 10
VISITOR_MAX_S, HEALTHZ_MAX_S = 1.0, 2.0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--freeze-seconds", type=float, default=60, help="the bucket frozen")
    parser.add_argument("--teams", type=int, default=5, help="teams uploading")
    parser.add_argument("--lead-seconds", type=float, default=LEAD_S, help="load before the freeze")
    parser.add_argument(
        "--tail-seconds",
        type=float,
        default=UPLOAD_TAIL_S,
        help="uploads after the thaw (visitor pages and /healthz: half of it)",
    )
    parser.add_argument(
        "--upload-every", type=float, default=4.0, help="seconds between a team's uploads"
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--no-nginx", action="store_true", help="talk to gunicorn directly")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    return parser.parse_args()


# --- Data, through the services ------------------------------------------------------------


def build(args) -> dict:
    """The open round, its teams (one member, one API token each); the visitor's pages."""
    from bench_freeze import original_bytes
    from django.urls import reverse

    from pwscup.accounts.services import membership_add, user_create
    from pwscup.api.services import api_token_create

    organizer = user_create(username="stall-organizer", password=secrets.token_urlsafe(12))
    competition, round_, _phase, _attack, teams = round_with_phases(
        "stall", organizer, original_bytes(ROWS), args.teams, frozen_round=False
    )
    tokens = []
    for t, team in enumerate(teams):
        user = user_create(username=f"stall-{t:03d}", password=secrets.token_urlsafe(12))
        membership_add(team=team, user=user)
        tokens.append(api_token_create(user=user, name="bench").secret)
    return {
        "tokens": tokens,
        "round": (competition.slug, round_.slug),
        "visitor": [
            reverse("round_detail", args=[competition.slug, round_.slug]),
            reverse("competition_detail", args=[competition.slug]),
        ],
    }


def upload_bodies(count: int) -> list[bytes]:
    """``count`` valid anonymizations, all different: noisy copies of the original."""
    import io

    import pandas as pd
    from bench_freeze import noisy_copy, original_bytes

    table = pd.read_csv(io.BytesIO(original_bytes(ROWS)), dtype=str, keep_default_na=False)
    return [noisy_copy(table, seed=n) for n in range(count)]


def upload_address(base: str, token: str, round_ref: tuple[str, str]) -> str:
    """Where the command-line client sends a file: the round's status lists its types."""
    from pwscup.client.session import round_path
    from pwscup.client.transport import Api
    from pwscup.client.uploads import choose_type

    status = Api(base, token).get(round_path(round_ref, "status/"))
    return Api(base, token).url(choose_type(status, None)["url"])


# --- The load --------------------------------------------------------------------------------


class Recorder:
    """Requests started on a schedule, each in a thread of a pool (open loop)."""

    def __init__(self):
        import requests

        self.requests = requests
        self.samples: list[dict] = []
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=64)

    def get(self, kind: str, url: str) -> None:
        self.pool.submit(self._call, kind, "GET", url, {})

    def post(self, kind: str, url: str, **options) -> None:
        self.pool.submit(self._call, kind, "POST", url, options)

    def _call(self, kind: str, method: str, url: str, options: dict) -> None:
        meta = options.pop("meta", {})
        started = time.time()
        sample = {"kind": kind, "started": started, **meta}
        try:
            response = self.requests.request(method, url, timeout=CLIENT_TIMEOUT_S, **options)
            sample["status"] = response.status_code
            if "json" in response.headers.get("Content-Type", ""):
                body = response.json()
                sample["code"] = body.get("code") or body.get("storage")
        except self.requests.RequestException as error:
            sample["status"] = None
            sample["error"] = repr(error)[:200]
        sample["seconds"] = time.time() - started
        with self.lock:
            self.samples.append(sample)


def schedule(events: list[tuple[float, callable]]) -> None:
    """Run each ``(epoch, action)`` at its time, in order (each action only starts a request:
    one that waits does not delay the next)."""
    for at, action in sorted(events, key=lambda event: event[0]):
        time.sleep(max(0.0, at - time.time()))
        action()


def run_load(args, base: str, data: dict, s3_pid: int) -> tuple[dict, list[dict]]:
    addresses = [upload_address(base, token, data["round"]) for token in data["tokens"]]
    begin = time.time() + 1.0
    # A quarter of /healthz's period past a whole second: no /healthz is asked at the very
    # moment the bucket stops. One asked then could join the storage check a request just
    # before the freeze had started (the checks are single-flight) and rightly answer 200.
    freeze_at = begin + args.lead_seconds + HEALTHZ_EVERY_S / 4
    page_tail = args.tail_seconds / 2
    thaw_at = freeze_at + args.freeze_seconds
    window = {}

    recorder = Recorder()
    events = []
    t = begin
    n = 0
    while t < thaw_at + page_tail:
        url = base + data["visitor"][n % len(data["visitor"])]
        events.append((t, lambda url=url: recorder.get("visitor", url)))
        t, n = t + VISITOR_EVERY_S, n + 1
    t = begin
    while t < thaw_at + page_tail:
        events.append((t, lambda: recorder.get("healthz", base + "/healthz")))
        t += HEALTHZ_EVERY_S
    uploads = []
    for team, address in enumerate(addresses):
        t = begin + team * args.upload_every / len(addresses)
        while t < thaw_at + args.tail_seconds:
            uploads.append((t, team, address))
            t += args.upload_every
    bodies = upload_bodies(len(uploads))
    for (at, team, address), body in zip(sorted(uploads), bodies, strict=True):
        token = data["tokens"][team]
        meta = {"team": team, "sha256": hashlib.sha256(body).hexdigest()}

        def send(address=address, token=token, body=body, meta=meta):
            recorder.post(
                "upload",
                address,
                files={"file": ("anonymized.csv", body, "text/csv")},
                headers={"Authorization": f"Bearer {token}"},
                meta=meta,
            )

        events.append((at, send))

    def freeze():
        os.kill(s3_pid, signal.SIGSTOP)
        window["frozen_at"] = time.time()
        print(f"bucket frozen for {args.freeze_seconds:.0f} s …", flush=True)

    def thaw():
        os.kill(s3_pid, signal.SIGCONT)
        window["thawed_at"] = time.time()
        print("bucket thawed", flush=True)

    events += [(freeze_at, freeze), (thaw_at, thaw)]
    try:
        schedule(events)
    finally:
        os.kill(s3_pid, signal.SIGCONT)  # never leave the bucket frozen
    recorder.pool.shutdown(wait=True)
    return window, recorder.samples


# --- Checks and figures ---------------------------------------------------------------------


def settle(base: str) -> None:
    """/healthz answers 200 again (the bucket answers once more)."""
    import requests

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if requests.get(base + "/healthz", timeout=10).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    raise SystemExit("/healthz did not answer 200 within 120 s of the thaw")


def check_uploads(samples: list[dict], s3, bucket: str) -> dict:
    """Accepted (2xx) uploads: row, same object, scored. Refused 503: no row, and no object
    once the worker has deleted what a bucket that answered too late stored."""
    from pwscup.pwscup2015.models import AnonymizationSubmission
    from pwscup.submissions.models import Status

    uploads = [s for s in samples if s["kind"] == "upload"]
    accepted = {s["sha256"] for s in uploads if s["status"] and 200 <= s["status"] < 300}
    refused = {s["sha256"] for s in uploads if s["status"] == 503}
    deadline = time.monotonic() + SCORED_WITHIN_S
    while time.monotonic() < deadline:
        pending = AnonymizationSubmission.objects.filter(
            sha256__in=accepted, status__in=[Status.QUEUED, Status.RUNNING]
        ).count()
        if not pending:
            break
        time.sleep(1.0)
    rows = {
        row["sha256"]: row
        for row in AnonymizationSubmission.objects.filter(sha256__in=accepted | refused).values(
            "sha256", "status", "file"
        )
    }
    stored = bucket_digests(s3, bucket)
    # A write the bucket answered too late was refused yet stored: the worker deletes it.
    stored_late = refused & stored.keys()
    deadline = time.monotonic() + DISCARDED_WITHIN_S
    while refused & stored.keys() and time.monotonic() < deadline:
        time.sleep(1.0)
        stored = bucket_digests(s3, bucket)
    lost = []
    for sha in sorted(accepted):
        row = rows.get(sha)
        if row is None:
            lost.append(f"{sha[:12]}: no row")
        elif sha not in stored or stored[sha] != row["file"]:
            lost.append(f"{sha[:12]}: its object is missing or differs")
        elif row["status"] != Status.FINISHED:
            lost.append(f"{sha[:12]}: scoring {row['status']}")
    kept = [
        f"{sha[:12]}: "
        + ", ".join(w for w, hit in (("row", sha in rows), ("object", sha in stored)) if hit)
        for sha in sorted(refused)
        if sha in rows or sha in stored
    ]
    return {
        "accepted": len(accepted),
        "refused 503": len(refused),
        "accepted lost": lost,
        "refused but kept": kept,
        "refused, stored late, deleted": len(stored_late - stored.keys()),
    }


def bucket_digests(s3, bucket: str) -> dict[str, str]:
    """The bucket's objects: the SHA-256 of each one's bytes to its name."""
    return {
        hashlib.sha256(content).hexdigest(): name for name, content in s3.objects(bucket).items()
    }


def figures(samples: list[dict], window: dict) -> dict:
    frozen_from, frozen_to = window["frozen_at"], window["thawed_at"]

    def during(kind: str, until: float) -> list[dict]:
        return [s for s in samples if s["kind"] == kind and frozen_from <= s["started"] < until]

    # A /healthz asked less than HEALTHZ_MAX_S before the thaw may rightly see the bucket
    # answer again: judged are those whose answer was due while the bucket was frozen.
    visitor, health = during("visitor", frozen_to), during("healthz", frozen_to - HEALTHZ_MAX_S)
    visitor_s = [s["seconds"] for s in visitor]
    health_s = [s["seconds"] for s in health]
    by_status: dict[str, int] = {}
    for s in samples:
        if s["kind"] == "upload":
            key = str(s["status"] or "no answer") + (f" {s['code']}" if s.get("code") else "")
            by_status[key] = by_status.get(key, 0) + 1
    health_codes: dict[str, int] = {}
    for s in health:
        health_codes[str(s["status"])] = health_codes.get(str(s["status"]), 0) + 1
    return {
        "visitor": {
            "count": len(visitor),
            "not 200": sum(1 for s in visitor if s["status"] != 200),
            "p50": percentile(visitor_s, 50),
            "p95": percentile(visitor_s, 95),
            "max": max(visitor_s, default=None),
        },
        "healthz": {
            "count": len(health),
            "statuses": health_codes,
            "max": max(health_s, default=None),
        },
        "uploads": {
            "during the freeze": len(during("upload", frozen_to)),
            "in all": sum(1 for s in samples if s["kind"] == "upload"),
            "by status": by_status,
        },
    }


def report(args, window: dict, samples: list[dict], found: dict, checked: dict) -> dict:
    from django.conf import settings

    visitor, health, uploads = found["visitor"], found["healthz"], found["uploads"]
    frozen = window["thawed_at"] - window["frozen_at"]
    print(
        f"\nstalled bucket: frozen {frozen:.1f} s; {args.teams} teams uploading every "
        f"{args.upload_every:g} s; gunicorn {args.workers} workers x {args.threads} threads"
        f"{'' if args.no_nginx else ' behind nginx'}; load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"storage: connect {settings.PWSCUP_STORAGE_CONNECT_TIMEOUT:g} s, read "
        f"{settings.PWSCUP_STORAGE_READ_TIMEOUT:g} s, {settings.PWSCUP_STORAGE_RETRIES} retries, "
        f"{settings.PWSCUP_STORAGE_WRITE_SLOTS} write slots per process; /healthz within "
        f"{settings.PWSCUP_HEALTHZ_TIMEOUT:g} s"
    )
    print(
        f"visitor pages while frozen: {visitor['count']} ({visitor['not 200']} not 200); "
        f"p50 {fmt(visitor['p50'], 3)} s, p95 {fmt(visitor['p95'], 3)} s, "
        f"max {fmt(visitor['max'], 3)} s"
    )
    print(
        f"/healthz while frozen: {health['count']}, statuses {health['statuses']}, "
        f"max {fmt(health['max'], 3)} s"
    )
    print(
        f"uploads: {uploads['in all']} ({uploads['during the freeze']} started while frozen); "
        f"answers {uploads['by status']}"
    )
    print(
        f"accepted {checked['accepted']}, refused 503 {checked['refused 503']}; "
        f"accepted lost {len(checked['accepted lost'])}, refused but kept "
        f"{len(checked['refused but kept'])} (stored late and deleted: "
        f"{checked['refused, stored late, deleted']})"
    )
    for line in checked["accepted lost"] + checked["refused but kept"]:
        print(f"  {line}")
    health_ok = (
        health["count"] > 0
        and set(health["statuses"]) == {"503"}
        and health["max"] is not None
        and health["max"] <= HEALTHZ_MAX_S
    )
    targets = [
        (
            f"visitor page 200 within {VISITOR_MAX_S:g} s throughout",
            visitor["count"] > 0
            and visitor["not 200"] == 0
            and visitor["max"] is not None
            and visitor["max"] <= VISITOR_MAX_S,
            f"max {fmt(visitor['max'], 3)} s, {visitor['not 200']} not 200",
        ),
        (
            f"/healthz 503 within {HEALTHZ_MAX_S:g} s",
            health_ok,
            f"{health['statuses']}, max {fmt(health['max'], 3)} s",
        ),
        (
            "nothing accepted lost, nothing kept for a 503",
            not checked["accepted lost"] and not checked["refused but kept"],
            f"{len(checked['accepted lost'])} lost, {len(checked['refused but kept'])} kept",
        ),
    ]
    print("\ntargets")
    for label, ok, detail in targets:
        print(f"  {'PASS' if ok else 'FAIL'}  {label}: {detail}")
    return {
        "config": {
            "freeze_seconds": args.freeze_seconds,
            "frozen_s": frozen,
            "teams": args.teams,
            "upload_every": args.upload_every,
            "workers": args.workers,
            "threads": args.threads,
            "nginx": not args.no_nginx,
            "storage": {
                name: getattr(settings, f"PWSCUP_STORAGE_{name.upper()}")
                for name in ("connect_timeout", "read_timeout", "retries", "write_slots")
            },
            "healthz_timeout": settings.PWSCUP_HEALTHZ_TIMEOUT,
            "load_average": os.getloadavg()[0],
        },
        **found,
        "checks": checked,
        "samples": [
            {**s, "started": s["started"] - window["frozen_at"]}  # seconds from the freeze
            for s in sorted(samples, key=lambda s: s["started"])
        ],
        "targets": [{"target": t, "pass": ok, "detail": d} for t, ok, d in targets],
    }


# --- Orchestration -------------------------------------------------------------------------


def main() -> int:
    args = parse_args()
    from tests.s3 import S3Server

    signal.signal(signal.SIGTERM, signal.default_int_handler)
    name = f"bench_stall_{os.getpid()}"
    scratch = Path(tempfile.mkdtemp(prefix="bench-stall-"))
    gunicorn_port, nginx_port = free_port(), free_port()
    s3 = S3Server(log_path=scratch / "moto.log")
    servers: dict[str, subprocess.Popen] = {}
    created = False
    try:
        s3.start()
        bucket = s3.new_bucket()
        env = {
            **os.environ,
            **production_environment(
                database=args.database,
                name=name,
                port=gunicorn_port,
                scratch=scratch,
                workers=args.workers,
                threads=args.threads,
                broker_url=redis_url(args.redis, BROKER_DB),
                cache_url=redis_url(args.redis, CACHE_DB),
            ),
            **s3.env(bucket),
        }
        os.environ.update(env)
        created = True  # from here on, the cleaning drops the database
        database_migrated(args.database, name, env)
        import django

        django.setup()
        from django.db import connections

        data = build(args)
        connections.close_all()
        gunicorn = str(Path(PYTHON).parent / "gunicorn")
        servers["gunicorn"] = start(
            [gunicorn, "--config", "scripts/docker/gunicorn.conf.py", "pwscup.wsgi:application"],
            env,
            scratch / "gunicorn.log",
        )
        servers["celery"] = start(
            [
                *(PYTHON, "-m", "celery", "-A", "pwscup", "worker", "-Q", name),
                *("-n", f"{name}@%h", "--concurrency", "1", "--loglevel", "WARNING"),
            ],
            env,
            scratch / "celery.log",
        )
        base = f"http://127.0.0.1:{gunicorn_port}"
        if not args.no_nginx:
            servers["nginx"] = start(
                nginx_command(scratch, gunicorn_port, nginx_port), env, scratch / "nginx.log"
            )
            base = f"http://127.0.0.1:{nginx_port}"
        wait_healthy(base, servers)
        print(f"servers up: {base}, bucket {bucket} at {s3.endpoint_url}", flush=True)

        window, samples = run_load(args, base, data, s3.process.pid)
        settle(base)
        print("waiting for the accepted uploads to be scored …", flush=True)
        checked = check_uploads(samples, s3, bucket)
        connections.close_all()
        found = figures(samples, window)
        result = report(args, window, samples, found, checked)
        if args.json:
            args.json.write_text(json.dumps(result, indent=2, default=str))
            print(f"\nfigures written to {args.json}")
        return 1 if checked["accepted lost"] or checked["refused but kept"] else 0
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BaseException:
        for log in ("gunicorn.log", "celery.log", "nginx/error.log", "moto.log"):
            if text := tail(scratch / log, 2000):
                print(f"--- end of {log} ---\n{text}", file=sys.stderr)
        raise
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):  # a second one must not stop the cleaning
            signal.signal(sig, signal.SIG_IGN)
        print("cleaning up …", flush=True)
        if s3.process is not None:
            os.kill(s3.process.pid, signal.SIGCONT)
        stop_all(servers.values())
        s3.stop()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        try:
            clean_redis(args, name)
        except Exception as error:  # noqa: BLE001 - cleaning must not hide the figures
            print(f"could not clean Redis: {error}")
        if created:
            admin_sql(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
