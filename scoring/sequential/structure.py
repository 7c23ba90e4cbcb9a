"""Structural checks of a release sequence (spec §6): MU(j), MINV and signature changes.

``MU(j)`` is the largest m for which ``T*(j)`` is m-unique (Def. 7): 0 when a group
repeats a sensitive value, else the smallest group (counterfeits count). ``MINV`` is
the largest m for which ``T*(1..n)`` is m-invariant (Def. 8): 0 when some person's
signature changes between two releases where it is published, else ``min_j MU(j)``.

Examples
--------
>>> import pandas as pd
>>> from scoring.sequential.release import Release
>>> def release(j, rows):
...     frame = pd.DataFrame(rows, columns=["gid", "person", "pid", "sa"])
...     groups = pd.DataFrame({"size": frame.groupby("gid").size()})
...     sig = frame.drop_duplicates(["gid", "sa"]).sort_values("sa").groupby("gid")["sa"]
...     groups["signature"] = sig.agg("|".join)
...     groups["repeats"] = sig.size() < groups["size"]
...     return Release(j, frame, groups)
>>> one = release(1, [(1, 0, "Bob", "dys"), (1, 1, "Al", "bro")])
>>> two = release(2, [(1, 0, "Bob", "dys"), (1, 2, "Di", "gas")])
>>> result = structure([one, two])
>>> result.mu, result.minv, result.violation_texts()
([2, 2], 0, ["person 'Bob': signature {bro, dys} at release 1 but {dys, gas} at release 2"])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.messages import render
from scoring.sequential.cells import SEP
from scoring.sequential.messages import q
from scoring.sequential.release import Release


@dataclass(frozen=True)
class Structure:
    """MU per release, MINV and the signature changes (message dicts, master order)."""

    mu: list[int]
    minv: int
    violations: list[dict]

    @property
    def mu_min(self) -> int:
        return min(self.mu) if self.mu else 0

    def violation_texts(self, lang: str = "en") -> list[str]:
        """The violations as text, e.g. ``person 'Bob': signature {…} at release 1 but …``."""
        return [render(v["code"], v["params"], lang) for v in self.violations]

    def is_m_invariant(self, m: int) -> bool:
        return self.minv >= m

    def is_m_unique(self, m: int) -> bool:
        return self.mu_min >= m


def mu(release: Release) -> int:
    """``MU(j)``: 0 if some group repeats a sensitive value, else the smallest group size."""
    groups = release.groups
    if groups.empty or bool(groups["repeats"].any()):
        return 0
    return int(groups["size"].min())


def _braces(signature: str) -> str:
    return "{" + ", ".join(signature.split(SEP)) + "}"


def structure(releases: list[Release]) -> Structure:
    """MU(j), MINV and each person's first signature change over ``releases`` (1..n, in order).

    Signatures are compared over the releases where the person is published (with
    suppression a person may skip a release).
    """
    mus = [mu(release) for release in releases]
    frames = []
    for release in releases:
        real = release.rows.loc[release.rows["person"] >= 0, ["person", "pid", "gid"]]
        signature = release.groups["signature"].reindex(real["gid"]).to_numpy()
        frames.append(real.assign(release=release.index, signature=signature))
    violations: list[dict] = []
    if frames:
        seen = pd.concat(frames, ignore_index=True).sort_values(["person", "release"])
        person = seen["person"].to_numpy()
        signature = seen["signature"].to_numpy(dtype=object)
        same_person = np.r_[False, person[1:] == person[:-1]]
        change = same_person & np.r_[False, signature[1:] != signature[:-1]]
        first_change = change & ~pd.Series(change).groupby(person).cumsum().gt(1).to_numpy()
        k = np.flatnonzero(first_change)
        params = pd.DataFrame(
            {
                "pid": [q(pid) for pid in seen["pid"].to_numpy()[k]],
                "first": [_braces(sig) for sig in signature[k - 1]],
                "first_release": seen["release"].to_numpy()[k - 1].astype(int),
                "second": [_braces(sig) for sig in signature[k]],
                "second_release": seen["release"].to_numpy()[k].astype(int),
            }
        ).to_dict("records")
        violations = [
            {
                "code": "seq.signature_change",
                "params": {
                    **p,
                    "first_release": int(p["first_release"]),
                    "second_release": int(p["second_release"]),
                },
            }
            for p in params
        ]
    minv = 0 if violations or not mus else min(mus)
    return Structure(mus, minv, violations)
