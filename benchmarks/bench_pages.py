"""Load benchmark of the pages users wait on, with production settings.

It creates its own PostgreSQL database (dropped at the end) and fills it through the
services: a round of 100 teams × 20 finished submissions (the leaderboard, a team's round
page and its status fragment) and a frozen, published round of 30 teams (every target
attacked by every other team: 870 cells + the built-in rows of the attack matrix, and the
final ranking). Uploads go through ``anonymization_submission_create`` /
``attack_submission_create`` with tiny files and are completed with the job services
(``job_claim`` / ``job_complete``) with generated scores: no file is scored, only the pages
are measured. Only the 30 targets are published by the real freeze (so their uploads are
valid tables).

Then it starts gunicorn (``scripts/docker/gunicorn.conf.py``: threaded workers, production
settings with persistent database connections, Redis cache and broker, one Celery worker) on a free loopback port and runs, page after page,
``wrk`` (Debian package ``wrk``) with N connections for a bounded time — or, without wrk,
a Python thread pool doing the same — and prints for each page: requests per second,
p50/p95/p99 latency, non-2xx/3xx answers, the SQL queries of one request with the
cache cold (the ranking computed) and warm, and the web process's own CPU time per warm
request measured in process (independent of whatever else loads the machine), through
Django and, for the pages snapshots answer (pwscup/core/snapshots.py: on with the
production settings), through the WSGI application that answers from them.
``BENCH_PROFILE=1`` also prints a cProfile of each page.

Pages: leaderboard (visitor, public), round page (a team member, 20 submissions), status
fragment (polled: answered 304 while unchanged, and a full render), attack matrix and
final ranking (visitor, published), /healthz.

Usage::

    .venv/bin/python benchmarks/bench_pages.py                  # 20 clients, 15 s per page
    .venv/bin/python benchmarks/bench_pages.py --clients 20 --seconds 30
    .venv/bin/python benchmarks/bench_pages.py --python-load    # without wrk

Needs PostgreSQL (``--database``, default postgres://postgres@127.0.0.1:5432) and Redis
(``--redis``; its keys of this run are deleted at the end). Targets (issue 8): p95 ≤ 100 ms
for the pages and ≤ 50 ms for the status fragment and /healthz under 20 clients; query
counts constant in the number of teams (tests/pwscup/test_page_queries.py asserts that).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
PYTHON = sys.executable

TARGETS_MS = {"fragment (304)": 50, "fragment (full)": 50, "healthz": 50}
DEFAULT_TARGET_MS = 100

WRK_SCRIPT = """
done = function(summary, latency, requests)
  io.write(string.format("BENCH requests=%d errors=%d p50=%.3f p95=%.3f p99=%.3f\\n",
    summary.requests,
    summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.status + summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000))
end
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(args, name: str, port: int, media: Path) -> dict:
    return {
        "DJANGO_SETTINGS_MODULE": "pwscup.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"{args.database.rstrip('/')}/{name}",
        "REDIS_URL": args.redis,
        "CELERY_QUEUE": name,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "PWSCUP_MEDIA_ROOT": str(media / "media"),
        "PWSCUP_VAR_DIR": str(media / "var"),
        "DJANGO_STATIC_ROOT": str(media / "static"),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": str(args.workers),
        "GUNICORN_THREADS": str(args.threads),
    }


def admin_sql(args, statement: str) -> None:
    import psycopg

    with psycopg.connect(f"{args.database.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(statement)


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


def complete(model, pk: int, fields=None, **values) -> None:
    from pwscup.submissions.models import Status
    from pwscup.submissions.services.jobs import UPLOAD_JOB, job_claim, job_complete

    fields = fields or UPLOAD_JOB
    token = job_claim(model=model, pk=pk, fields=fields)
    job_complete(model=model, pk=pk, token=token, status=Status.FINISHED, fields=fields, **values)


def csv_file(content: bytes, name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="text/csv")


def build(args) -> dict:
    """Both rounds; returns what the load needs (URLs, users)."""
    import datetime as dt
    import json

    from django.utils import timezone

    import scoring
    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.models import Phase
    from pwscup.competitions.services import competition_create, phase_set, round_create
    from pwscup.submissions import services
    from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission, Target
    from pwscup.submissions.services.jobs import BUILTIN_JOB

    now, hour = timezone.now(), dt.timedelta(hours=1)
    fixtures = REPO / "fixtures"
    config = json.loads((fixtures / "adult_round.json").read_text())
    with open(fixtures / "adult.csv", "rb") as handle:
        original = b"".join(handle.readline() for _ in range(201))
    organizer = user_create(username="bench-organizer", password=secrets.token_urlsafe(12))
    member = user_create(username="bench-member", password=secrets.token_urlsafe(12))

    def round_with_phases(slug: str, teams: int):
        competition = competition_create(name=f"Bench {slug}", slug=slug, organizers=[organizer])
        round_ = round_create(
            competition=competition,
            name="Round",
            slug="r1",
            original=original,
            original_filename="adult_head.csv",
            config_raw=config,
        )
        anonymization = phase_set(
            round=round_,
            kind=Phase.Kind.ANONYMIZATION,
            opens_at=now - hour,
            closes_at=now + hour,
            leaderboard_public=True,
        )
        attack = phase_set(
            round=round_, kind=Phase.Kind.ATTACK, opens_at=now - hour, closes_at=now + 2 * hour
        )
        created = [
            team_create(competition=competition, name=f"Team {i:03d}", slug=f"team{i:03d}")
            for i in range(teams)
        ]
        return competition, round_, anonymization, attack, created

    started = time.perf_counter()
    big, big_round, big_phase, _attack, big_teams = round_with_phases("bench100", args.teams)
    membership_add(team=big_teams[0], user=member)
    for t, team in enumerate(big_teams):
        for n in range(args.submissions):
            upload = services.anonymization_submission_create(
                phase=big_phase,
                team=team,
                user=member if t == 0 else organizer,
                uploaded_file=csv_file(f"upload {t} {n}\n".encode(), "anonymized.csv"),
            )
            complete(
                AnonymizationSubmission,
                upload.pk,
                scores=fake_scores(t * 100 + n),
                scorer_version=scoring.SCORER_VERSION,
            )
    print(
        f"built {args.teams} teams × {args.submissions} submissions in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )

    started = time.perf_counter()
    small, small_round, small_phase, small_attack, small_teams = round_with_phases(
        "bench30", args.matrix_teams
    )
    for t, team in enumerate(small_teams):
        upload = services.anonymization_submission_create(
            phase=small_phase,
            team=team,
            user=organizer,
            uploaded_file=csv_file(original, "anonymized.csv"),
        )
        complete(
            AnonymizationSubmission,
            upload.pk,
            scores=fake_scores(t),
            scorer_version=scoring.SCORER_VERSION,
        )
    small_round.refresh_from_db()
    services.round_freeze(round=small_round)
    targets = list(Target.objects.filter(round=small_round).select_related("team"))
    for i, target in enumerate(targets):
        rates = {
            m: round(0.05 + ((i * 31 + k * 17) % 50) / 100, 4)
            for k, m in enumerate(scoring.ATTACK_METRICS)
        }
        complete(
            Target,
            target.pk,
            fields=BUILTIN_JOB,
            builtin_rates=rates,
            scorer_version=scoring.SCORER_VERSION,
        )
    answer = ("guess\n" + "0\n" * targets[0].rows).encode()
    for a, team in enumerate(small_teams):
        for target in targets:
            if target.team_id == team.pk:
                continue
            attack = services.attack_submission_create(
                phase=small_attack,
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
    services.round_results_set(round=small_round, published=True)
    print(
        f"built the {args.matrix_teams}-team frozen round in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    return {
        "member": member,
        "rounds": {"big": big_round, "small": small_round},
        "urls": {
            "leaderboard": f"/c/{big.slug}/{big_round.slug}/leaderboard/",
            "round page": f"/c/{big.slug}/{big_round.slug}/",
            "fragment": f"/c/{big.slug}/{big_round.slug}/?fragment=1",
            "matrix": f"/c/{small.slug}/{small_round.slug}/matrix/",
            "final": f"/c/{small.slug}/{small_round.slug}/final/",
            "healthz": "/healthz",
        },
    }


# --- Query counts --------------------------------------------------------------------------


def query_counts(data: dict) -> tuple[dict, dict, str, str, str]:
    """SQL queries of one request per page, cache cold (ranking computed) and warm, and the
    CPU time of the web process per warm request, measured in process."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from pwscup.competitions.ranking_cache import ranking_invalidate

    member = Client()
    member.force_login(data["member"])
    visitor = Client()
    counts = {}
    cpu_ms = {}
    etag = ""
    for name, url in data["urls"].items():
        client = member if name in ("round page", "fragment") else visitor
        ranking_invalidate(round_ids=[r.pk for r in data["rounds"].values()])
        measured = []
        for _ in range(2):
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url)
            measured.append(len(captured))
        counts[name] = tuple(measured)
        # The web process's own CPU per warm request (not waiting for the CPU, the database
        # or Redis): what the page costs whatever else runs on the machine.
        cpu = time.process_time()
        for _ in range(10):
            client.get(url)
        cpu_ms[name] = (time.process_time() - cpu) / 10 * 1000
        if os.environ.get("BENCH_PROFILE"):
            import cProfile
            import pstats

            profile = cProfile.Profile()
            started = time.perf_counter()
            profile.enable()
            for _ in range(5):
                client.get(url)
            profile.disable()
            print(name, f"{(time.perf_counter() - started) / 5 * 1000:.1f} ms in process")
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        if name == "fragment":
            etag = response["ETag"]
            with CaptureQueriesContext(connection) as captured:
                client.get(url, HTTP_IF_NONE_MATCH=etag)
            counts["fragment (304)"] = (len(captured), len(captured))
            cpu = time.process_time()
            for _ in range(10):
                client.get(url, HTTP_IF_NONE_MATCH=etag)
            cpu_ms["fragment (304)"] = (time.process_time() - cpu) / 10 * 1000
    counts["fragment (full)"] = counts.pop("fragment")
    cpu_ms["fragment (full)"] = cpu_ms.pop("fragment")
    # What a browser sends back after its first page: the session and the CSRF cookie.
    cookies = "; ".join(f"{k}={member.cookies[k].value}" for k in ("sessionid", "csrftoken"))
    return counts, cpu_ms, cookies, etag, f"csrftoken={visitor.cookies['csrftoken'].value}"


def wsgi_environ(url: str, cookies: str, if_none_match: str | None) -> dict:
    """The WSGI environment of a browser's GET of ``url`` (as the test client names the host)."""
    import io

    path, _, query = url.partition("?")
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "HTTP_HOST": "testserver",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "HTTP_COOKIE": cookies,
        **({"HTTP_IF_NONE_MATCH": if_none_match} if if_none_match else {}),
    }


def snapshot_cpu(urls: dict, member_cookies: str, visitor_cookies: str, etag: str) -> dict:
    """The web process's CPU per request answered from a snapshot (pwscup/core/snapshots.py)
    through the WSGI application gunicorn runs, in process; ``None`` for a page that no
    snapshot answers (it then costs what "CPU ms" says)."""
    from pwscup.core import snapshots
    from pwscup.wsgi import application

    plan = {
        "leaderboard": (urls["leaderboard"], visitor_cookies, None),
        "round page": (urls["round page"], member_cookies, None),
        "fragment (304)": (urls["fragment"], member_cookies, etag),
        "fragment (full)": (urls["fragment"], member_cookies, None),
        "matrix": (urls["matrix"], visitor_cookies, None),
        "final": (urls["final"], visitor_cookies, None),
        "healthz": (urls["healthz"], "", None),
    }
    found = {}
    for name, (url, cookies, if_none_match) in plan.items():

        def call(url=url, cookies=cookies, if_none_match=if_none_match):
            environ = wsgi_environ(url, cookies, if_none_match)
            return b"".join(application(environ, lambda status, headers, info=None: None))

        call()  # Django answers (and records) if no snapshot holds the page yet
        if snapshots.answer(wsgi_environ(url, cookies, if_none_match)) is None:
            found[name] = None
            continue
        cpu = time.process_time()
        for _ in range(50):
            call()
        found[name] = (time.process_time() - cpu) / 50 * 1000
    return found


# --- Load ----------------------------------------------------------------------------------


def run_wrk(url: str, *, clients: int, seconds: int, headers: dict, script: Path) -> dict:
    command = ["wrk", "-t2", f"-c{clients}", f"-d{seconds}s", "--timeout", "30s", "-s", str(script)]
    for key, value in headers.items():
        command += ["-H", f"{key}: {value}"]
    output = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    line = re.search(
        r"BENCH requests=(\d+) errors=(\d+) p50=([\d.]+) p95=([\d.]+) p99=([\d.]+)", output
    )
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    return {
        "rps": float(rps.group(1)),
        "errors": int(line.group(2)),
        "p50": float(line.group(3)),
        "p95": float(line.group(4)),
        "p99": float(line.group(5)),
    }


def run_threads(url: str, *, clients: int, seconds: int, headers: dict) -> dict:
    """The same closed loop as wrk (each client sends its next request when answered)."""
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def client() -> None:
        while time.monotonic() < deadline:
            request = urllib.request.Request(url, headers=headers)
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    response.read()
            except urllib.error.HTTPError as error:
                if error.code != 304:
                    with lock:
                        errors[0] += 1
            except OSError:
                with lock:
                    errors[0] += 1
            elapsed = (time.perf_counter() - started) * 1000
            with lock:
                latencies.append(elapsed)

    began = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        for _ in range(clients):
            pool.submit(client)
    took = time.monotonic() - began
    ordered = sorted(latencies) or [0.0]

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    return {
        "rps": len(latencies) / took,
        "errors": errors[0],
        "p50": statistics.median(ordered),
        "p95": pct(95),
        "p99": pct(99),
    }


def wait_until_up(base: str, process, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("gunicorn exited; see its log")
        try:
            urllib.request.urlopen(base + "/", timeout=2).read()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer in time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument("--teams", type=int, default=100)
    parser.add_argument("--submissions", type=int, default=20)
    parser.add_argument("--matrix-teams", type=int, default=30)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--python-load", action="store_true", help="do not use wrk")
    parser.add_argument("--no-worker", action="store_true", help="no Celery worker (healthz 503)")
    parser.add_argument("--pages", default=None, help="comma-separated subset of the pages")
    parser.add_argument(
        "--keep", type=Path, default=None, help="keep the database; write its state to this file"
    )
    parser.add_argument(
        "--reuse", type=Path, default=None, help="reuse a database kept with --keep (no build)"
    )
    args = parser.parse_args()
    use_wrk = not args.python_load and shutil.which("wrk") is not None

    # --keep / --reuse: iterate on the web side without rebuilding the data (about a minute).
    state = json.loads(args.reuse.read_text()) if args.reuse else None
    name = state["name"] if state else f"bench_pages_{os.getpid()}"
    port = free_port()
    scratch = Path(state["scratch"]) if state else Path(tempfile.mkdtemp(prefix="bench-pages-"))
    env = environment(args, name, port, scratch)
    if state:
        env["DJANGO_SECRET_KEY"] = state["secret"]
    os.environ.update(env)
    if not state:
        admin_sql(args, f'CREATE DATABASE "{name}"')
    processes: list[subprocess.Popen] = []
    try:
        if not state:
            subprocess.run(
                [PYTHON, "manage.py", "migrate", "-v0"], cwd=REPO, check=True, env={**os.environ}
            )
        import django

        django.setup()
        if state:
            from django.contrib.auth import get_user_model

            from pwscup.competitions.models import Round

            data = {
                "urls": state["urls"],
                "member": get_user_model().objects.get(pk=state["member"]),
                "rounds": {k: Round.objects.get(pk=pk) for k, pk in state["rounds"].items()},
            }
        else:
            data = build(args)
        counts, cpu_ms, session, etag, visitor = query_counts(data)
        snapshot_ms = snapshot_cpu(data["urls"], session, visitor, etag)
        if args.keep:
            args.keep.write_text(
                json.dumps(
                    {
                        "name": name,
                        "scratch": str(scratch),
                        "secret": env["DJANGO_SECRET_KEY"],
                        "urls": data["urls"],
                        "member": data["member"].pk,
                        "rounds": {k: r.pk for k, r in data["rounds"].items()},
                    }
                )
            )
        import redis

        broker = redis.Redis.from_url(args.redis)
        broker.delete(name)  # the uploads' scoring messages: their jobs are complete already
        log = open(scratch / "server.log", "w")  # noqa: SIM115 - closed at the end
        processes.append(
            subprocess.Popen(
                [
                    str(Path(PYTHON).parent / "gunicorn"),
                    "--config",
                    "scripts/docker/gunicorn.conf.py",
                    "pwscup.wsgi:application",
                ],
                cwd=REPO,
                env={**os.environ},
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        )
        if not args.no_worker:
            processes.append(
                subprocess.Popen(
                    [
                        PYTHON,
                        "-m",
                        "celery",
                        "-A",
                        "pwscup",
                        "worker",
                        "--concurrency",
                        "1",
                        "-Q",
                        name,
                        "-n",
                        f"{name}@%h",
                        "--loglevel",
                        "WARNING",
                    ],
                    cwd=REPO,
                    env={**os.environ},
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base, processes[0])
        script = scratch / "report.lua"
        script.write_text(WRK_SCRIPT)
        cookie = {"Cookie": session}
        plan = [
            ("leaderboard", data["urls"]["leaderboard"], {"Cookie": visitor}),
            ("round page", data["urls"]["round page"], cookie),
            ("fragment (304)", data["urls"]["fragment"], {**cookie, "If-None-Match": etag}),
            ("fragment (full)", data["urls"]["fragment"], cookie),
            ("matrix", data["urls"]["matrix"], {"Cookie": visitor}),
            ("final", data["urls"]["final"], {"Cookie": visitor}),
            ("healthz", data["urls"]["healthz"], {}),
        ]
        print(
            f"\n{args.clients} clients, {args.seconds} s per page, gunicorn {args.workers} "
            f"workers × {args.threads} threads, {'wrk' if use_wrk else 'Python thread pool'}; "
            f"this machine's other load is not controlled (CPU ms: the web process's own CPU "
            f"per warm request through Django, measured in process before the load; snap ms: "
            f"the same when a snapshot answers, through the WSGI application gunicorn runs, "
            f"'-' if none does; load: the 1-minute load average when the page's run ended).\n"
        )
        print(
            f"{'page':<17}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}"
            f"{'SQL cold':>10}{'SQL warm':>10}{'CPU ms':>8}{'snap ms':>9}{'load':>6}  target p95"
        )
        wanted = set(args.pages.split(",")) if args.pages else None
        for label, path, headers in plan:
            if wanted is not None and label not in wanted:
                continue
            url = base + path
            try:  # one request first (a 503 from healthz while its first refresh runs is fine)
                urllib.request.urlopen(urllib.request.Request(url, headers=headers)).read()
            except urllib.error.HTTPError:
                pass
            if use_wrk:
                result = run_wrk(
                    url, clients=args.clients, seconds=args.seconds, headers=headers, script=script
                )
            else:
                result = run_threads(
                    url, clients=args.clients, seconds=args.seconds, headers=headers
                )
            cold, warm = counts.get(label, ("", ""))
            target = TARGETS_MS.get(label, DEFAULT_TARGET_MS)
            verdict = "ok" if result["p95"] <= target else "MISSED"
            snap = snapshot_ms.get(label)
            print(
                f"{label:<17}{result['rps']:>9.1f}{result['p50']:>9.1f}{result['p95']:>9.1f}"
                f"{result['p99']:>9.1f}{result['errors']:>8}{cold!s:>10}{warm!s:>10}"
                f"{cpu_ms.get(label, 0):>8.1f}{'-' if snap is None else f'{snap:.2f}':>9}"
                f"{os.getloadavg()[0]:>6.1f}  ≤ {target} ms {verdict}",
                flush=True,
            )
    except Exception:
        log_file = scratch / "server.log"
        if log_file.exists():
            print("--- end of the server log ---\n" + log_file.read_text()[-4000:])
        raise
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up yet
            pass
        try:
            import redis

            client = redis.Redis.from_url(args.redis)
            keys = [
                k
                for pattern in (f"*{name}*", "pwscup-cache*", "unacked*", "_kombu*")
                for k in client.scan_iter(pattern)
            ]
            if keys:
                client.delete(*keys)
        except Exception as error:  # noqa: BLE001 - cleaning must not hide the results
            print(f"could not clean Redis: {error}")
        if not (args.keep or args.reuse):
            admin_sql(args, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
