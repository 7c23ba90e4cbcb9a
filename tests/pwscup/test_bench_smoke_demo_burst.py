"""A short run of benchmarks/bench_demo_burst.py: ``scripts/demo`` itself on the test's own
``var`` folder (SQLite, the demo's own Redis from scripts/demo_redis, a Celery worker with its
beat, gunicorn), three teams that download the Data tab's sample and post it to the Submit
tab's upload form, as a browser follows the pages.

Correctness only, from the run's JSON: the demo's broker is its own Redis, every upload
answered the page (no error), was kept and was scored. Timings are never asserted (the
figures are in benchmarks/README.md).

Slow (over 20 s on its own, so its module is scheduled first): ``scripts/demo`` itself starts
(migrate, ``load_demo``, its own Redis, a worker with its beat, gunicorn) and scores the burst.
Its ``var`` folder starts with a copy of the SQLite file that ``migrate`` makes from nothing
on the laptop settings (``sqlite_migrated``, migrated once per run by that same command, as
``test_demo_restart.py`` starts): ``scripts/demo`` still runs every step, ``migrate``
included, without the 12 s of CPU of a migration from nothing; and its ``var/toolkit`` holds
the toolkit's wheel of these sources, built once per set of sources where the suite builds it
(``test_toolkit_wheel.py`` builds and installs it), so ``scripts/build_toolkit`` finds it
(3 s of CPU a build).
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from pwscup.core import toolkit
from tests.pwscup.outage_support import site_env, sqlite_migrated

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.worker]


def test_the_demo_holds_a_small_burst_on_its_own_redis(tmp_path):
    figures_path = tmp_path / "burst.json"
    sqlite_migrated(site_env(tmp_path / "var"))
    wheel = toolkit.toolkit_wheel(settings.PWSCUP_TOOLKIT_DIR)
    shutil.copytree(wheel.parent, tmp_path / "var" / "toolkit" / wheel.parent.name)
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_demo_burst.py"),
            *("--teams", "3", "--window", "1", "--messages", "5"),
            *("--var-dir", str(tmp_path / "var"), "--json", str(figures_path)),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,  # a hang, not a timing
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(figures_path.read_text())
    assert figures["delivery"]["transport"] == "redis" and figures["delivery"]["messages"] == 5
    burst = figures["burst"]
    assert burst["answers"] == {"200": 3}, burst
    assert burst["kept"] == 3 and burst["statuses"] == {"finished": 3}, burst
    # The demo's Redis is gone with the demo: nothing is left listening on its address.
    url = (tmp_path / "var" / "redis.url").read_text().strip()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import socket; socket.create_connection(('127.0.0.1', {port}), 1)",
        ],
        capture_output=True,
    )
    assert probe.returncode != 0
