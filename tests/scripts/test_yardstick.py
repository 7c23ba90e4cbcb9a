"""``scripts/yardstick``: the host's speed that ``scripts/test`` reads once a minute beside
the suite and prints with its time: CPU seconds for work that is the same on every run."""

import runpy
import statistics
import subprocess
import sys
from pathlib import Path

from tests.support import wait_for

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "yardstick"


def yardstick(*args: str) -> str:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout


def test_one_reading_is_the_cpu_seconds_of_the_work():
    assert float(yardstick()) > 0


def test_its_work_is_the_same_on_every_run():
    work = runpy.run_path(str(SCRIPT))["work"]
    assert work() == work() != 0


def test_it_reads_until_stopped_and_sums_the_readings_up(tmp_path):
    readings = tmp_path / "readings"
    process = subprocess.Popen([sys.executable, str(SCRIPT), "--every", "0.1", str(readings)])
    try:
        wait_for(
            lambda: readings.exists() and len(readings.read_text().split()) >= 2,
            timeout=60,
            what="two readings",
        )
    finally:
        process.terminate()
        process.wait(timeout=30)
    values = sorted(float(line) for line in readings.read_text().split())
    assert all(value > 0 for value in values)
    middle = statistics.median(values)
    assert yardstick("--summary", str(readings)) == (
        f"{middle:.3f} s median, {values[0]:.3f}-{values[-1]:.3f} s, {len(values)} readings\n"
    )


def test_a_run_too_short_for_a_reading_says_so(tmp_path):
    empty = tmp_path / "readings"
    empty.touch()
    assert yardstick("--summary", str(empty)) == "no reading\n"


def test_watching_or_summing_up_without_a_file_says_what_is_missing():
    refused = subprocess.run(
        [sys.executable, str(SCRIPT), "--summary"], capture_output=True, text=True, timeout=120
    )
    assert refused.returncode == 2
    assert "need the FILE of the readings" in refused.stderr
