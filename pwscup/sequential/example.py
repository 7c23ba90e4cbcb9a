"""The Rules tab's worked example (reads only): four persons, two releases, m = 2.

Release 1 is the same in both sequences; release 2 comes twice: a *kept* one (every person
keeps its group's set of values; Carl's group gets a counterfeit row after Dora left) and a
*regrouped* one (Anna moves to Carl's group). Every number the page shows is computed here
by the server's own check (``engine.sequence_check``), never typed by hand.
"""

from __future__ import annotations

import csv
import functools
import io
from dataclasses import dataclass

from pwscup.sequential import engine

CONFIG = {"type": "sequential", "n_releases": 2, "m": 2, "qi": {"Age": "num"}, "sa": "Disease"}
MASTER = """pid,Age,Disease,lsf,lsb
Anna,25,flu,1,2
Ben,27,cold,1,2
Carl,41,hiv,1,2
Dora,44,flu,1,1
"""
RELEASE_1 = """gid,pid,Age,Disease
1,Anna,"[25,27]",flu
1,Ben,"[25,27]",cold
2,Carl,"[41,44]",hiv
2,Dora,"[41,44]",flu
"""
KEPT = """gid,pid,Age,Disease
1,Anna,"[25,27]",flu
1,Ben,"[25,27]",cold
2,Carl,41,hiv
2,,41,flu
"""
REGROUPED = """gid,pid,Age,Disease
1,Anna,"[25,41]",flu
1,Carl,"[25,41]",hiv
2,Ben,27,cold
2,,27,flu
"""


def rows(text: str) -> tuple[list[str], list[list[str]]]:
    """A CSV text as (header, rows) for a page's tables (this example's, a release's risks)."""
    table = list(csv.reader(io.StringIO(text)))
    return table[0], table[1:]


@dataclass(frozen=True)
class Outcome:
    """What the server's check says of releases 1 and 2: its summary and each person's
    probability of being identified (``pid → P_N_true``)."""

    results: dict
    risk: dict[str, float]


def _check(release_2: str) -> Outcome:
    master = engine.master_read(MASTER.encode(), CONFIG)
    outcome = engine.sequence_check(
        master, [RELEASE_1.encode(), release_2.encode()], CONFIG, current=2
    )
    per_person = csv.DictReader(io.StringIO(outcome.per_person_csv))
    return Outcome(
        results=outcome.results,
        risk={row["pid"]: float(row["P_N_true"]) for row in per_person},
    )


@functools.cache
def worked_example() -> dict:
    """The page's example: the master, the releases as tables and the two outcomes."""
    return {
        "master": rows(MASTER),
        "release_1": rows(RELEASE_1),
        "kept": rows(KEPT),
        "regrouped": rows(REGROUPED),
        "kept_outcome": _check(KEPT),
        "regrouped_outcome": _check(REGROUPED),
    }
