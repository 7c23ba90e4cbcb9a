"""The manual's Adult example (docs/scoring.md): ``evaluate`` prints exactly the table shown."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [
    "evaluate",
    "fixtures/adult.csv",
    "fixtures/adult_sample_anonymized.csv",
    "--config",
    "fixtures/adult_round.json",
]


def readme_table() -> str:
    readme = (ROOT / "docs" / "scoring.md").read_text(encoding="utf-8")
    found = re.search(
        r"On the Adult example submission `evaluate` prints.*?\n\n```\n(.*?)```", readme, re.S
    )
    assert found, "the README no longer shows the Adult example's evaluate table"
    return found.group(1)


def test_the_readme_adult_table_is_what_evaluate_prints():
    result = subprocess.run(
        [sys.executable, "-m", "scoring", *COMMAND],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    expected = readme_table()
    assert "E3      identify.sort" in expected and "32561 rows" in expected
    assert result.stdout.strip() == expected.strip()
