"""A short run of benchmarks/bench_rush.py (the deadline rush in small): 3 teams of 2 (the
uploader and a team mate who follows its jobs; a third member would poll as the second does,
for one more log-in, a full check of the production hasher) on the production stack
(gunicorn behind nginx, a Celery worker, PostgreSQL, Redis), driven as a browser drives the
pages: the upload form's action and the live box's addresses are read from the pages. A
moved form, box or poll address fails this test.

Correctness only, from the run's JSON: no request, log-in or upload failed, and every upload
was seen scored through the page's own poll. Timings are never asserted (see
benchmarks/README.md for the figures).

Slow (over 20 s on its own, so its module is scheduled first): the benchmark boots the
production stack (a migrated database, nginx, gunicorn, a Celery worker) and drives it for 12
s, then measures each page's CPU.
"""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.worker, pytest.mark.proxy]


def test_a_small_rush_uploads_through_the_form_and_sees_every_score(tmp_path):
    # Found, not imported: importing Locust here would monkey-patch this process (gevent).
    if importlib.util.find_spec("locust") is None:
        pytest.skip("the load tool: pip install -e '.[dev]'")
    figures_path = tmp_path / "rush.json"
    database = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pwscup")
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_rush.py"),
            *("--teams", "3", "--members", "2", "--seconds", "12", "--history", "1"),
            *("--matrix-teams", "3"),
            *("--page-cpu", "1"),
            *("--database", database.rsplit("/", 1)[0]),
            *("--json", str(figures_path)),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,  # a hang, not a timing
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(figures_path.read_text())
    uploads = figures["upload_visible"]
    assert uploads["uploads"] == 3
    assert uploads["errors"] == [] and uploads["not started"] == 0, uploads
    assert uploads["visible"] == 3, uploads
    assert uploads["stored"] == {"finished": 3}, uploads  # every accepted upload scored
    client = figures["client"]
    assert all(kind["errors"] == 0 for kind in client.values()), client
    # The CPU per request was measured on every page a member opens, each answered as a
    # browser would be answered (the poll unchanged: 304, with the ETag the page gave; a
    # page the browser keeps, opened again: 304, with the ETag it was kept with).
    pages = figures["cpu_per_request"]
    assert {k: v["statuses"] for k, v in pages.items()} == {
        "round page": [200],
        "submit tab": [200],
        "leaderboard": [200],
        "matrix": [200],
        "final": [200],
        "poll 304": [304],
        "round page 304": [304],
        "leaderboard 304": [304],
        "matrix 304": [304],
        "final 304": [304],
    }
    # The pages were driven: the Submit tab was opened, the form posted, the live address
    # and the fragment fetched.
    for kind in ("submit tab", "upload POST", "fragment 200"):
        assert client[kind]["count"] >= 3, (kind, client[kind])
    assert client["poll 200"]["count"] + client["poll 304"]["count"] >= 3, client
    assert figures["logins"]["failed requests"] == 0
