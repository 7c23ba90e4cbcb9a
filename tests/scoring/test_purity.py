"""``scoring`` stands alone: importing and running it loads no Django, Celery or pwscup."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys
import scoring
from scoring._examples import X_ROWS, SUBMISSIONS, example_config, example_table
x = example_table(X_ROWS)
values = scoring.evaluate(x, example_table(SUBMISSIONS["B"]), example_config(x))
assert values["U1"] == 1.25, values
import scoring.cli, scoring.datasets  # noqa: E401
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {"django", "celery", "pwscup"})
print("LOADED:" + ",".join(loaded))
"""


def test_scoring_imports_no_framework():
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "LOADED:"


def test_no_framework_import_in_source():
    for path in (ROOT / "scoring").rglob("*.py"):  # scoring.kit too
        text = path.read_text()
        for name in ("django", "celery", "pwscup"):
            assert f"import {name}" not in text and f"from {name}" not in text, path
