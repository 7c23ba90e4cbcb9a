"""Per-request cost of the REST API (issue 13), in process: median and p95 wall time and the
SQL queries of one request, for the endpoints a team's script calls in its loop, with a
personal token and with the browser session (the token's extra cost: its lookup and, at most
once a minute, its last-used write). The addresses are the command-line client's: the paths it
builds (``pwscup.client.session``), and the upload list's and an upload's as the round's
``status/`` gives them, so a moved endpoint breaks the smoke run of the test suite
(``tests/pwscup/test_bench_smoke_api.py``) as it would break the client.

It creates its own test database (``TEST_DATABASE_NAME``, default ``bench_pwscup_api``;
dropped at the end) from the test settings, a round of the Adult head with 3 teams, team A's
N scored submissions (``--submissions``, generated scores: no file is scored) and a frozen,
published round. Figures are printed, never asserted.

Usage::

    TEST_DATABASE_NAME=bench_api .venv/bin/python benchmarks/bench_api.py --requests 200
    .venv/bin/python benchmarks/bench_api.py --requests 3 --submissions 3   # a smoke run
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from tests.migrated import FROM_TEMPLATE_HELP, settings_databases_from_template  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pwscup.settings.test")
os.environ.setdefault("TEST_DATABASE_NAME", "bench_pwscup_api")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=200, help="requests per endpoint")
    parser.add_argument("--submissions", type=int, default=20, help="team A's submissions")
    parser.add_argument("--from-template", action="store_true", help=FROM_TEMPLATE_HELP)
    args = parser.parse_args()

    import django

    django.setup()
    if args.from_template:
        settings_databases_from_template()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    creation = connection.creation
    old_name = creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run(args)
    finally:
        creation.destroy_test_db(old_name, verbosity=0)


def run(args) -> None:
    from django.conf import settings
    from django.db import connection
    from django.test import Client

    from pwscup.api.services import api_token_create
    from pwscup.pwscup2015.models import AnonymizationSubmission
    from pwscup.pwscup2015.services.operations import round_results_set
    from pwscup.submissions.models import Status
    from tests.pwscup.factories import freeze, scored
    from tests.support import build_world

    settings.PWSCUP_API_THROTTLE_RATES = dict.fromkeys(("anon", "user", "token"), "1000000/min")
    settings.CELERY_TASK_ALWAYS_EAGER = False
    world = build_world(leaderboard_public=True)
    first = scored(world, "a", seed=1, delete=2)
    scored(world, "b", seed=2)
    # More finished submissions of team A, with the first one's scores (nothing to score).
    for number in range(2, args.submissions + 1):
        AnonymizationSubmission.objects.create(
            phase=world.anonymization,
            team=world.teams["a"],
            number=number,
            file=first.file.name,
            original_filename="anonymized.csv",
            sha256=first.sha256,
            size=first.size,
            status=Status.FINISHED,
            scores=first.scores,
        )
    freeze(world)
    round_results_set(round=world.round, published=True)

    token = api_token_create(user=world.users["a"], name="bench").secret
    by_token = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    by_session = Client()
    by_session.force_login(world.users["a"])
    endpoints = addresses(by_token, (world.competition.slug, world.round.slug), first.pk)

    print(
        f"{args.requests} requests per endpoint, team A with {args.submissions} submissions, "
        f"in process (test client), database {connection.settings_dict['NAME']}"
    )
    print(f"{'endpoint':<22} {'auth':<8} {'median ms':>9} {'p95 ms':>7} {'queries':>7}")
    for name, url in endpoints.items():
        for auth, client in (("token", by_token), ("session", by_session)):
            assert client.get(url).status_code == 200, (name, auth)  # warm the caches
            queries = []
            # (Django empties connection.queries when a request starts: count with a wrapper.)
            with connection.execute_wrapper(counting(queries)):
                client.get(url)
            times = []
            for _ in range(args.requests):
                start = time.perf_counter()
                client.get(url)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            p95 = times[int(0.95 * (len(times) - 1))]
            print(
                f"{name:<22} {auth:<8} {statistics.median(times):>9.2f} {p95:>7.2f} "
                f"{len(queries):>7}"
            )


def addresses(client, round_ref: tuple[str, str], submission_pk: int) -> dict[str, str]:
    """The endpoints' addresses as the command-line client finds them: the paths it builds
    (``pwscup.client.session``), the upload list's and an upload's from the round's status."""
    from pwscup.client.session import round_path

    status = client.get("/" + round_path(round_ref, "status/"))
    assert status.status_code == 200, status.status_code
    status = status.json()
    kinds = {kind["key"]: kind["url"] for kind in status["submission_types"]}
    uploads = {upload["id"]: upload["url"] for upload in status["uploads"]}
    assert "anonymized" in kinds and submission_pk in uploads, (kinds, uploads)
    return {
        "me": "/api/v1/me/",
        "status": "/" + round_path(round_ref, "status/"),
        "round": "/" + round_path(round_ref),
        "submissions (list)": kinds["anonymized"],
        "submission (detail)": uploads[submission_pk],
        "targets": "/" + round_path(round_ref, "targets/"),
        "standings": "/" + round_path(round_ref, "standings/"),
        "leaderboard": "/" + round_path(round_ref, "leaderboard/"),
        "final ranking": "/" + round_path(round_ref, "final/"),
    }


def counting(queries: list):
    def wrapper(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    return wrapper


if __name__ == "__main__":
    main()
