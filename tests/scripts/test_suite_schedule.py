"""The suite's schedule (``tests/conftest.py``, run by ``scripts/test``): the modules holding a
``slow`` test are sent first; under pytest-xdist the ``alone`` tests are left out of the
parallel part, and ``PWSCUP_TESTS_ALONE=only`` runs them and nothing else. Checked on a
small suite of its own, run by a pytest of its own (the suite's hook, imported)."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FILES = {
    "test_a.py": "def test_fast():\n    pass\n",
    "test_b.py": "import pytest\n\npytestmark = pytest.mark.slow\n\n\ndef test_slow():\n    pass\n",
    "test_c.py": (
        "import pytest\n\n\n@pytest.mark.alone\ndef test_needs_the_machine():\n    pass\n\n\n"
        "def test_beside():\n    pass\n"
    ),
    "conftest.py": "from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n",
    "pytest.ini": (
        "[pytest]\nmarkers =\n    slow: slow\n    alone: alone\n"
        "addopts = -p no:django -p no:cacheprovider -p no:random_order --strict-markers\n"
    ),
}


def run_suite(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    environment = {
        key: value
        for key, value in os.environ.items()
        if key
        not in (
            "PWSCUP_TESTS_ALONE",
            "PWSCUP_TESTS_ALONE_LIST",
            "PYTEST_XDIST_WORKER",
            "DJANGO_SETTINGS_MODULE",
        )
    }
    environment.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def outcomes(run: subprocess.CompletedProcess) -> dict:
    """test name -> PASSED/FAILED, from the verbose lines (with or without xdist's prefix)."""
    found = re.findall(
        r"test_\w\.py::(\w+) (PASSED|FAILED)|(PASSED|FAILED) test_\w\.py::(\w+)", run.stdout
    )
    return {a or d: b or c for a, b, c, d in found}


def test_the_slow_module_is_collected_first_and_the_rest_keeps_its_order(tmp_path):
    run = run_suite(tmp_path, "--collect-only", "-q")
    assert run.returncode == 0, run.stdout + run.stderr
    names = [line.split("::")[1] for line in run.stdout.splitlines() if "::" in line]
    assert names == ["test_slow", "test_fast", "test_needs_the_machine", "test_beside"]


def test_in_parallel_the_alone_test_is_left_for_the_tail(tmp_path):
    listed = tmp_path / "alone.txt"
    run = run_suite(tmp_path, "-v", "-n", "2", PWSCUP_TESTS_ALONE_LIST=str(listed))
    assert run.returncode == 0, run.stdout + run.stderr
    assert outcomes(run) == {"test_slow": "PASSED", "test_fast": "PASSED", "test_beside": "PASSED"}
    # scripts/test reads what was left out, to run the tail only when there is one.
    assert listed.read_text() == "test_c.py::test_needs_the_machine\n"


def test_the_tail_runs_the_alone_test_and_nothing_else(tmp_path):
    run = run_suite(tmp_path, "-v", PWSCUP_TESTS_ALONE="only")
    assert run.returncode == 0, run.stdout + run.stderr
    assert outcomes(run) == {"test_needs_the_machine": "PASSED"}
    assert "3 deselected" in run.stdout


def test_in_one_process_every_test_runs(tmp_path):
    run = run_suite(tmp_path, "-v")
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(outcomes(run)) == 4 and set(outcomes(run).values()) == {"PASSED"}


def test_an_unknown_tail_value_is_refused(tmp_path):
    run = run_suite(tmp_path, PWSCUP_TESTS_ALONE="yes")
    assert run.returncode != 0
    assert "PWSCUP_TESTS_ALONE='yes'" in run.stdout + run.stderr
