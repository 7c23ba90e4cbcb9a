"""Utility of a release sequence (spec §9): IL (range-normalised NCP), CF, SUP, TMP.

``NCP(r) = (1/d) Σ_k min(1, (hi_k − lo_k)/R_k)`` for a numeric QI (``R_k`` its range
over the master given, 0 when ``R_k = 0``: for releases read by ``read_releases``, the
master as known at the last release, ``Master.known_at``) and ``(|S_k| − 1)/(|D_k| − 1)``
for a categorical one, over the hull of the group's region and the row's true QI (a
tampered row pays for the distance to its truth). ``IL(j)`` is the mean over the real rows
of ``T*(j)`` and ``IL`` the row-weighted mean over ``1..n``. Lower is better for all of
them.

Examples
--------
>>> from scoring.sequential._examples import headline
>>> result = utility(*headline())
>>> [round(v, 6) for v in result["IL_per_release"]], round(result["IL"], 6)
([0.339744, 0.636752], 0.467033)
>>> result["CF"], round(result["CF_ratio"], 6), result["SUP"], result["TMP"]
(1, 0.142857, 0, 0)
"""

from __future__ import annotations

import numpy as np

from scoring.sequential.cells import SEP, set_contains
from scoring.sequential.master import Master
from scoring.sequential.release import Release


def ncp(master: Master, release: Release) -> np.ndarray:
    """NCP of each real row of ``release`` (in row order)."""
    config = master.config
    real = release.real
    truth = master.frame.iloc[real["person"].to_numpy()]
    total = np.zeros(len(real))
    for column, kind in config.qi.items():
        value = truth[column].to_numpy()
        if kind == "num":
            lo = np.minimum(real[f"{column}.lo"].to_numpy(), value)
            hi = np.maximum(real[f"{column}.hi"].to_numpy(), value)
            low, high = master.ranges[column]
            span = high - low
            total += np.minimum(1.0, (hi - lo) / span) if span > 0 else 0.0
        else:
            sets = real[f"{column}.set"].reset_index(drop=True)
            size = sets.str.count(f"\\{SEP}").to_numpy() + 1
            size += ~set_contains(sets, truth[column].reset_index(drop=True))
            domain = len(master.domains[column])
            total += (size - 1) / (domain - 1) if domain > 1 else 0.0
    return total / len(config.qi)


def utility(master: Master, releases: list[Release]) -> dict:
    """IL per release, IL, CF, CF_ratio, SUP and TMP over ``releases`` (``1..n``)."""
    per_release, total, rows = [], 0.0, 0
    counterfeits = suppressed = tampered = alive = 0
    for release in releases:
        values = ncp(master, release)
        per_release.append(float(values.mean()) if values.size else 0.0)
        total += float(values.sum())
        rows += values.size
        size = int(master.alive(release.index).sum())
        alive += size
        counterfeits += release.counterfeits
        suppressed += size - values.size
        tampered += release.tampered_rows
    return {
        "IL_per_release": per_release,
        "IL": total / rows if rows else 0.0,
        "CF": counterfeits,
        "CF_ratio": counterfeits / alive if alive else 0.0,
        "SUP": suppressed,
        "TMP": tampered,
    }
