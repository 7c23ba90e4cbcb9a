"""Benchmark of the leaderboard scatter chart (issue 38): one chart of N teams, built.

The chart is drawn on the server (``pwscup.pwscup2015.leaderboards.charts.scatter``): axes,
points, and every team's label placed so that labels do not overlap (``charts.labels``).
The label placement used to compare every candidate position with every placed label and
point, which cost 3.3 s at 100 teams and took a production server down in the deadline
rush; it now reads areas from a summed-area table. This prints the median time to build one
chart at each size, for teams spread over the plot and for teams crowded on one spot.

Target (issue 38): a chart of 300 teams built in ≤ 100 ms.

Usage::

    .venv/bin/python benchmarks/bench_charts.py                  # 30, 100, 300 teams
    .venv/bin/python benchmarks/bench_charts.py --teams 10 --repeat 1   # the smoke run
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pwscup.settings.local")

import django  # noqa: E402

django.setup()

from django.utils import translation  # noqa: E402

from pwscup.pwscup2015.leaderboards import charts  # noqa: E402

TARGET_TEAMS, TARGET_MS = 300, 100.0


def rows(count: int, *, crowded: bool, seed: int = 0) -> list:
    """Leaderboard-like rows: (U4, E3) per team, spread or around one spot."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        if crowded:
            x = min(max(rng.gauss(0.5, 0.05), 0.0), 1.0)
            y = min(max(rng.gauss(0.5, 0.05), 0.0), 1.0)
        else:
            x, y = rng.random(), rng.random()
        team = SimpleNamespace(pk=k + 1, name=f"Team {k + 1:03d} 匿名化", slug=f"team{k + 1}")
        out.append(SimpleNamespace(team=team, rank=k + 1, scores={"U4": x, "E3": y}, safety=y))
    return out


def build(table: list) -> charts.Scatter:
    ranking = charts.ranking_axis(measure="worst_attack", every_attack=False)
    x_axis, y_axis = charts.chosen_axes({"x": "U4", "y": "ranking"}, ["U4", "E3"], ranking)
    return charts.scatter(rows=table, x_axis=x_axis, y_axis=y_axis)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, nargs="+", default=[30, 100, 300])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    missed = False
    with translation.override("en"):
        for count in args.teams:
            for crowded in (False, True):
                table = rows(count, crowded=crowded)
                times, chart = [], None
                for _ in range(args.repeat):
                    started = time.perf_counter()
                    chart = build(table)
                    times.append((time.perf_counter() - started) * 1000)
                median = statistics.median(times)
                leaders = sum(label.leader is not None for label in chart.labels)
                verdict = ""
                if count == TARGET_TEAMS:
                    verdict = "PASS" if median <= TARGET_MS else "FAIL"
                    missed |= median > TARGET_MS
                    verdict = f"  {verdict} (≤ {TARGET_MS:g} ms)"
                print(
                    f"{count:>4} teams {'crowded' if crowded else 'spread ':<7} "
                    f"{median:8.1f} ms  labels {len(chart.labels)} "
                    f"(with a leader line {leaders}){verdict}"
                )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
