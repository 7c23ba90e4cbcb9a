"""DP round on the platform: a query end to end (request → ledger → answer), a release, the
platform's BR estimate and the close, measured in process on PostgreSQL.

A query is the level page's form sent through Django's test client by a logged-in team member,
as a browser sends it: the level reached from the round page (its Submit tab, the level's
link), the form's action and hidden fields (a fresh ``request_id``) read from the page, the
POST timed — URL resolution, the access check, the form and the query check, the ledger row
lock, OpenDP's Laplace draw, the charge's INSERT and the commit: everything but the network —
and the level page its redirect leads to timed apart. Target (issue 11): the POST under
100 ms at 14 cells. The releases and the estimates built from them go through the page's
forms too; the close is the worker's job, run here in process. A moved tab, link or form
breaks the smoke run of the test suite (``tests/pwscup/test_bench_smoke_dp_web.py``).

It creates its own test database (``test_pwscup_bench_dp``, dropped at the end) with the
test settings, and builds the two demo rounds (MovieLens 14 cells, 6,040 rows; Adult
2-way marginals, 32,561 rows).

Usage::

    .venv/bin/python benchmarks/bench_dp_web.py            # 200 queries per round
    .venv/bin/python benchmarks/bench_dp_web.py --queries 500
    .venv/bin/python benchmarks/bench_dp_web.py --queries 3      # a smoke run
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
sys.path.insert(0, str(Path(__file__).resolve().parent))
from tests.migrated import FROM_TEMPLATE_HELP, settings_databases_from_template  # noqa: E402

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
    parser.add_argument("--from-template", action="store_true", help=FROM_TEMPLATE_HELP)
    args = parser.parse_args()

    import django

    django.setup()
    if args.from_template:
        settings_databases_from_template()
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
    from django.urls import reverse
    from django.utils import timezone

    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.dp import engine, services
    from pwscup.dp.demo import dp_demo_load
    from pwscup.dp.models import Charge, DPRound, Estimate

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
        level_url = level_page(client, reverse("round_detail", args=["bench", dp_round.round.slug]))
        level = Level(client, level_url)
        fields = {"type": "histogram", "attributes": target["attributes"], "epsilon": "1/10000"}
        level.post("dp-query-form", fields)  # warm: the table read
        level.follow()
        timings, cpu, pages, sent = [], [], [], []
        for _k in range(queries):
            start, start_cpu = time.perf_counter(), time.process_time()
            data = level.post("dp-query-form", fields)
            timings.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            sent.append(data)
            start = time.perf_counter()
            level.follow()  # the level page the answer leads to, with the next form
            pages.append(time.perf_counter() - start)
        captured = []
        # (Django empties connection.queries when a request starts: count with a wrapper.)
        with connection.execute_wrapper(counting(captured)):
            level.post("dp-query-form", fields)
        level.follow()
        answered = Charge.objects.filter(
            ledger__dp_round=dp_round, ledger__team=team, kind=Charge.Kind.QUERY
        ).count()
        rows = dp_round.round.original_rows
        print(f"{dp_round.round.slug:12s} query ({cells:>3} cells, N={rows:>6,}):  {_ms(timings)}")
        print(f"{'':12s} web process CPU per query:        {_ms(cpu)}")
        print(f"{'':12s} the level page after an answer:   {_ms(pages)}")
        print(f"{'':12s} SQL queries per query request: {len(captured)}")
        replay = []
        for data in sent[:50]:  # the same form sent again (its request_id): no new charge
            start = time.perf_counter()
            level.resend(data)
            replay.append(time.perf_counter() - start)
        print(f"{'':12s} replayed request_id:              {_ms(replay)}")
        replayed = Charge.objects.filter(
            ledger__dp_round=dp_round, ledger__team=team, kind=Charge.Kind.QUERY
        ).count()
        print(f"{'':12s} queries answered: {answered}/{queries + 2}; after the replays: {replayed}")
        attributes = list(engine.config_of(config).workload_attributes)
        groups = {f"group_of_{a}": str(g) for g, a in enumerate(attributes, start=1)}
        amounts = {f"g{g}_amount": "0.5" for g in range(1, len(attributes) + 1)}
        for estimator in ("BT", "BR"):
            level.follow()
            start = time.perf_counter()
            level.post("dp-release-form", {**groups, **amounts})
            released = time.perf_counter() - start
            charge = Charge.objects.filter(
                ledger__dp_round=dp_round, ledger__team=team, ledger__level="bench"
            ).latest("number")
            level.follow()
            source = f"release-{charge.number}"
            start = time.perf_counter()
            level.post("dp-estimate-from-form", {"source": source, "estimator": estimator})
            estimated = time.perf_counter() - start
            print(
                f"{'':12s} release (ε = {len(attributes) * 0.5:g}): {released * 1000:8.1f} ms;"
                f" {estimator} estimate of every target: {estimated * 1000:8.1f} ms"
            )
        estimates = Estimate.objects.filter(dp_round=dp_round, team=team).count()
        print(f"{'':12s} estimates from the releases: {estimates}/2")
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


def counting(queries: list):
    def wrapper(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    return wrapper


def level_page(client, round_page: str) -> str:
    """The ``bench`` level's page, reached as a browser does: the round page, its Submit
    tab, the level's "Open" link."""
    from pages import page_link

    url = round_page
    for testid in ("tab-submit", "dp-level-link-bench"):
        page = client.get(url)
        assert page.status_code == 200, (url, page.status_code)
        found = page_link(url, page.content.decode(), testid)
        assert found, f"no {testid} link on {url}"
        url = found
    return url


class Level:
    """The level page as a browser holds it: each form is read from the page last loaded
    (its action, its hidden fields: the CSRF token, a fresh request_id) and sent as the
    browser sends it; the answer's redirect leads back to the page."""

    def __init__(self, client, url: str):
        self.client, self.url, self.html = client, url, ""
        self.follow(url)

    def follow(self, url: str | None = None) -> None:
        from pages import read_page

        url = url or self.url
        page = self.client.get(url)
        assert page.status_code == 200, (url, page.status_code)
        self.html = page.content.decode()
        refusals = [text for tags, text in read_page(self.html).messages if "error" in tags]
        assert not refusals, refusals

    def post(self, testid: str, fields: dict) -> dict:
        from pages import page_form

        form = page_form(self.url, self.html, testid)
        assert form, f"no {testid} form on {self.url}"
        for name, value in fields.items():
            offered = form["fields"].get(name)
            assert offered is not None, f"{testid} has no field {name}: {sorted(form['fields'])}"
            values = value if isinstance(value, list) else [value]
            if offered != [""]:  # a choice (a select, checkboxes): one the page offers
                assert set(values) <= set(offered), (testid, name, values, offered)
        data = {**form["defaults"], **form["hidden"], **fields, "_action": form["action"]}
        self.resend(data)
        return data

    def resend(self, data: dict) -> None:
        fields = {k: v for k, v in data.items() if k != "_action"}
        response = self.client.post(data["_action"], fields)
        assert response.status_code == 302, (data["_action"], response.status_code)


if __name__ == "__main__":
    main()
