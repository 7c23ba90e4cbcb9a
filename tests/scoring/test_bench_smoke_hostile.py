"""The hostile-files benchmark's smoke run: 1 MB files; every case of every reader measured,
and each outcome the one the bounds promise (so a moved reader or a lost bound breaks this
test, not a benchmark nobody runs)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_hostile_files_smoke_measures_every_case(tmp_path):
    figures = tmp_path / "hostile.json"
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_hostile_files.py"),
            *("--megabytes", "1", "--json", str(figures)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    rows = {(row["case"], row["reader"]): row for row in json.loads(figures.read_text())}
    assert len(rows) == 8 and all(row["peak_rss_mb"] > 0 for row in rows.values())
    for reader in ("table", "synthetic"):
        assert rows["long-cell", reader]["outcome"] == "refused (table.cell_too_long)"
        assert rows["wide-header", reader]["outcome"] == "refused (table.too_many_columns)"
    assert rows["cells-at-bound", "table"]["outcome"] == "read"
    assert rows["narrow-rows", "table"]["outcome"] == "read"
    assert "peak RSS MB" in run.stdout
