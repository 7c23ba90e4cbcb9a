"""Running Pk-anonymization (Y eq. 2, spec §6): the draws, in their fixed order, and the table.

Randomness is an argument: a seeded :class:`numpy.random.Generator` for simulations and
tests, :func:`system_generator` (fresh OS entropy, never stored) for the platform's real
releases.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scoring.dp.config import DPConfig
from scoring.dp.data import table_codes
from scoring.dp.pk.plan import ReleasePlan


def system_generator() -> np.random.Generator:
    """A generator seeded from fresh OS entropy, for the platform's real releases.

    Its state is never stored or derived from anything: two calls are independent, and
    nobody can regenerate a release. Seeded generators are for simulations only.
    """
    return np.random.default_rng(np.random.SeedSequence())


def run_pk(
    codes: np.ndarray,
    plan: ReleasePlan,
    config: DPConfig,
    rng: np.random.Generator,
    *,
    shuffle: bool = True,
) -> np.ndarray:
    """Randomize ``codes`` (N × released attributes, round order) by eq. (2) per group.

    The draws follow spec §6 exactly: ``U = rng.random((N, G))``; then for each group
    ``R_g = rng.integers(0, V_g, size=N)``; a record keeps its group values iff
    ``U[i, g] < ρ_g``, else takes joint cell ``R_g[i]`` (row-major); finally
    ``perm = rng.permutation(N)`` shuffles the rows (not drawn when ``shuffle`` is false,
    which the baselines use: a histogram does not depend on row order). Every other draw
    is made even when unused.
    """
    codes = np.asarray(codes, dtype=np.int64)
    n = codes.shape[0]
    column = {a: k for k, a in enumerate(plan.attributes)}
    uniform = rng.random(size=(n, len(plan.groups)))
    out = codes.copy()
    for g, group in enumerate(plan.groups):
        replacement = rng.integers(0, group.size, size=n)
        redraw = ~(uniform[:, g] < group.rho)
        values = np.unravel_index(replacement[redraw], group.sizes)
        for attribute, value in zip(group.attributes, values, strict=True):
            out[redraw, column[attribute]] = value
    if shuffle:
        out = out[rng.permutation(n)]
    return out


def codes_to_table(codes: np.ndarray, config: DPConfig, attributes) -> pd.DataFrame:
    """Codes (N × attributes) back to a DataFrame of domain values."""
    return pd.DataFrame(
        {
            a: np.asarray(config.attributes[a], dtype=object)[codes[:, k]]
            for k, a in enumerate(attributes)
        }
    )


def pk_release(
    table: pd.DataFrame,
    config: DPConfig,
    plan: ReleasePlan,
    rng: np.random.Generator,
    *,
    shuffle: bool = True,
) -> pd.DataFrame:
    """A Pk-anonymized ``release.csv`` table of ``table``: workload attributes, N rows."""
    codes = table_codes(table, config, plan.attributes)
    return codes_to_table(
        run_pk(codes, plan, config, rng, shuffle=shuffle), config, plan.attributes
    )
