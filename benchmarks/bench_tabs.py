"""Benchmark: the server's CPU for each tab of every kind's round (issue 48: every tab within
10 ms of CPU).

It loads the demo competition (``manage.py load_demo``: two 2015 rounds, two sequential, two
DP, a synthetic and a scorer round, each with the demo teams' uploads) into a database of its
own on the production stack (gunicorn with one worker and one thread, a Celery worker that
scores the demo's uploads first, PostgreSQL, Redis), logs in as a member of the first team as
a browser does, and opens each round's five tabs (Overview, Data, Rules, Submit, Results)
by the links the round page gives: once to fill the caches, then ``--requests`` times, reading
gunicorn's CPU (its process tree, from /proc) before and after. Printed: the CPU per request
of each tab, ms, and each kind's slowest tab. Nothing is timed against a limit: the figures
go to benchmarks/README.md; exit status 1 when a tab did not answer 200.

Usage::

    .venv/bin/python benchmarks/bench_tabs.py                     # 100 requests a tab
    .venv/bin/python benchmarks/bench_tabs.py --requests 3 --no-scores --json tabs.json

Its smoke run is ``tests/pwscup/test_bench_smoke_tabs.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
from bench_rush import (  # noqa: E402 - after the path
    free_port,
    redis_url,
    start,
    stop_all,
    tree_cpu,
    wait_healthy,
)
from pages import logged_in, read_page  # noqa: E402
from production import admin_sql, database_migrated, production_environment  # noqa: E402

PYTHON = sys.executable
# The cache's database is the bench's own (bench_rush's is 10): two runs' databases are copies
# of one template, so their page generations and primary keys repeat, and an entry another
# run left would be found again. It is emptied before and after the run.
BROKER_DB, CACHE_DB = 9, 13
COMPETITION, MEMBER, PASSWORD = "demo", "team-a", "pwscup-demo"  # load_demo's
TABS = ("overview", "data", "rules", "submit", "results")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100, help="requests per tab")
    parser.add_argument(
        "--no-scores", action="store_true", help="measure without waiting for the demo's scores"
    )
    parser.add_argument("--score-timeout", type=float, default=600, help="seconds")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    return parser.parse_args()


def demo_loaded() -> list[tuple[str, str, dict]]:
    """Load the demo; each of its rounds as (kind, slug, {tab: address})."""
    from django.core.management import call_command

    from pwscup.competitions.models import Round
    from pwscup.kinds.tabs import tab_url

    call_command("load_demo", verbosity=0)
    rounds = Round.objects.filter(competition__slug=COMPETITION).order_by("order", "pk")
    return [(r.kind, r.slug, {tab: tab_url(r, tab) for tab in TABS}) for r in rounds]


def pending_jobs() -> int:
    """The demo's jobs not finished yet (queued or running), over every kind's jobs."""
    from pwscup.kinds.registry import all_kinds
    from pwscup.submissions.models import PENDING

    models = {job.model for kind in all_kinds() for job in kind.jobs()}
    return sum(model.objects.filter(status__in=PENDING).count() for model in models)


def scores_awaited(timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while (left := pending_jobs()) and time.monotonic() < deadline:
        time.sleep(1)
    if left:
        raise SystemExit(f"{left} of the demo's jobs were not done within {timeout:.0f} s")


def tab_links(browser, base: str, overview: str) -> dict[str, str]:
    """Each tab's address as the round page links it (``data-testid="tab-<name>"``)."""
    page = read_page(browser.get(base + overview, timeout=30).text)
    return {tab: page.links.get(f"tab-{tab}", "") for tab in TABS}


def tabs_cpu(base: str, rounds, gunicorn_pid: int, requests_per_tab: int) -> list[dict]:
    browser = logged_in(base, MEMBER, PASSWORD, timeout=30)
    rows = []
    for kind, slug, addresses in rounds:
        links = tab_links(browser, base, addresses["overview"])
        for tab in TABS:
            url = links[tab] or addresses[tab]
            first = browser.get(base + url, timeout=30)  # the caches filled
            statuses = {first.status_code}
            before = tree_cpu(gunicorn_pid)
            for _ in range(requests_per_tab):
                statuses.add(browser.get(base + url, timeout=30).status_code)
            spent = tree_cpu(gunicorn_pid) - before
            rows.append(
                {
                    "kind": kind,
                    "round": slug,
                    "tab": tab,
                    "linked": bool(links[tab]),
                    "ms_per_request": 1000 * spent / requests_per_tab,
                    "statuses": sorted(statuses),
                }
            )
            print(
                f"{kind:11} {slug:15} {tab:9} {rows[-1]['ms_per_request']:6.1f} ms "
                f"{sorted(statuses)}",
                flush=True,
            )
    return rows


def summary(rows: list[dict]) -> None:
    print("\nslowest tab of each kind (CPU per request, ms):")
    for kind in dict.fromkeys(row["kind"] for row in rows):
        worst = max((r for r in rows if r["kind"] == kind), key=lambda r: r["ms_per_request"])
        print(f"  {kind:11} {worst['ms_per_request']:6.1f}  ({worst['round']}, {worst['tab']})")


def cache_emptied(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter("pwscup-cache*"))
    if keys:
        client.delete(*keys)


def main() -> int:
    args = parse_args()
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    name = f"bench_tabs_{os.getpid()}"
    scratch = Path(tempfile.mkdtemp(prefix="bench-tabs-"))
    port = free_port()
    env = {
        **os.environ,
        **production_environment(
            database=args.database,
            name=name,
            port=port,
            scratch=scratch,
            workers=1,
            threads=1,
            broker_url=redis_url(args.redis, BROKER_DB),
            cache_url=redis_url(args.redis, CACHE_DB),
        ),
    }
    os.environ.update(env)
    servers: dict[str, subprocess.Popen] = {}
    cache_emptied(env["CACHE_URL"])
    try:
        database_migrated(args.database, name, env)
        import django

        django.setup()
        rounds = demo_loaded()
        servers["celery"] = start(
            [
                *(PYTHON, "-m", "celery", "-A", "pwscup", "worker", "-Q", name),
                *("-n", f"{name}@%h", "--concurrency", "2", "--loglevel", "WARNING"),
            ],
            env,
            scratch / "celery.log",
        )
        if not args.no_scores:
            started = time.perf_counter()
            scores_awaited(args.score_timeout)
            print(f"the demo's jobs done in {time.perf_counter() - started:.0f} s", flush=True)
        from django.db import connections

        connections.close_all()
        gunicorn = str(Path(PYTHON).parent / "gunicorn")
        servers["gunicorn"] = start(
            [gunicorn, "--config", "scripts/docker/gunicorn.conf.py", "pwscup.wsgi:application"],
            env,
            scratch / "gunicorn.log",
        )
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, servers)
        rows = tabs_cpu(base, rounds, servers["gunicorn"].pid, args.requests)
        summary(rows)
        if args.json:
            args.json.write_text(json.dumps({"requests": args.requests, "tabs": rows}, indent=1))
        return 0 if all(row["statuses"] == [200] for row in rows) else 1
    except KeyboardInterrupt:
        return 130
    finally:
        stop_all(servers.values())
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up yet
            pass
        admin_sql(args.database, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        import redis

        redis.Redis.from_url(env["CELERY_BROKER_URL"]).delete(name)
        cache_emptied(env["CACHE_URL"])
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
