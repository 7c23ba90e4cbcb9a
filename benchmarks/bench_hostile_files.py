"""What a hostile file costs a reader: peak memory of each reader on the worst files of its format.

Field test 4 found a 1 MB synthetic release (6,000 Adult rows, one 400 KB cell) that took a
worker to 17.6 GB. Each case below runs in a fresh process: the file is generated, the
process's peak resident memory noted, the reader run, and its peak noted again; the
difference is what reading cost (0 when it cost less than generating the file did). Cases:

* ``long-cell``: 6,000 Adult rows, one cell of 400 KB (refused by the cell bound before any
  parser runs);
* ``cells-at-bound``: rows whose every text cell holds 1,024 bytes (the bound, kept), up to
  ``--megabytes`` (the upload limit, 50 MB by default);
* ``narrow-rows``: the most rows ``--megabytes`` can hold (every cell one byte);
* ``wide-header``: a header of as many one-letter columns as ``--megabytes`` holds.

Readers: ``table`` (``scoring.load_table``, what every kind reads a CSV with, the 2015 game's
anonymized tables included) and ``synthetic`` (``scoring.synthetic.release.read_release``
against Adult as ``P``). The DP round's estimates and the sequential round's releases are
read by ``scoring.load_table`` first, so ``table`` is their bound too.

Usage::

    .venv/bin/python benchmarks/bench_hostile_files.py                 # 50 MB files
    .venv/bin/python benchmarks/bench_hostile_files.py --megabytes 1   # the suite's smoke run
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ADULT = ROOT / "fixtures" / "adult.csv"
NUMERIC = {"age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"}
CASES = ("long-cell", "cells-at-bound", "narrow-rows", "wide-header")
READERS = ("table", "synthetic")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _adult_rows() -> tuple[list[bytes], list[bytes]]:
    lines = ADULT.read_bytes().splitlines()
    return lines[:1], lines[1:]


def hostile_file(case: str, megabytes: float) -> bytes:
    """The case's file, as uploaded."""
    from scoring.tables import MAX_CELL_BYTES

    header, rows = _adult_rows()
    size = int(megabytes * (1 << 20))
    if case == "long-cell":
        body = (rows * (6000 // len(rows) + 1))[:6000]
        cells = body[3000].split(b",")
        cells[1] = b"x" * 400_000
        body[3000] = b",".join(cells)
        return b"\n".join(header + body) + b"\n"
    if case == "cells-at-bound":
        columns = header[0].split(b",")
        row = b",".join(
            b"1" if name.decode() in NUMERIC else b"y" * MAX_CELL_BYTES for name in columns
        )
        return b"\n".join(header + [row] * max(size // (len(row) + 1), 1)) + b"\n"
    if case == "narrow-rows":
        width = len(header[0].split(b","))
        row = b",".join([b"1"] * width)
        return b"\n".join(header + [row] * max(size // (len(row) + 1), 1)) + b"\n"
    if case == "wide-header":
        count = max(size // 10, 2)  # names of about 6 bytes, a one-byte row under them
        names = b",".join(b"%x" % k for k in range(count))
        return names + b"\n" + b"1," * (count - 1) + b"1\n"
    raise ValueError(case)


def run_case(case: str, reader: str, megabytes: float) -> dict:
    """Generate, read, measure (in this process)."""
    from scoring.errors import ScoringError

    if reader == "synthetic":
        from scoring.synthetic.config import parse_config
        from scoring.synthetic.population import read_population
        from scoring.synthetic.release import read_release

        data = ADULT.read_bytes()
        names = data.split(b"\n", 1)[0].decode().strip().split(",")
        config = parse_config(
            {
                "columns": {c: "numeric" if c in NUMERIC else "categorical" for c in names},
                "label": names[-1],
            },
            names,
        )
        population = read_population(data, config)

        def read(content):
            return read_release(content, population)
    else:
        from scoring.tables import load_table as read

    content = hostile_file(case, megabytes)
    before = _peak_mb()
    try:
        read(content)
        outcome = "read"
    except ScoringError as error:
        outcome = f"refused ({error.code})"
    except MemoryError:
        outcome = "MemoryError"
    after = _peak_mb()
    return {
        "case": case,
        "reader": reader,
        "file_mb": round(len(content) / (1 << 20), 2),
        "outcome": outcome,
        "peak_rss_mb": round(after, 1),
        "reading_mb": round(after - before, 1),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=50, help="the largest file")
    parser.add_argument("--case", choices=CASES, help=argparse.SUPPRESS)
    parser.add_argument("--reader", choices=READERS, help=argparse.SUPPRESS)
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args(argv)
    if args.case:  # one measurement, in this fresh process
        print(json.dumps(run_case(args.case, args.reader, args.megabytes)))
        return 0
    results = []
    print(
        f"{'case':<16} {'reader':<10} {'file MB':>8} {'peak RSS MB':>12} {'reading MB':>11}  outcome"
    )
    for case in CASES:
        for reader in READERS:
            done = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--case",
                    case,
                    "--reader",
                    reader,
                    "--megabytes",
                    str(args.megabytes),
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                print(f"{case:<16} {reader:<10} failed: {done.stderr[-500:]}")
                return 1
            row = json.loads(done.stdout.strip().splitlines()[-1])
            results.append(row)
            print(
                f"{case:<16} {reader:<10} {row['file_mb']:>8} {row['peak_rss_mb']:>12} "
                f"{row['reading_mb']:>11}  {row['outcome']}"
            )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
