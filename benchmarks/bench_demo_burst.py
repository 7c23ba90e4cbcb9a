"""Benchmark: the laptop demo holds a burst of uploads (issue 38, point 5).

It runs ``scripts/demo`` itself (SQLite, its own Redis from ``scripts/demo_redis``, one Celery
worker with its beat, gunicorn with two workers) on a scratch ``var`` folder and a free port,
adds teams to the demo competition until there are ``--teams``, and then:

1. **Broker delivery.** One job at a time, as a worker with a prefetch of one takes them: a
   message is sent while a consumer waits for it, ``--messages`` times, on the broker the demo's
   settings give (Kombu's public ``SimpleQueue``). Printed: the median and p95 delay from send
   to receipt and the jobs per second a waiting worker can take (1 / median delay).
2. **The burst.** Every team logs in, opens the round's Data tab and downloads its sample (the
   link a browser follows), opens the Submit tab and posts the sample to its upload form's
   action, the ``--teams`` uploads spread over ``--window`` seconds. Printed: the answers by
   status, the upload answer's median and max, how long until every upload is scored, and the
   worker's scoring time for them (the sum of ``finished_at - started_at``).

``--broker filesystem`` runs the same on the fallback without Redis (Kombu's filesystem
transport), to compare. Nothing is timed against a limit: the figures go to
benchmarks/README.md; exit status 1 when an upload answered an error or was not scored.

Usage::

    .venv/bin/python benchmarks/bench_demo_burst.py                  # 30 teams within 10 s
    .venv/bin/python benchmarks/bench_demo_burst.py --broker filesystem
    .venv/bin/python benchmarks/bench_demo_burst.py --teams 3 --window 1 --messages 5

Its smoke run is ``tests/pwscup/test_bench_smoke_demo_burst.py`` (3 teams).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
from pages import logged_in, page_link, upload_form  # noqa: E402 - after the path

PASSWORD = "pwscup-demo"  # the demo's accounts' password (load_demo)
ROUND_PATH = "/c/demo/{round}/"

TEAMS_ADD = """
import json
from django.db.models import Max
from pwscup.accounts.services import membership_add, team_create, user_get_or_create
from pwscup.competitions.models import Competition
from pwscup.kinds.registry import kind_of
from pwscup.pwscup2015.models import AnonymizationSubmission
competition = Competition.objects.get(slug="demo")
users = [m.user.username for team in competition.teams.order_by("pk") for m in team.memberships.all()][:{teams}]
for number in range(competition.teams.count(), {teams}):
    team = team_create(competition=competition, name=f"Burst {{number}}", slug=f"burst-{{number}}")
    user, _ = user_get_or_create(username=f"burst-{{number}}", password="{password}")
    membership_add(team=team, user=user)
    users.append(user.username)
# What a registration does (pwscup.accounts.services): each round's kind draws the new teams'
# data (the per-team samples of Round 2).
for round_ in competition.rounds.all():
    kind_of(round_).teams_changed(round_)
# The uploads the round holds before the burst (in this process: a Django start fewer).
before = AnonymizationSubmission.objects.filter(
    phase__round__slug="{round}", phase__round__competition__slug="demo"
).aggregate(last=Max("pk"))["last"] or 0
teams_added = {{"users": users, "before": before}}
"""

DELIVERY = """
import json, statistics, threading, time
from pwscup.celery import app
delays, ready = [], threading.Event()
with app.connection_for_write() as producer_connection, app.connection_for_read() as consumer_connection:
    inbox = consumer_connection.SimpleQueue("bench-delivery")
    outbox = producer_connection.SimpleQueue("bench-delivery")
    def consume():
        for _ in range({messages}):
            ready.set()
            message = inbox.get(block=True, timeout=30)
            delays.append(time.time() - message.payload["sent"])
            message.ack()
    consumer = threading.Thread(target=consume)
    consumer.start()
    for _ in range({messages}):
        ready.wait(); ready.clear()
        time.sleep(0.2)  # the consumer is waiting, as an idle worker does
        outbox.put({{"sent": time.time()}})
    consumer.join()
    inbox.clear(); inbox.close(); outbox.close()
delivered = {{"transport": app.connection_for_read().transport_cls, "delays": delays}}
"""

# The delivery samples, then the burst's teams, in one Django process (a start fewer).
PREPARE = (
    DELIVERY
    + TEAMS_ADD
    + """
print(json.dumps({{"delivery": delivered, "teams": teams_added}}))
"""
)

SCORED = """
import json, time
from pwscup.pwscup2015.models import AnonymizationSubmission
deadline = time.time() + {wait}
while True:
    rows = list(AnonymizationSubmission.objects.filter(
        phase__round__slug="{round}", phase__round__competition__slug="demo", pk__gt={after}
    ))
    if len([r for r in rows if r.status in ("finished", "failed")]) >= {teams} or time.time() > deadline:
        break
    time.sleep(0.05)
print(json.dumps({{"at": time.time(), "rows": [
    [row.status, row.started_at.timestamp() if row.started_at else None,
     row.finished_at.timestamp() if row.finished_at else None, row.message,
     row.created_at.timestamp()]
    for row in rows
]}}))
"""


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=30)
    parser.add_argument(
        "--window", type=float, default=10.0, help="seconds the uploads spread over"
    )
    parser.add_argument("--messages", type=int, default=30, help="broker delivery samples")
    parser.add_argument("--round", default="round-2", help="the demo round uploaded to")
    parser.add_argument("--broker", choices=("demo", "filesystem"), default="demo")
    parser.add_argument("--wait", type=float, default=300, help="seconds to wait for the scores")
    parser.add_argument("--var-dir", type=Path, help="the demo's var folder (default: a temp one)")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    return parser.parse_args(argv)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def demo_environment(var_dir: Path, port: int, broker: str) -> dict:
    """This machine's environment less the platform's own variables, as a fresh shell."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PWSCUP_", "DATABASE_URL", "REDIS_URL", "CELERY_"))
        and not key.startswith(("TEST_", "CACHE_URL", "AWS_"))
    }
    env.update(PWSCUP_VAR_DIR=str(var_dir), PWSCUP_PORT=str(port), PYTHONUNBUFFERED="1")
    if broker == "filesystem":
        env["PWSCUP_DEMO_REDIS"] = "0"  # scripts/demo starts no Redis
    return env


def django_json(env: dict, code: str, timeout: float = 120):
    """Run ``code`` in the demo's settings (and its Redis, if it started one); its last line."""
    url_file = Path(env["PWSCUP_VAR_DIR"]) / "redis.url"
    env = {**env, "DJANGO_SETTINGS_MODULE": "pwscup.settings.local", "PYTHONPATH": str(REPO)}
    if url_file.exists() and env.get("PWSCUP_DEMO_REDIS") != "0":
        env["REDIS_URL"] = url_file.read_text().strip()
    result = subprocess.run(
        [sys.executable, "-c", "import django\ndjango.setup()\n" + code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode:
        raise RuntimeError(result.stderr[-3000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


def wait_ready(base: str, demo: subprocess.Popen, log: Path, timeout: float = 300) -> None:
    """Until /healthz says a worker answers (the demo's last process to come up)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if demo.poll() is not None:
            raise RuntimeError("scripts/demo stopped:\n" + log.read_text()[-3000:])
        try:
            health = requests.get(base + "/healthz", timeout=5).json()
            if health.get("workers", 0) >= 1:
                return
        except (requests.RequestException, ValueError):
            pass
        time.sleep(0.5)
    raise RuntimeError("the demo did not come up:\n" + log.read_text()[-3000:])


def prepare_upload(base: str, browser: requests.Session, round_slug: str) -> dict:
    """As a browser: the round page, its Data tab's sample, its Submit tab's upload form."""
    round_url = base + ROUND_PATH.format(round=round_slug)
    page = browser.get(round_url, timeout=60)
    data_url = page_link(round_url, page.text, "tab-data")
    data = browser.get(data_url, timeout=60)
    sample = browser.get(page_link(data_url, data.text, "download-sample"), timeout=60)
    sample.raise_for_status()
    submit_url = page_link(round_url, page.text, "tab-submit")
    submit = browser.get(submit_url, timeout=60)
    form = upload_form(submit_url, submit.text)
    if form is None:
        raise RuntimeError(f"no upload form on {submit_url}")
    return {"form": form, "content": sample.content, "referer": submit_url}


def upload(browser: requests.Session, prepared: dict) -> tuple[int, float]:
    form = prepared["form"]
    began = time.perf_counter()
    answer = browser.post(
        form["action"],
        data={**form["hidden"], "note": ""},
        files={form["file"]: ("sample.csv", prepared["content"], "text/csv")},
        headers={"Referer": prepared["referer"]},
        timeout=120,
    )
    return answer.status_code, time.perf_counter() - began


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def burst(args, env: dict, base: str, added: dict) -> dict:
    """The burst by the teams ``PREPARE`` added (``added``: their users, the last upload)."""
    users, before = added["users"], added["before"]
    browsers = [logged_in(base, username, PASSWORD) for username in users]
    prepared = [prepare_upload(base, browser, args.round) for browser in browsers]
    answers: list = [None] * len(users)
    start = time.time() + 0.5
    step = args.window / max(1, len(users) - 1)

    def one(i: int) -> None:
        time.sleep(max(0.0, start + i * step - time.time()))
        try:
            answers[i] = upload(browsers[i], prepared[i])
        except requests.RequestException as error:
            answers[i] = (f"error: {type(error).__name__}", float("nan"))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(users))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answered = time.time()
    found = django_json(
        env,
        SCORED.format(round=args.round, after=before, teams=len(users), wait=args.wait),
        timeout=args.wait + 120,
    )
    rows = found["rows"]
    # The last scored upload's own time (the worker's clock is this machine's).
    all_scored = max((row[2] for row in rows if row[2]), default=found["at"])
    seconds = [elapsed for _status, elapsed in answers if elapsed == elapsed]
    scoring = [row[2] - row[1] for row in rows if row[1] and row[2]]
    waits = [row[1] - row[4] for row in rows if row[1]]
    return {
        "teams": len(users),
        "answers": dict(Counter(str(status) for status, _elapsed in answers)),
        "answer_median_s": statistics.median(seconds) if seconds else None,
        "answer_max_s": max(seconds) if seconds else None,
        "kept": len(rows),
        "statuses": dict(Counter(row[0] for row in rows)),
        "failed_messages": [row[3] for row in rows if row[0] == "failed"][:3],
        "burst_to_all_scored_s": all_scored - start,
        "last_answer_to_all_scored_s": all_scored - answered,
        "scoring_sum_s": sum(scoring),
        "kept_to_started_median_s": statistics.median(waits) if waits else None,
        "kept_to_started_max_s": max(waits) if waits else None,
    }


def prepared_run(args, env: dict) -> dict:
    """The broker's delivery samples, then the burst's teams added (``PREPARE``)."""
    code = PREPARE.format(
        messages=args.messages, teams=args.teams, password=PASSWORD, round=args.round
    )
    return django_json(env, code, timeout=120 + args.messages * 3)


def delivery(found: dict) -> dict:
    delays = found["delays"]
    median = statistics.median(delays)
    return {
        "transport": str(found["transport"]),
        "messages": len(delays),
        "delay_median_ms": median * 1000,
        "delay_p95_ms": percentile(delays, 95) * 1000,
        "jobs_per_s_waiting_worker": 1 / median if median else None,
    }


def main(argv=None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-demo-") as scratch:
        var_dir = args.var_dir or Path(scratch) / "var"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = demo_environment(var_dir, port, args.broker)
        log = Path(scratch) / "demo.log"
        with log.open("w") as out:
            demo = subprocess.Popen(
                [str(REPO / "scripts" / "demo")],
                cwd=REPO,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            wait_ready(base, demo, log)
            prepared = prepared_run(args, env)
            figures = {"broker": args.broker, "delivery": delivery(prepared["delivery"])}
            figures["burst"] = burst(args, env, base, prepared["teams"])
        finally:
            os.killpg(demo.pid, signal.SIGTERM)
            try:
                demo.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(demo.pid, signal.SIGKILL)
    report(args, figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    burst_figures = figures["burst"]
    ok = set(burst_figures["answers"]) == {"200"} and burst_figures["statuses"] == {
        "finished": args.teams
    }
    return 0 if ok else 1


def report(args, figures: dict) -> None:
    d, b = figures["delivery"], figures["burst"]
    print(f"broker: {args.broker} ({d['transport']})")
    print(
        f"  delivery to a waiting worker, {d['messages']} jobs one at a time: median "
        f"{d['delay_median_ms']:.1f} ms, p95 {d['delay_p95_ms']:.1f} ms "
        f"-> {d['jobs_per_s_waiting_worker']:.1f} jobs/s"
    )
    print(f"burst: {b['teams']} teams upload the Data tab's sample within {args.window:g} s")
    print(
        f"  answers {b['answers']}; upload answered in median {b['answer_median_s']:.2f} s, "
        f"max {b['answer_max_s']:.2f} s"
    )
    print(
        f"  kept {b['kept']}: {b['statuses']}; all scored {b['burst_to_all_scored_s']:.1f} s "
        f"after the first upload ({b['last_answer_to_all_scored_s']:.1f} s after the last "
        f"answer) for {b['scoring_sum_s']:.1f} s of scoring; kept -> started median "
        f"{b['kept_to_started_median_s']:.2f} s, max {b['kept_to_started_max_s']:.2f} s"
    )
    for message in b["failed_messages"]:
        print(f"  failed: {message[:200]}")


if __name__ == "__main__":
    sys.exit(main())
