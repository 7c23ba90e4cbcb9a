"""``python -m scoring …`` run as an organizer runs it, for the scorer's command-line tests."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def scoring_cli(*arguments: str) -> subprocess.CompletedProcess:
    """The command's exit status, what it printed and its errors (never raised on)."""
    return subprocess.run(
        [sys.executable, "-m", "scoring", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
