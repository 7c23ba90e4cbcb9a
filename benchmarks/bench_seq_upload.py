"""Sequential round on the platform: one ``release_<j>.csv`` upload end to end (request →
file kept → the worker's check with the team's earlier releases → scored → stored), in
process on PostgreSQL: the request (which only keeps the file) and the check (the worker's
job, run here in process) timed apart.

Each size uploads releases 1 … n in batch mode through Django's test client as a logged-in
team member does in a browser: the round page, its Submit tab (the link the page gives), the
tab's upload form (its action, hidden fields and the release chosen among its offered steps)
— URL resolution, access check, form, storage, ``scoring.sequential``'s validation of every
release of the prefix, ``evaluate_sequence``, the INSERT — and prints the time of the *last*
upload's POST (the one checking the most releases), the check alone (``Release.elapsed_ms``)
and how many of the uploads were checked and finished. A moved tab or form breaks the smoke
run of the test suite (``tests/pwscup/test_bench_smoke_seq_upload.py``). Releases are generated like ``bench_sequential.py`` (sorted by
(Age, Zip), groups of 3, minimal boxes, a counterfeit in every fifth group).

It creates its own test database (``test_pwscup_bench_seq``, dropped at the end).

Usage::

    .venv/bin/python benchmarks/bench_seq_upload.py                  # paper, 160×4, 1,000×4
    .venv/bin/python benchmarks/bench_seq_upload.py --large          # + 10,000 × 10
    .venv/bin/python benchmarks/bench_seq_upload.py --sizes 40x2     # the paper + 40 × 2
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from tests.migrated import FROM_TEMPLATE_HELP, settings_databases_from_template  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pwscup.settings.test")
os.environ.setdefault("TEST_DATABASE_NAME", "test_pwscup_bench_seq")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true", help="also 10,000 persons × 10")
    parser.add_argument(
        "--sizes",
        default="160x4,1000x4,2000x10",
        help="generated rounds after the paper's, PERSONSxRELEASES, comma-separated",
    )
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
        sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",") if size]
        sizes += [(10_000, 10)] if args.large else []
        run(sizes)
    finally:
        teardown_databases(old, verbosity=0)


def _csv(frame) -> bytes:
    return frame.to_csv(index=False).encode()


def run(sizes) -> None:
    from bench_sequential import make_master, make_release
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.kinds.round_basics import RoundBasics
    from pwscup.sequential import services
    from pwscup.sequential.models import Release

    organizer = user_create(username="bench-org", password="pw")
    competition = competition_create(name="Bench", slug="bench", organizers=[organizer])
    team = team_create(competition=competition, name="Bench team", slug="bench-team")
    user = user_create(username="bench-team", password="pw")
    membership_add(team=team, user=user)
    client = Client()
    client.force_login(user)
    fixtures = ROOT / "fixtures" / "sequential"
    cases = [
        (
            "paper (16 persons)",
            {
                "n_releases": 2,
                "m": 2,
                "qi": {"Age": "num", "Zip": "num"},
                "sa": "Disease",
                "require_m_eligible": False,
            },
            (fixtures / "zhang_master.csv").read_bytes(),
            [
                (fixtures / "zhang_release_1.csv").read_bytes(),
                (fixtures / "zhang_release_2_table9.csv").read_bytes(),
            ],
        )
    ]
    rng = np.random.default_rng(12)
    for persons, releases in sizes:
        frame = make_master(persons, releases, rng)
        tables = [_csv(make_release(frame, j, rng, last=None)) for j in range(1, releases + 1)]
        config = {
            "n_releases": releases,
            "m": 2,
            "qi": {"Age": "num", "Zip": "num"},
            "sa": "Disease",
            "require_m_eligible": False,
        }
        cases.append((f"{persons:,} persons × {releases}", config, _csv(frame), tables))
    for index, (label, config, master, tables) in enumerate(cases):
        sequential = services.sequential_round_create(
            basics=RoundBasics(competition=competition, name=label, slug=f"s{index}"),
            config={**config, "mode": "batch"},
            master_file=SimpleUploadedFile("master.csv", master),
        )
        round_page = reverse("round_detail", args=["bench", sequential.round.slug])
        last_request = 0.0
        for step, content in enumerate(tables, start=1):
            form = submit_form(client, round_page)
            assert str(step) in form["fields"].get("step", []), (step, form["fields"])
            data = {**form["hidden"], "step": str(step)}
            data[form["file"]] = SimpleUploadedFile(f"r{step}.csv", content)
            start = time.perf_counter()
            response = client.post(form["action"], data)
            last_request = time.perf_counter() - start
            assert response.status_code == 302, response.status_code
            # The check is the worker's job: run it here, as the worker does, and time it
            # apart (the request only keeps the file).
            queued = Release.objects.filter(sequential=sequential).order_by("-id").first()
            services.release_check(release_id=queued.pk)
        release = Release.objects.filter(sequential=sequential).order_by("-id").first()
        assert release.status == Release.Status.FINISHED, release.message
        finished = Release.objects.filter(
            sequential=sequential, status=Release.Status.FINISHED
        ).count()
        rows = sum(content.count(b"\n") - 1 for content in tables)
        print(
            f"{label:24s} upload of release {len(tables):>2} ({rows:>7,} release rows in all): "
            f"request {last_request * 1000:8.1f} ms, check {release.elapsed_ms:>6} ms; "
            f"{finished}/{len(tables)} uploads finished"
        )


def submit_form(client, round_page: str) -> dict:
    """The upload form of the round's Submit tab, reached as a browser does."""
    from pages import page_link, upload_form

    page = client.get(round_page)
    assert page.status_code == 200, (round_page, page.status_code)
    tab = page_link(round_page, page.content.decode(), "tab-submit")
    assert tab, f"no Submit tab on {round_page}"
    page = client.get(tab)
    assert page.status_code == 200, (tab, page.status_code)
    form = upload_form(tab, page.content.decode())
    assert form, f"no upload form on {tab}"
    return form


if __name__ == "__main__":
    main()
