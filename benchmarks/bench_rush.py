"""Load benchmark of a deadline rush: 100 teams, 300 logged-in users, 100 uploads in a minute.

What it measures, all on this machine, with the production settings behind Debian's nginx:

* every page a user opens, from the client (Locust) and from the server (nginx's
  ``$request_time``, logged in the bench's own nginx configuration), per page kind: the
  round page, the Submit tab, the leaderboard, the attack matrix, the final ranking, the
  live poll answered unchanged (304) or changed (200), the jobs fragment it then fetches,
  and the upload's POST: count, p50/p95/p99 and errors;
* upload → scores visible, as the browser sees it: from opening the Submit tab until the
  page's script (static/live.js) shows the new submission finished, with the server's queue
  and scoring times beside.

The load drives the pages as a browser does: it reads the upload form's action and hidden
fields from the Submit tab, and the live box's poll address, ETag and fragment address
from the page it lands on, so a moved form or box breaks the smoke run of the test suite
(``tests/pwscup/test_bench_smoke_rush.py``), not a benchmark nobody runs.
* the CPU split over the load window: CPU seconds of gunicorn (master + workers), the Celery
  worker (+ its pool), PostgreSQL (this database's backends, the shared background
  processes; other databases' backends apart), redis-server, nginx and the load tool,
  read from /proc (utime + stime of each process tree, sampled twice a second).

The data (a PostgreSQL database of its own, created and dropped here), built through the
services: one competition whose round (the first 8,333 rows of Adult) has ``--teams``
teams of ``--members`` users each (3 by default) and an open anonymization phase, every team already with
``--history`` finished submissions (tiny files completed with generated scores through
``job_claim``/``job_complete``, not scored); and a second competition whose round of
``--matrix-teams`` teams is frozen with every target attacked by every other team and its
results published (the attack matrix and the final ranking).

The servers: gunicorn (``scripts/docker/gunicorn.conf.py``, ``--workers`` × ``--threads``,
production settings) behind nginx (``scripts/docker/nginx.conf``, upstream and listen
address changed to loopback ports), one Celery worker (``--concurrency``) on a queue of this
run, the cache and the broker on Redis databases 10 and 9 of ``--redis`` (this run's keys are
deleted at the end).

The load (Locust 2.47.0, in a process of its own): 300 users (3 per team, each from its own
loopback address, 127.0.x.y: nginx limits connections per address) log in as a browser sent
to the login form by the round page (the form, the log-in, the round page: before the window,
not in its figures; a log-in the server sheds with a 503 is sent again after its
``Retry-After``, as its user would, and counted apart), then, during ``--seconds``:

* each user opens a page every 10 s with constant pacing (first one at a random moment of
  the first 10 s): the round page 50 %, the leaderboard 30 %, the attack matrix 10 %, the
  final ranking 10 %;
* one member of each team opens the Submit tab and uploads a noisy copy of the 8,333 rows
  (a valid anonymization, one file per team) through its form, the uploads spread evenly
  over 60 s (or two thirds of ``--seconds`` if shorter); the browser follows the redirect
  (the Submit tab or the page after the upload, shed with a 503, is opened again after its
  ``Retry-After``, as its user would; every shed answer still counts in the figures);
* while its team's upload is being scored, each of the team's 3 users (the others with the
  Submit tab open) polls as the page's script does: the live address with
  ``If-None-Match`` of the last ETag (an unchanged team is an empty 304), and when it
  changed the box's fragment (the uploader with ``&watch=`` of its notice); once a second
  for 10 s after a change, then ×1.5 up to every 5 s; it stops once nothing is pending.

After the window, page views stop; the last uploads' polls go on until their scores are
visible (at most 60 s more, not in the CPU window).

Targets (printed PASS/FAIL, never asserted; judged on the client's figures; N/A when
nothing was measured): no error; p95 ≤ 150 ms for the pages (round page, Submit tab,
leaderboard, matrix, final and the fragment); p95 ≤ 20 ms for the poll answered 304 (there
are 304s only when a job is still pending a second after the page showed it: an upload
scored at once is seen finished by its first poll); upload → visible p95 ≤ 3 s.

The load tool runs on the same 2 cores as the servers (its CPU is in the split), and so does
whatever else this machine runs (the machine's busy time is printed beside): the server-side
times from nginx are printed beside the client's for that reason.

Usage::

    .venv/bin/pip install locust==2.47.0      # or: pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_rush.py                      # 100 teams, 90 s
    .venv/bin/python benchmarks/bench_rush.py --teams 5 --matrix-teams 5 --seconds 20
    .venv/bin/python benchmarks/bench_rush.py --json rush.json     # the figures as JSON too

Needs PostgreSQL (``--database``, a server where it may create a database), Redis
(``--redis``) and nginx (``/usr/sbin/nginx``, Debian's ``nginx-light``). ``--keep`` keeps the
database and the temporary folder (its path is printed).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urljoin

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
from pages import logged_in, read_page, upload_form  # noqa: E402 - after the path
from production import admin_sql, database_migrated, production_environment  # noqa: E402

PYTHON = sys.executable
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

ROWS = 8333  # of the open round's original and of every upload
PACE_S = 10.0  # a user opens a page every PACE_S seconds
MIX = {"round page": 50, "leaderboard": 30, "matrix": 10, "final": 10}
UPLOAD_SPREAD_S = 60.0
DRAIN_S = 60.0  # after the window, how long the last uploads may take to show their scores
BROKER_DB, CACHE_DB = 9, 10
# The page's script (static/pwscup.js): polls once a second for 10 s after a change, then
# backs off ×1.5 up to 5 s; after an error, at least 1.5 s, doubling up to 15 s.
POLL_FAST_S, POLL_FAST_FOR_S, POLL_SLOWEST_S, POLL_SLOW_S = 1.0, 10.0, 5.0, 1.5

KINDS = (
    "round page",
    "submit tab",
    "leaderboard",
    "matrix",
    "final",
    "fragment 200",
    "poll 200",
    "poll 304",
    "upload POST",
)
LOGIN_STEPS = ("login page", "login", "after login")  # before the window, apart
LOGIN_TRIES = 10  # a user whose log-in is shed (503) tries again, at most this many times
SHED_WAIT_MAX_S = 30.0  # a longer Retry-After is not waited for
PAGE_KINDS = ("round page", "submit tab", "leaderboard", "matrix", "final", "fragment 200")
PAGE_P95_MS, POLL_304_P95_MS, VISIBLE_P95_S = 150.0, 20.0, 3.0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=100, help="teams of the open round")
    parser.add_argument("--seconds", type=float, default=90, help="the load window")
    parser.add_argument(
        "--members",
        type=int,
        default=3,
        help="users per team: the first uploads, the others follow its jobs",
    )
    parser.add_argument("--history", type=int, default=3, help="finished submissions per team")
    parser.add_argument("--matrix-teams", type=int, default=30, help="teams of the frozen round")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--concurrency", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--spawn-rate", type=float, default=10, help="users started per second")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument(
        "--page-cpu",
        type=int,
        default=100,
        help="sequential requests per page kind to measure gunicorn's CPU per request "
        "(before the load; 0: skip)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--keep", action="store_true", help="keep the database and the temporary folder"
    )
    return parser.parse_args()


# --- Helpers -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def percentile(values, p: float) -> float | None:
    """Nearest-rank percentile (``None`` without values)."""
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def problem(response) -> str:
    """Why a Locust response is a failure: the connection's error, else its status."""
    return str(response.error) if response.error else f"status {response.status_code}"


def shed_wait(response) -> float | None:
    """The seconds a shed answer (503 with a numeric ``Retry-After``, the admission
    control's page) asks to wait before trying again; None for any other answer."""
    if response.status_code != 503:
        return None
    try:
        wait = float(response.headers.get("Retry-After", ""))
    except ValueError:
        return None
    return wait if 0 <= wait <= SHED_WAIT_MAX_S else None


def fmt(value, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def redis_url(base: str, db: int) -> str:
    scheme, _, rest = base.partition("://")
    return f"{scheme}://{rest.split('/')[0]}/{db}"


# --- Data, through the services ------------------------------------------------------------


def fake_scores(i: int) -> dict:
    import scoring

    scores = {
        m: round(((i * 7919 + k * 104729) % 10_000) / 10_000, 6)
        for k, m in enumerate(scoring.METRICS)
    }
    scores["U6"] = i % 40
    scores["S1"] = 1 + i % 5
    return scores


def complete(model, pk: int, **values) -> None:
    """Finish a job as a worker would (claim, complete), with the given results."""
    from pwscup.submissions.models import Status
    from pwscup.submissions.services.jobs import job_claim, job_complete

    token = job_claim(model=model, pk=pk)
    job_complete(model=model, pk=pk, token=token, status=Status.FINISHED, **values)


def csv_file(content: bytes, name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="text/csv")


def round_with_phases(slug: str, organizer, original: bytes, teams: int, *, frozen_round: bool):
    """A competition, its round, its phases (anonymization open) and its teams."""
    import datetime as dt

    from django.utils import timezone

    from pwscup.accounts.services import team_create
    from pwscup.competitions.models import Phase
    from pwscup.competitions.services import competition_create, phase_set
    from pwscup.kinds.round_basics import RoundBasics
    from pwscup.pwscup2015.services.rounds import round_create

    now, hour = timezone.now(), dt.timedelta(hours=1)
    competition = competition_create(name=f"Rush {slug}", slug=slug, organizers=[organizer])
    round_ = round_create(
        basics=RoundBasics(competition=competition, name="Round", slug="r1"),
        original=original,
        original_filename="adult.csv",
        config_raw=json.loads((REPO / "fixtures" / "adult_round.json").read_text()),
        auto_freeze=False,
    )
    anonymization = phase_set(
        round=round_,
        kind=Phase.Kind.ANONYMIZATION,
        opens_at=now - hour,
        closes_at=now + 6 * hour,
        leaderboard_public=True,
    )
    # The frozen round's attack phase is open (its attacks are uploaded); the open round's
    # comes after its anonymization phase.
    attack = phase_set(
        round=round_,
        kind=Phase.Kind.ATTACK,
        opens_at=now - hour if frozen_round else now + 6 * hour,
        closes_at=now + 7 * hour,
    )
    created = [
        team_create(competition=competition, name=f"Team {i:03d}", slug=f"team{i:03d}")
        for i in range(teams)
    ]
    return competition, round_, anonymization, attack, created


def build_open_round(args, organizer, password: str) -> tuple[str, list[dict]]:
    """The rush's round: teams of 3 users, each team with ``--history`` finished uploads."""
    from bench_freeze import original_bytes
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password

    import scoring
    from pwscup.accounts.services import membership_add, user_create
    from pwscup.pwscup2015 import services
    from pwscup.pwscup2015.models import AnonymizationSubmission

    competition, round_, phase, _attack, teams = round_with_phases(
        "rush", organizer, original_bytes(ROWS), args.teams, frozen_round=False
    )
    users = []
    # user_create hashes each password with the production hasher (a quarter of a second
    # each): cheaply here, then every account gets the one real hash (a log-in costs what it
    # costs in production: one full check).
    iterations = PBKDF2PasswordHasher.iterations
    PBKDF2PasswordHasher.iterations = 1000
    try:
        for t, team in enumerate(teams):
            for m in range(args.members):
                user = user_create(username=f"rush-{t:03d}-{m}", password=password)
                membership_add(team=team, user=user)
                i = t * args.members + m
                users.append(
                    {
                        "username": user.username,
                        "team": t,
                        "member": m,
                        "address": f"127.0.{1 + i // 250}.{1 + i % 250}",
                    }
                )
            for n in range(args.history):
                upload = services.anonymization_submission_create(
                    phase=phase,
                    team=team,
                    user=organizer,
                    uploaded_file=csv_file(f"history {t} {n}\n".encode(), "anonymized.csv"),
                )
                complete(
                    AnonymizationSubmission,
                    upload.pk,
                    scores=fake_scores(t * 100 + n),
                    scorer_version=scoring.SCORER_VERSION,
                )
    finally:
        PBKDF2PasswordHasher.iterations = iterations
    get_user_model().objects.filter(username__startswith="rush-").update(
        password=make_password(password)
    )
    return f"/c/{competition.slug}/{round_.slug}/", users


def build_frozen_round(args, organizer) -> str:
    """A frozen round, every target attacked by every other team, results published."""
    import scoring
    from pwscup.pwscup2015 import services
    from pwscup.pwscup2015.models import (
        AnonymizationSubmission,
        AttackSubmission,
        BuiltinAttack,
        Target,
    )

    with open(REPO / "fixtures" / "adult.csv", "rb") as handle:
        original = b"".join(handle.readline() for _ in range(201))
    competition, round_, phase, attack_phase, teams = round_with_phases(
        "rush-final", organizer, original, args.matrix_teams, frozen_round=True
    )
    for t, team in enumerate(teams):
        upload = services.anonymization_submission_create(
            phase=phase, team=team, user=organizer, uploaded_file=csv_file(original, "a.csv")
        )
        complete(
            AnonymizationSubmission,
            upload.pk,
            scores=fake_scores(t),
            scorer_version=scoring.SCORER_VERSION,
        )
    round_.refresh_from_db()
    services.round_freeze(round=round_)
    targets = list(Target.objects.filter(round=round_).select_related("team"))
    for i, target in enumerate(targets):
        rates = {
            m: round(0.05 + ((i * 31 + k * 17) % 50) / 100, 4)
            for k, m in enumerate(scoring.ATTACK_METRICS)
        }
        complete(
            BuiltinAttack,
            target.pk,
            rates=rates,
            scorer_version=scoring.SCORER_VERSION,
        )
    answer = ("guess\n" + "0\n" * targets[0].rows).encode()
    for a, team in enumerate(teams):
        for target in targets:
            if target.team_id == team.pk:
                continue
            attack = services.attack_submission_create(
                phase=attack_phase,
                team=team,
                target=target,
                user=organizer,
                uploaded_file=csv_file(answer, "attack.csv"),
            )
            rate = ((a * 13 + target.pk * 7) % 100) / 100
            complete(
                AttackSubmission,
                attack.pk,
                rate=rate,
                correct=int(rate * target.rows),
                rows=target.rows,
                target_version=target.version,
                scorer_version=scoring.SCORER_VERSION,
            )
    services.round_results_set(round=round_, published=True)
    return f"/c/{competition.slug}/{round_.slug}/"


def upload_files(teams: int, folder: Path) -> list[Path]:
    """One valid anonymization per team: a noisy copy of the round's original."""
    import io

    import pandas as pd
    from bench_freeze import noisy_copy, original_bytes

    table = pd.read_csv(io.BytesIO(original_bytes(ROWS)), dtype=str, keep_default_na=False)
    folder.mkdir()
    paths = []
    for t in range(teams):
        path = folder / f"team{t:03d}.csv"
        path.write_bytes(noisy_copy(table, seed=t))
        paths.append(path)
    return paths


def build(args, scratch: Path) -> dict:
    """Both rounds; returns what the load needs (URLs, users and their uploads)."""
    from pwscup.accounts.services import user_create

    password = secrets.token_urlsafe(12)
    organizer = user_create(username="rush-organizer", password=secrets.token_urlsafe(12))
    started = time.perf_counter()
    rush_url, users = build_open_round(args, organizer, password)
    print(
        f"built the open round: {args.teams} teams × {args.members} users, {args.history} finished "
        f"submissions each, in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    started = time.perf_counter()
    final_url = build_frozen_round(args, organizer)
    print(
        f"built the frozen round: {args.matrix_teams} teams, "
        f"{args.matrix_teams * (args.matrix_teams - 1)} attacks, in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )
    files = upload_files(args.teams, scratch / "uploads")
    spread = min(UPLOAD_SPREAD_S, args.seconds * 2 / 3)
    for user in users:
        if user["member"] == 0:
            user["upload_file"] = str(files[user["team"]])
            user["upload_at"] = (user["team"] + 0.5) * spread / args.teams
    return {
        "password": password,
        "users": users,
        "teams": args.teams,
        "spread": spread,
        "urls": {
            "round page": rush_url,
            "submit": rush_url + "submit/",
            # For the server's figures only: the load reads every address a page's script
            # uses (form action, live box, fragment) from the page, as a browser does.
            "live": rush_url + "live/team/",
            "leaderboard": rush_url + "leaderboard/",
            "matrix": final_url + "matrix/",
            "final": final_url + "final/",
        },
    }


# --- CPU per request ------------------------------------------------------------------------


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of process ``root`` and its descendants, from /proc."""
    found = processes_now()
    children: dict[int, list[int]] = {}
    cpu = {}
    for (pid, _start), (parent, _name, seconds) in found.items():
        children.setdefault(parent, []).append(pid)
        cpu[pid] = seconds
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        total += cpu.get(pid, 0.0)
        stack.extend(children.get(pid, []))
    return total


def page_cpu(base: str, data: dict, gunicorn_pid: int, requests_per_page: int) -> dict:
    """gunicorn's CPU per request of each page a team member opens, ``requests_per_page``
    sequential requests each on the idle server (the issue's method): a logged-in member of
    the first team, as a browser, the live poll with the ETag its page gave (a 304)."""
    browser = logged_in(base, data["users"][0]["username"], data["password"], timeout=30)
    urls = data["urls"]
    submit = browser.get(base + urls["submit"], timeout=30)
    live = read_page(submit.text).live
    kinds = {
        "round page": (urls["round page"], {}),
        "submit tab": (urls["submit"], {}),
        "leaderboard": (urls["leaderboard"], {}),
        "matrix": (urls["matrix"], {}),
        "final": (urls["final"], {}),
    }
    if live and live.get("etag"):
        kinds["poll 304"] = (live["url"], {"If-None-Match": live["etag"]})
    figures = {}
    queue = list(kinds.items())
    for kind, (url, headers) in queue:  # grows while read: a kept page's 304 comes last
        first = browser.get(base + url, headers=headers, timeout=30)  # caches filled
        kept = "no-cache" in first.headers.get("Cache-Control", "") and "ETag" in first.headers
        if first.status_code == 200 and kept:
            # a page the browser keeps: opened again, it is revalidated
            queue.append((f"{kind} 304", (url, {"If-None-Match": first.headers["ETag"]})))
        statuses = set()
        before = tree_cpu(gunicorn_pid)
        for _ in range(requests_per_page):
            statuses.add(browser.get(base + url, headers=headers, timeout=30).status_code)
        spent = tree_cpu(gunicorn_pid) - before
        figures[kind] = {
            "ms_per_request": 1000 * spent / requests_per_page,
            "statuses": sorted(statuses),
        }
    return figures


# --- Servers -------------------------------------------------------------------------------


def nginx_command(scratch: Path, gunicorn_port: int, port: int) -> list[str]:
    """Debian's nginx with scripts/docker/nginx.conf (upstream and listen address on loopback
    ports) and an access log of each request's ``$request_time``."""
    prefix = scratch / "nginx"
    prefix.mkdir()
    site = (REPO / "scripts" / "docker" / "nginx.conf").read_text()
    for production, here, count in (
        # reads, writes and log-ins
        ("server web:8000 ", f"server 127.0.0.1:{gunicorn_port} ", 3),
        ("listen 80;", f"listen 127.0.0.1:{port};", 1),
    ):
        if site.count(production) != count:
            raise SystemExit(f"scripts/docker/nginx.conf: expected {count} {production!r}")
        site = site.replace(production, here)
    (prefix / "site.conf").write_text(site)
    temp = "".join(
        f"  {kind}_temp_path {prefix / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers must reach the temp folders
    (prefix / "nginx.conf").write_text(
        f"{user}worker_processes auto;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\nevents {{ worker_connections 1024; }}\n"
        "http {\n"
        "  log_format rush '$msec $status $request_time $request_method $request_uri $remote_addr "
        '"$upstream_response_time"\';\n'
        f"  access_log {prefix / 'access.log'} rush;\n"
        f"{temp}"
        f"  include {prefix / 'site.conf'};\n"
        "}\n"
    )
    command = [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    if checked.returncode != 0:
        raise SystemExit(f"nginx -t failed:\n{checked.stderr}")
    return [*command, "-g", "daemon off;"]


def start(command: list[str], env: dict, log: Path, **options) -> subprocess.Popen:
    """A server in a session of its own: Ctrl-C reaches the bench only, which stops it."""
    with open(log, "ab") as out:
        return subprocess.Popen(
            command,
            cwd=REPO,
            env=env,
            stdout=options.pop("stdout", out),
            stderr=out,
            start_new_session=True,
            **options,
        )


def stop(process: subprocess.Popen, timeout: float = 30) -> None:
    """SIGTERM (gunicorn, Celery and nginx stop their own children), then SIGKILL to the
    process group it leads if it lingers (not yet reaped: the group is still its own)."""
    stop_all([process], timeout)


def stop_all(processes, timeout: float = 30) -> None:
    """``stop`` for several servers at once: SIGTERM to each first, then each waited for
    within the same ``timeout``, so that their graceful shutdowns overlap instead of adding
    up (gunicorn's and Celery's take seconds each, more on a busy machine)."""
    running = [process for process in processes if process.poll() is None]
    for process in running:
        process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for process in running:
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_healthy(base: str, processes: dict, timeout: float = 120) -> None:
    """/healthz through nginx answers 200 (the database, the broker and the worker answer)."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for label, process in processes.items():
            if process.poll() is not None:
                raise SystemExit(f"{label} exited (status {process.returncode}); see its log")
        try:
            urllib.request.urlopen(base + "/healthz", timeout=5).read()
            return
        except (urllib.error.HTTPError, OSError):
            time.sleep(0.5)
    raise SystemExit("the platform did not become healthy in time")


# --- CPU accounting (/proc) ----------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
BACKEND = re.compile(r"\S+\(\d+\)|\[local\]")  # a client's address in a backend's title


def processes_now() -> dict[tuple[int, int], tuple[int, str, float]]:
    """(pid, start time) -> (parent pid, name, CPU seconds: user + system)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            raw = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # exited meanwhile
            continue
        name = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime
        found[(int(entry), int(fields[19]))] = (int(fields[1]), name, cpu)
    return found


def machine_busy() -> float:
    """CPU seconds the machine spent busy (all cores) since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = values[:8]
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


class CpuMeter:
    """CPU seconds per group of processes between ``begin`` and ``end``, sampled meanwhile
    (a process that exits between two samples loses at most one interval)."""

    INTERVAL_S = 0.5

    def __init__(self, roots: dict[str, int], database: str):
        import threading

        self.roots = roots  # group -> pid of its process tree's root
        self.database = database
        self.baseline: dict = {}  # CPU seconds of every process at the first sample
        self.last: dict = {}
        self.group_of: dict = {}
        self.titles: dict = {}
        self.machine = [0.0, 0.0]
        self.window = [0.0, 0.0]
        self.own = [0.0, 0.0]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _postgres_group(self, key) -> str:
        if key not in self.titles:
            try:
                title = Path(f"/proc/{key[0]}/cmdline").read_bytes().replace(b"\0", b" ")
                self.titles[key] = title.decode(errors="replace")
            except OSError:
                self.titles[key] = ""
        title = self.titles[key]
        if f" {self.database} " in title:
            return "PostgreSQL: the bench database's backends"
        if BACKEND.search(title):
            return "PostgreSQL: other databases' backends"
        return "PostgreSQL: shared (postmaster, background)"

    def sample(self) -> None:
        table = processes_now()
        first = not self.last
        children: dict[int, list] = {}
        for key, (parent, _name, _cpu) in table.items():
            children.setdefault(parent, []).append(key)
        assigned = {}
        for group, root in self.roots.items():
            todo = [key for key in table if key[0] == root]
            while todo:
                key = todo.pop()
                assigned.setdefault(key, group)
                todo.extend(children.get(key[0], []))
        for key, (_parent, name, cpu) in table.items():
            if key not in assigned:
                if name == "postgres":
                    assigned[key] = self._postgres_group(key)
                elif name == "redis-server":
                    assigned[key] = "redis-server (all of its databases)"
            if first:
                self.baseline[key] = cpu
            self.last[key] = cpu
            if key in assigned:
                self.group_of[key] = assigned[key]

    def begin(self) -> None:
        self.window[0] = time.time()
        self.machine[0] = machine_busy()
        self.own[0] = time.process_time()
        self.sample()
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.INTERVAL_S):
            self.sample()

    def end(self) -> None:
        if not self._thread.is_alive() and (self.window[1] or not self.window[0]):
            return  # ended already, or never begun
        self._stop.set()
        self._thread.join()
        self.sample()
        self.machine[1] = machine_busy()
        self.window[1] = time.time()
        self.own[1] = time.process_time()

    def totals(self) -> dict[str, float]:
        groups: dict[str, float] = {}
        for key, group in self.group_of.items():
            used = self.last[key] - self.baseline.get(key, 0.0)
            groups[group] = groups.get(group, 0.0) + used
        return groups


# --- The load (its own process: Locust's gevent patches the standard library) ---------------


def load_process(state_file: Path) -> None:
    """Run by ``bench_rush.py --load-process STATE``: log every user in, then the window.

    Prints ``start <epoch>`` when the window starts, ``end <epoch>`` when it ends (the
    orchestrator reads the CPU counters then) and ``done`` once its results are written."""
    import random

    import gevent
    import locust  # noqa: F401 - before urllib3 (and ssl): gevent's monkey-patching
    import urllib3
    from gevent.event import Event
    from locust import HttpUser, constant_pacing, task
    from locust.env import Environment

    state = json.loads(state_file.read_text())
    urls = state["urls"]
    identities = iter(state["users"])
    team_active = {t: Event() for t in range(state["teams"])}
    go, page_views_over, polls_over = Event(), Event(), Event()
    window = {"start": 0.0}
    logged_in = [0]  # users whose log-in is over (done or failed)
    samples: list = []  # [kind, start (s into the window), ms, error, answered 304]
    logins: list = []  # [step, ms, error]
    uploads: dict = {}  # team -> its upload's story
    helpers: list = []
    kinds, weights = list(MIX), list(MIX.values())

    def on_request(request_type, name, response_time, response, exception, start_time, **_):
        error = "" if exception is None else str(exception)[:200]
        if name in LOGIN_STEPS:
            logins.append([name, response_time, error])
            return
        if not go.is_set():
            return
        not_modified = response is not None and response.status_code == 304
        if name == "poll":
            name = "poll 304" if not_modified else "poll 200"
        samples.append([name, start_time - window["start"], response_time, error, not_modified])

    def next_delay(delay: float, changed: float) -> float:
        if time.monotonic() - changed < POLL_FAST_FOR_S:
            return POLL_FAST_S
        return min(delay * 1.5, POLL_SLOWEST_S)

    class RushUser(HttpUser):
        host = state["base"]
        wait_time = constant_pacing(PACE_S)

        def __init__(self, environment):
            self.me = next(identities)
            # Its own loopback address (nginx limits connections per address), a few kept-
            # alive connections (a page view and a poll may overlap).
            self.pool_manager = urllib3.PoolManager(
                maxsize=4, source_address=(self.me["address"], 0)
            )
            # The browser's cache: the ETag of each page it was told to keep and revalidate
            # (``Cache-Control: no-cache``), sent back as If-None-Match when it opens it again.
            self.kept: dict[str, str] = {}
            super().__init__(environment)

        def on_start(self):
            self.login()
            go.wait()
            if "upload_at" in self.me:
                helpers.append(gevent.spawn(self.upload))
            else:
                helpers.append(gevent.spawn(self.poll_while_team_waits))
            gevent.sleep(random.uniform(0, PACE_S))

        @task
        def page_view(self):
            if not page_views_over.is_set():
                kind = random.choices(kinds, weights)[0]
                self.get_page(kind, urls[kind])

        def login(self):
            """As a browser sent to the login form by the round page: the form, the log-in,
            the round page it leads back to (not in the window's figures). A log-in the
            server sheds (503 with ``Retry-After``, its page saying "try again in a few
            seconds") is sent again after that wait, as its user would, at most
            ``LOGIN_TRIES`` times; each shed answer is counted apart ("login shed")."""
            login_url = f"/accounts/login/?next={urls['round page']}"
            try:
                for attempt in range(1, LOGIN_TRIES + 1):
                    location, wait = self.try_login(login_url, last=attempt == LOGIN_TRIES)
                    if wait is None:
                        break
                    gevent.sleep(wait)
                if location:
                    self.get_page("after login", location)
            finally:
                logged_in[0] += 1

        def try_login(self, login_url: str, *, last: bool):
            """One try: the form and its POST. Returns (the redirect's address or None, the
            seconds to wait before trying again, or None when there is no point)."""
            with self.client.get(login_url, name="login page", catch_response=True) as page:
                wait = shed_wait(page)
                if wait is not None and not last:
                    page.success()
                    logins.append(["login shed", 0, ""])
                    return None, wait
                if page.status_code != 200:
                    page.failure(problem(page))
            with self.client.post(
                login_url,
                data={
                    "username": self.me["username"],
                    "password": state["password"],
                    "csrfmiddlewaretoken": self.client.cookies.get("csrftoken", ""),
                    "next": urls["round page"],
                },
                name="login",
                allow_redirects=False,
                catch_response=True,
            ) as response:
                wait = shed_wait(response)
                if wait is not None and not last:
                    response.success()
                    logins.append(["login shed", 0, ""])
                    return None, wait
                if response.status_code != 302 or "sessionid" not in self.client.cookies:
                    response.failure(f"not logged in (status {response.status_code})")
                    return None, None
                return response.headers.get("Location"), None

        def get_page(self, kind: str, url: str, *, patient: bool = False):
            """The page, or None. ``patient``: a page the user needs to go on (the Submit
            tab before an upload, the page after it) is opened again after a shed 503's
            ``Retry-After``, as its user would, at most ``LOGIN_TRIES`` times; every shed
            answer is still counted in the page's figures."""
            for _ in range(LOGIN_TRIES if patient else 1):
                # A page the user goes on from (``patient``) is needed whole, not revalidated.
                kept = None if patient else self.kept.get(url)
                with self.client.get(
                    url,
                    name=kind,
                    headers={"If-None-Match": kept} if kept else {},
                    allow_redirects=False,
                    catch_response=True,
                ) as response:
                    if response.status_code == 304 and kept:
                        return None  # the browser shows its kept copy
                    if response.status_code == 200:
                        if "no-cache" in response.headers.get("Cache-Control", ""):
                            self.kept[url] = response.headers.get("ETag", "")
                        return response
                    response.failure(problem(response))
                    wait = shed_wait(response)
                if wait is None:
                    return None
                gevent.sleep(wait)
            return None

        def upload(self):
            """As a browser on the Submit tab: the tab, its upload form's POST (to the
            form's own action, with its hidden fields), the redirect followed, then the
            page's script polling the live box until the upload's scores are visible."""
            me, story = self.me, {}
            uploads[me["team"]] = story
            gevent.sleep(max(0.0, window["start"] + me["upload_at"] - time.time()))
            content = Path(me["upload_file"]).read_bytes()
            began = time.perf_counter()
            tab = self.get_page("submit tab", urls["submit"], patient=True)
            form = upload_form(urls["submit"], tab.text) if tab else None
            if form is None:
                story["error"] = "no upload form on the Submit tab"
                return
            with self.client.post(
                form["action"],
                data={**form["hidden"], "note": ""},
                files={form["file"]: ("anonymized.csv", content, "text/csv")},
                name="upload POST",
                allow_redirects=False,
                catch_response=True,
            ) as response:
                location = response.headers.get("Location")
                if response.status_code != 302 or not location:
                    response.failure(problem(response))
                    story["error"] = f"upload answered {response.status_code}"
                    return
            # the browser follows the redirect
            page = self.get_page("round page", location, patient=True)
            notice = re.search(r"\bjob-([a-z]+-(\d+))\b", page.text) if page else None
            live = read_page(page.text).live if page else None
            if notice is None or live is None:
                story["error"] = "no 'being scored' notice or live box on the page (refused?)"
                return
            story["pk"] = int(notice.group(2))
            team_active[me["team"]].set()  # the team's other pages see a job pending
            outcome = self.poll(live, page_url=location, watch=notice.group(1), pk=story["pk"])
            if outcome is None:
                story["error"] = "scores not visible in time"
            else:
                story["status"] = outcome
                story["visible_s"] = time.perf_counter() - began
                story["visible_epoch"] = time.time()
                if outcome != "finished":
                    story["error"] = f"scoring {outcome}"

        def poll_while_team_waits(self):
            """A team mate with the Submit tab open: its script follows the team's jobs."""
            team_active[self.me["team"]].wait()
            tab = self.get_page("submit tab", urls["submit"], patient=True)
            live = read_page(tab.text).live if tab else None
            if live is not None:
                self.poll(live, page_url=urls["submit"])

        def poll(self, live: dict, *, page_url: str, watch=None, pk=None) -> str | None:
            """static/live.js: ask the box's live address "changed since this ETag?"
            (an unchanged scope is an empty 304); when it changed, fetch the box's fragment
            (with ``&watch=`` of the page's notice). Until nothing is pending (and, for the
            uploader, its upload is finished or failed); returns that status."""
            live_url = urljoin(page_url, live["url"])
            fragment_url = urljoin(page_url, live["fragment"] or page_url)
            if watch:
                fragment_url += f"&watch={watch}"
            # A page with a notice to resolve starts without an ETag (as the script does).
            etag = None if watch else live["etag"]
            delay, changed = POLL_FAST_S, time.monotonic()
            row = re.compile(rf'data-testid="submission-{pk}" data-status="(\w+)"')
            headers = {"X-Requested-With": "fetch"}
            while not polls_over.is_set():
                gevent.sleep(delay)
                with self.client.get(
                    live_url,
                    headers={**headers, **({"If-None-Match": etag} if etag else {})},
                    name="poll",
                    allow_redirects=False,
                    catch_response=True,
                ) as response:
                    if response.status_code == 304:
                        delay = next_delay(delay, changed)
                        continue
                    if response.status_code != 200:
                        response.failure(problem(response))
                        delay = min(max(delay, POLL_SLOW_S) * 2, 15.0)
                        continue
                    before, etag = etag, response.headers.get("ETag")
                with self.client.get(
                    fragment_url,
                    headers=headers,
                    name="fragment 200",
                    allow_redirects=False,
                    catch_response=True,
                ) as response:
                    if response.status_code != 200 or "data-pending=" not in response.text:
                        ok = response.status_code == 200
                        response.failure("not the jobs fragment" if ok else problem(response))
                        etag, delay = before, min(max(delay, POLL_SLOW_S) * 2, 15.0)
                        continue
                    html = response.text
                changed = time.monotonic()
                delay = next_delay(delay, changed)
                status = row.search(html) if pk is not None else None
                if status and status.group(1) in ("finished", "failed"):
                    return status.group(1)
                if pk is None and 'data-pending="0"' in html:
                    return "idle"
            return None

    env = Environment(user_classes=[RushUser], host=state["base"])
    env.events.request.add_listener(on_request)
    runner = env.create_local_runner()
    users = len(state["users"])
    began = time.monotonic()
    runner.start(users, spawn_rate=state["spawn_rate"])
    while logged_in[0] < users and time.monotonic() - began < 900:
        gevent.sleep(0.2)
    login_s = time.monotonic() - began
    window["start"] = time.time()
    go.set()
    print(f"start {window['start']}", flush=True)
    gevent.sleep(state["seconds"])
    page_views_over.set()
    print(f"end {time.time()}", flush=True)
    deadline = time.monotonic() + DRAIN_S
    uploaders = sum(1 for u in state["users"] if "upload_at" in u)
    while time.monotonic() < deadline and (
        len(uploads) < uploaders
        or any("error" not in s and "visible_s" not in s for s in uploads.values())
    ):
        gevent.sleep(0.2)
    polls_over.set()
    runner.quit()
    gevent.killall(helpers, timeout=10)
    Path(state["results"]).write_text(
        json.dumps(
            {
                "window": window,
                "login_s": login_s,
                "samples": samples,
                "logins": logins,
                "uploads": {str(team): story for team, story in uploads.items()},
                "uploaders": uploaders,
            }
        )
    )
    print("done", flush=True)


# --- Figures -------------------------------------------------------------------------------


def client_figures(samples: list) -> dict:
    figures = {}
    for kind in KINDS:
        times = [ms for name, _at, ms, _error, _kept in samples if name == kind]
        errors = [error for name, _at, _ms, error, _kept in samples if name == kind and error]
        figures[kind] = {
            "count": len(times),
            "answered 304": sum(1 for name, _at, _ms, _e, kept in samples if name == kind and kept),
            "p50": percentile(times, 50),
            "p95": percentile(times, 95),
            "p99": percentile(times, 99),
            "errors": len(errors),
            "first errors": sorted(set(errors))[:3],
        }
    return figures


def server_figures(log: Path, urls: dict, since: float) -> dict:
    """Per page kind, nginx's ``$request_time`` (and gunicorn's share, the upstream time) of
    the requests that ended after ``since`` (the window's start)."""
    paths = {kind: urls[kind] for kind in MIX}
    found: dict[str, dict] = {kind: {"times": [], "upstream": [], "errors": 0} for kind in KINDS}
    for line in log.read_text().splitlines() if log.exists() else []:
        try:
            msec, status, took, method, uri, _address, upstream = line.split(" ", 6)
        except ValueError:
            continue
        if float(msec) < since:
            continue
        path, _, query = uri.partition("?")
        status = int(status)
        if method == "POST" and path.startswith(urls["round page"]):
            kind = "upload POST"
        elif method == "GET" and path == urls["live"]:
            kind = "poll 304" if status == 304 else "poll 200"
        elif method == "GET" and path.startswith(urls["round page"]) and "fragment=1" in query:
            kind = "fragment 200"
        elif method == "GET" and path == urls["submit"]:
            kind = "submit tab"
        elif method == "GET":
            kind = next((k for k, p in paths.items() if p == path), None)
        else:
            kind = None
        if kind is None:
            continue
        entry = found[kind]
        entry["times"].append(float(took) * 1000)
        upstream = upstream.strip('"').split(",")[-1].strip()
        if upstream not in ("", "-"):
            entry["upstream"].append(float(upstream) * 1000)
        entry["errors"] += status >= 400
    return {
        kind: {
            "count": len(entry["times"]),
            "p50": percentile(entry["times"], 50),
            "p95": percentile(entry["times"], 95),
            "p99": percentile(entry["times"], 99),
            "upstream p95": percentile(entry["upstream"], 95),
            "errors": entry["errors"],
        }
        for kind, entry in found.items()
    }


def upload_figures(results: dict) -> dict:
    """Upload → visible from the client; queue and scoring times from the database, and
    every upload the server stored since the window opened, by status (an accepted upload is
    never dropped: each ends finished or failed)."""
    from collections import Counter
    from datetime import UTC, datetime

    from pwscup.pwscup2015.models import AnonymizationSubmission

    since = datetime.fromtimestamp(results["window"]["start"], tz=UTC)
    stored = Counter(
        AnonymizationSubmission.objects.filter(created_at__gte=since).values_list(
            "status", flat=True
        )
    )

    stories = list(results["uploads"].values())
    visible = [s["visible_s"] for s in stories if s.get("status") == "finished"]
    pks = [s["pk"] for s in stories if "pk" in s]
    rows = AnonymizationSubmission.objects.filter(pk__in=pks).values(
        "pk", "created_at", "started_at", "finished_at"
    )
    seen = {s["pk"]: s.get("visible_epoch") for s in stories if "pk" in s}
    queue, score, lag = [], [], []
    for row in rows:
        if row["started_at"] and row["created_at"]:
            queue.append((row["started_at"] - row["created_at"]).total_seconds())
        if row["finished_at"] and row["started_at"]:
            score.append((row["finished_at"] - row["started_at"]).total_seconds())
        if row["finished_at"] and seen.get(row["pk"]):
            lag.append(seen[row["pk"]] - row["finished_at"].timestamp())
    return {
        "uploads": results["uploaders"],
        "visible": len(visible),
        "p50": percentile(visible, 50),
        "p95": percentile(visible, 95),
        "max": max(visible, default=None),
        "errors": sorted(s["error"] for s in stories if "error" in s),
        "not started": results["uploaders"] - len(stories),
        "queue p50": percentile(queue, 50),
        "queue p95": percentile(queue, 95),
        "scoring p50": percentile(score, 50),
        "scoring p95": percentile(score, 95),
        "seen after p50": percentile(lag, 50),
        "seen after p95": percentile(lag, 95),
        "stored": dict(sorted(stored.items())),
    }


def report(args, results: dict, client: dict, server: dict, uploads: dict, meter) -> dict:
    window = meter.window[1] - meter.window[0]
    logins = [ms for step, ms, _error in results["logins"] if step == "login"]
    login_errors = sorted({error for _step, _ms, error in results["logins"] if error})
    login_failed = sum(1 for _step, _ms, error in results["logins"] if error)
    login_shed = sum(1 for step, _ms, _error in results["logins"] if step == "login shed")
    users = args.teams * args.members
    print(
        f"\nrush: {args.teams} teams, {users} users (1 page / {PACE_S:.0f} s each), "
        f"{args.teams} uploads of {ROWS:,} rows over {results.get('spread', 0):.0f} s; "
        f"gunicorn {args.workers} workers × {args.threads} threads, Celery concurrency "
        f"{args.concurrency}; window {window:.1f} s; load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"log-ins before the window (form, log-in, round page): {len(logins)} in "
        f"{results['login_s']:.1f} s, log-in p50 {fmt(percentile(logins, 50), 0)} ms, "
        f"p95 {fmt(percentile(logins, 95), 0)} ms; {login_shed} shed (503) and sent again "
        f"after Retry-After; {login_failed} failed requests"
        + (f" ({'; '.join(login_errors[:3])})" if login_errors else "")
    )
    header = f"{'':<14}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}"
    print(f"\nclient (Locust; 304: a kept page revalidated)\n{header}{'304':>7}")
    for kind, f in client.items():
        print(
            f"{kind:<14}{f['count']:>7}{fmt(f['p50']):>9}{fmt(f['p95']):>9}{fmt(f['p99']):>9}"
            f"{f['errors']:>8}{f['answered 304']:>7}"
            + (f"  {'; '.join(f['first errors'])}" if f["first errors"] else "")
        )
    print(f"\nserver (nginx $request_time; upstream: gunicorn's part)\n{header}  upstream p95")
    for kind, f in server.items():
        print(
            f"{kind:<14}{f['count']:>7}{fmt(f['p50']):>9}{fmt(f['p95']):>9}{fmt(f['p99']):>9}"
            f"{f['errors']:>8}  {fmt(f['upstream p95']):>8}"
        )
    print(
        f"\nupload -> scores visible (browser's poll): {uploads['visible']}/{uploads['uploads']}"
        f" seen finished; p50 {fmt(uploads['p50'], 2)} s, p95 {fmt(uploads['p95'], 2)} s, "
        f"max {fmt(uploads['max'], 2)} s"
    )
    print(
        f"  server: queued {fmt(uploads['queue p50'], 2)} / {fmt(uploads['queue p95'], 2)} s, "
        f"scoring {fmt(uploads['scoring p50'], 2)} / {fmt(uploads['scoring p95'], 2)} s, "
        f"seen after finished {fmt(uploads['seen after p50'], 2)} / "
        f"{fmt(uploads['seen after p95'], 2)} s (p50 / p95)"
    )
    stored = uploads["stored"]
    print(
        f"  server: {sum(stored.values())} uploads stored since the window opened ("
        + ", ".join(f"{count} {status}" for status, count in stored.items())
        + ")"
    )
    for error in sorted(set(uploads["errors"])):
        print(f"  {uploads['errors'].count(error)} × {error}")

    groups = meter.totals()
    machine = meter.machine[1] - meter.machine[0]
    own = meter.own[1] - meter.own[0]
    bench = {
        "gunicorn (master + workers)": groups.get("gunicorn", 0.0),
        "Celery worker (+ pool)": groups.get("celery", 0.0),
        "PostgreSQL: the bench database's backends": groups.get(
            "PostgreSQL: the bench database's backends", 0.0
        ),
        "PostgreSQL: shared (postmaster, background)": groups.get(
            "PostgreSQL: shared (postmaster, background)", 0.0
        ),
        "redis-server (all of its databases)": groups.get(
            "redis-server (all of its databases)", 0.0
        ),
        "nginx (master + workers)": groups.get("nginx", 0.0),
        "Locust (the load tool)": groups.get("locust", 0.0),
        "this bench process (sampling)": own,
    }
    others = groups.get("PostgreSQL: other databases' backends", 0.0)
    rest = machine - sum(bench.values()) - others
    print(
        f"\nCPU over the window ({window:.1f} s; {os.cpu_count()} cores = "
        f"{window * (os.cpu_count() or 1):.0f} CPU-s): CPU-s, % of one core"
    )
    for label, used in bench.items():
        print(f"  {label:<46}{used:>8.1f}{used / window * 100:>8.0f} %")
    print(f"  {'sum of the above':<46}{sum(bench.values()):>8.1f}")
    print(f"  {'not the bench: other databases backends':<46}{others:>8.1f}")
    print(f"  {'not the bench: the rest of the machine':<46}{rest:>8.1f}")
    print(f"  {'machine busy, all processes':<46}{machine:>8.1f}{machine / window * 100:>8.0f} %")

    errors = (
        sum(f["errors"] for f in client.values())
        + login_failed
        + len(uploads["errors"])
        + uploads["not started"]
    )
    page_p95 = {kind: client[kind]["p95"] for kind in PAGE_KINDS}
    worst = max((v for v in page_p95.values() if v is not None), default=None)

    def verdict(value, limit):  # None: nothing measured (e.g. no poll was answered 304)
        return None if value is None else value <= limit

    poll = client["poll 304"]["p95"]
    visible = uploads["p95"]
    targets = [
        ("0 errors (requests, log-ins, uploads)", errors == 0, f"{errors} errors"),
        (
            f"page p95 <= {PAGE_P95_MS:.0f} ms",
            verdict(worst, PAGE_P95_MS),
            ", ".join(f"{k} {fmt(v)}" for k, v in page_p95.items())
            + " (server: "
            + ", ".join(f"{k} {fmt(server[k]['p95'])}" for k in PAGE_KINDS)
            + ")",
        ),
        (
            f"304 poll p95 <= {POLL_304_P95_MS:.0f} ms",
            verdict(poll, POLL_304_P95_MS),
            f"{fmt(poll)} ms (server: {fmt(server['poll 304']['p95'])} ms)"
            + ("" if poll is not None else "; no poll was answered 304 (scored before)"),
        ),
        (
            f"upload -> visible p95 <= {VISIBLE_P95_S:.0f} s",
            False if uploads["visible"] < uploads["uploads"] else verdict(visible, VISIBLE_P95_S),
            f"{fmt(visible, 2)} s, {uploads['visible']}/{uploads['uploads']} seen",
        ),
    ]
    print("\ntargets (client figures)")
    for label, ok, detail in targets:
        print(f"  {'N/A ' if ok is None else 'PASS' if ok else 'FAIL'}  {label}: {detail}")
    return {
        "config": {
            "teams": args.teams,
            "users": users,
            "seconds": args.seconds,
            "window_s": window,
            "workers": args.workers,
            "threads": args.threads,
            "concurrency": args.concurrency,
            "history": args.history,
            "matrix_teams": args.matrix_teams,
        },
        "logins": {
            "count": len(logins),
            "p50": percentile(logins, 50),
            "p95": percentile(logins, 95),
            "shed and sent again": login_shed,
            "failed requests": login_failed,
            "errors": login_errors,
            "seconds": results["login_s"],
        },
        "client": client,
        "server": server,
        "upload_visible": uploads,
        "cpu_s": {**bench, "other databases' backends": others, "rest of the machine": rest},
        "machine_busy_s": machine,
        "targets": [{"target": t, "pass": ok, "detail": d} for t, ok, d in targets],
    }


# --- Orchestration -------------------------------------------------------------------------


def report_page_cpu(args, figures: dict) -> dict:
    """Print gunicorn's CPU per request of each page (measured before the load) and the
    targets: a team's page <= 10 ms, a 304 poll <= 2 ms (never asserted)."""
    if not figures:
        return figures
    print(f"\ngunicorn CPU per request, {args.page_cpu} sequential requests per page, idle server")
    for kind, row in figures.items():
        print(f"  {kind:<18} {row['ms_per_request']:7.1f} ms  (status {row['statuses']})")
    # a page the browser kept and revalidates ("... 304") is not a page render
    pages = {k: v["ms_per_request"] for k, v in figures.items() if not k.endswith(" 304")}
    worst = max(pages, key=pages.get)
    verdict = "PASS" if pages[worst] <= 10 else "FAIL"
    print(f"  {verdict}  a team's page <= 10 ms: the costliest, {worst}, {pages[worst]:.1f} ms")
    if "poll 304" in figures:
        poll = figures["poll 304"]["ms_per_request"]
        print(f"  {'PASS' if poll <= 2 else 'FAIL'}  304 poll <= 2 ms: {poll:.1f} ms")
    return figures


def clean_redis(args, name: str) -> None:
    import redis

    for db, patterns in (
        (BROKER_DB, (f"*{name}*", "unacked*", "_kombu*", "*pidbox*")),
        (CACHE_DB, ("pwscup-cache*",)),
    ):
        client = redis.Redis.from_url(redis_url(args.redis, db))
        keys = {k for pattern in patterns for k in client.scan_iter(pattern)}
        if keys:
            client.delete(*keys)


def tail(path: Path, chars: int = 3000) -> str:
    return path.read_text(errors="replace")[-chars:] if path.exists() else ""


def main() -> int:
    args = parse_args()
    # Not imported here: Locust monkey-patches the standard library with gevent on import.
    if importlib.util.find_spec("locust") is None:
        raise SystemExit("Locust is missing: .venv/bin/pip install locust==2.47.0")
    if not Path(NGINX).exists():
        raise SystemExit("nginx is missing: apt-get install -y nginx-light")
    # SIGTERM as Ctrl-C: the cleaning below runs either way.
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    name = f"bench_rush_{os.getpid()}"
    scratch = Path(tempfile.mkdtemp(prefix="bench-rush-"))
    gunicorn_port, nginx_port = free_port(), free_port()
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
    }
    os.environ.update(env)
    servers: dict[str, subprocess.Popen] = {}
    load: subprocess.Popen | None = None
    meter: CpuMeter | None = None
    created = False
    try:
        created = True  # from here on, the cleaning drops the database
        database_migrated(args.database, name, env)
        import django

        django.setup()
        from django.db import connections

        data = build(args, scratch)
        connections.close_all()
        import redis

        # The build's uploads sent scoring messages; their jobs are complete already.
        redis.Redis.from_url(env["CELERY_BROKER_URL"]).delete(name)

        gunicorn = str(Path(PYTHON).parent / "gunicorn")
        servers["gunicorn"] = start(
            [gunicorn, "--config", "scripts/docker/gunicorn.conf.py", "pwscup.wsgi:application"],
            env,
            scratch / "gunicorn.log",
        )
        servers["celery"] = start(
            [
                *(PYTHON, "-m", "celery", "-A", "pwscup", "worker", "-Q", name),
                *("-n", f"{name}@%h", "--concurrency", str(args.concurrency)),
                *("--loglevel", "WARNING"),
            ],
            env,
            scratch / "celery.log",
        )
        servers["nginx"] = start(
            nginx_command(scratch, gunicorn_port, nginx_port), env, scratch / "nginx.log"
        )
        base = f"http://127.0.0.1:{nginx_port}"
        wait_healthy(base, servers)
        print(f"servers up: nginx {base} -> gunicorn :{gunicorn_port}, Celery queue {name}")
        cpu_per_page = {}
        if args.page_cpu:
            cpu_per_page = page_cpu(base, data, servers["gunicorn"].pid, args.page_cpu)

        state_file, results_file = scratch / "load.json", scratch / "results.json"
        state_file.write_text(
            json.dumps(
                {
                    **data,
                    "base": base,
                    "seconds": args.seconds,
                    "spawn_rate": args.spawn_rate,
                    "results": str(results_file),
                }
            )
        )
        load = start(
            [PYTHON, str(Path(__file__).resolve()), "--load-process", str(state_file)],
            {**os.environ, "PYTHONUNBUFFERED": "1"},
            scratch / "locust.log",
            stdout=subprocess.PIPE,
            text=True,
        )
        meter = CpuMeter(
            {
                "gunicorn": servers["gunicorn"].pid,
                "celery": servers["celery"].pid,
                "nginx": servers["nginx"].pid,
                "locust": load.pid,
            },
            name,
        )
        print(f"logging {len(data['users'])} users in …", flush=True)
        done = False
        for line in load.stdout:
            if line.startswith("start"):
                meter.begin()
                print(f"load window: {args.seconds:.0f} s …", flush=True)
            elif line.startswith("end"):
                meter.end()
                print("window over; waiting for the last uploads' scores …", flush=True)
            elif line.startswith("done"):
                done = True
        load.wait()
        if not done:
            raise SystemExit("the load process failed (its log: locust.log, below)")
        meter.end()
        results = json.loads(results_file.read_text())
        results["spread"] = data["spread"]
        client = client_figures(results["samples"])
        server = server_figures(
            scratch / "nginx" / "access.log", data["urls"], results["window"]["start"]
        )
        uploads = upload_figures(results)
        connections.close_all()
        figures = report(args, results, client, server, uploads, meter)
        figures["cpu_per_request"] = report_page_cpu(args, cpu_per_page)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2, default=str))
            print(f"\nfigures written to {args.json}")
        return 0
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BaseException:
        for log in ("gunicorn.log", "celery.log", "nginx/error.log", "locust.log"):
            if text := tail(scratch / log, 2000):
                print(f"--- end of {log} ---\n{text}", file=sys.stderr)
        raise
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):  # a second one must not stop the cleaning
            signal.signal(sig, signal.SIG_IGN)
        print("cleaning up …", flush=True)
        if meter is not None:
            meter.end()
        if load is not None:
            stop(load, timeout=10)
        stop_all(servers.values())
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        try:
            clean_redis(args, name)
        except Exception as error:  # noqa: BLE001 - cleaning must not hide the figures
            print(f"could not clean Redis: {error}")
        if args.keep:
            print(f"kept: database {name}, folder {scratch}")
        else:
            if created:
                admin_sql(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--load-process"]:
        load_process(Path(sys.argv[2]))
    else:
        raise SystemExit(main())
