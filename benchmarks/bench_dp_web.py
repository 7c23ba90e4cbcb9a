"""DP round on the platform: a query end to end (request → ledger → answer), a release, the
platform's BR estimate and the close, measured in process on PostgreSQL.

A query is a JSON POST through Django's test client with a logged-in team member: URL
resolution, the access check, the query check, the ledger row lock, OpenDP's Laplace draw,
the charge's INSERT and the commit — everything but the network. Target (issue 11): under
100 ms at 14 cells.

It creates its own test database (``test_pwscup_bench_dp``, dropped at the end) with the
test settings, and builds the two demo rounds (MovieLens 14 cells, 6,040 rows; Adult
2-way marginals, 32,561 rows).

Usage::

    .venv/bin/python benchmarks/bench_dp_web.py            # 200 queries per round
    .venv/bin/python benchmarks/bench_dp_web.py --queries 500
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pwscup.settings.test")
os.environ.setdefault("TEST_DATABASE_NAME", "test_pwscup_bench_dp")


def _ms(values) -> str:
    values = sorted(values)
    p95 = values[int(0.95 * (len(values) - 1))]
    return (
        f"mean {statistics.mean(values) * 1000:7.2f} ms  p50 {statistics.median(values) * 1000:7.2f} ms"
        f"  p95 {p95 * 1000:7.2f} ms  (n={len(values)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()

    import django

    django.setup()
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        run(args.queries)
    finally:
        teardown_databases(old, verbosity=0)


def run(queries: int) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.dp import engine, services
    from pwscup.dp.demo import dp_demo_load
    from pwscup.dp.models import DPRound, Estimate

    organizer = user_create(username="bench-org", password="pw")
    competition = competition_create(name="Bench", slug="bench", organizers=[organizer])
    rounds = dp_demo_load(competition=competition, organizer=organizer)
    team = team_create(competition=competition, name="Bench team", slug="bench-team")
    user = user_create(username="bench-team", password="pw")
    membership_add(team=team, user=user)
    client = Client()
    client.force_login(user)
    # Room for every query: a big budget level on each round.
    for dp_round in rounds:
        config = dp_round.config
        config["levels"].append({"id": "bench", "epsilon": "100"})
        config["max_charges_per_level"] = 100000
        DPRound.objects.filter(pk=dp_round.pk).update(config_text=json.dumps(config))
    for dp_round in DPRound.objects.select_related("round"):
        config = dp_round.config
        target = config["workload"][0]
        cells = 1
        for attribute in target["attributes"]:
            cells *= len(config["attributes"][attribute])
        url = reverse(
            "dp:query",
            kwargs={
                "competition_slug": "bench",
                "round_slug": dp_round.round.slug,
                "level": "bench",
            },
        )
        payload = {"type": "histogram", "attributes": target["attributes"], "epsilon": "1/10000"}
        client.post(url, json.dumps(payload), content_type="application/json")  # warm: table read
        timings, cpu = [], []
        for k in range(queries):
            body = json.dumps({**payload, "request_id": f"b-{k}"})
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.post(url, body, content_type="application/json")
            timings.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            assert response.status_code == 200, response.content
        with CaptureQueriesContext(connection) as captured:
            body = json.dumps({**payload, "request_id": "count"})
            client.post(url, body, content_type="application/json")
        rows = dp_round.round.original_rows
        print(f"{dp_round.round.slug:12s} query ({cells:>3} cells, N={rows:>6,}):  {_ms(timings)}")
        print(f"{'':12s} web process CPU per query:        {_ms(cpu)}")
        print(f"{'':12s} SQL queries per query request: {len(captured)}")
        replay = []
        for k in range(min(queries, 50)):
            body = json.dumps({**payload, "request_id": f"b-{k}"})
            start = time.perf_counter()
            client.post(url, body, content_type="application/json")
            replay.append(time.perf_counter() - start)
        print(f"{'':12s} replayed request_id:              {_ms(replay)}")
        groups = [
            {"attributes": [a], "epsilon": "0.5"}
            for a in engine.config_of(config).workload_attributes
        ]
        for estimator in ("BT", "BR"):
            start = time.perf_counter()
            result = services.dp_release_request(
                dp_round=dp_round, team=team, user=user, level="bench", payload={"groups": groups}
            )
            released = time.perf_counter() - start
            start = time.perf_counter()
            services.dp_estimate_from_release(
                dp_round=dp_round,
                team=team,
                user=user,
                level="bench",
                charge_no=result.charge.number,
                estimator=estimator,
            )
            estimated = time.perf_counter() - start
            print(
                f"{'':12s} release (ε = {len(groups) * 0.5:g}): {released * 1000:8.1f} ms;"
                f" {estimator} estimate of every target: {estimated * 1000:8.1f} ms"
            )
        from django.utils import timezone

        services.dp_round_window_set(
            dp_round=dp_round,
            opens_at=dp_round.opens_at,
            closes_at=timezone.now(),
        )
        start = time.perf_counter()
        services.dp_round_score(dp_round=dp_round)
        print(
            f"{'':12s} the close (scores + baselines, {len(config['levels'])} levels, "
            f"{Estimate.objects.filter(dp_round=dp_round).count()} estimates): "
            f"{time.perf_counter() - start:6.2f} s"
        )


if __name__ == "__main__":
    main()
