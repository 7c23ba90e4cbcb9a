"""Publishing targets for the attack phase and the per-team sample mode."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.prepare import deleted_mask


@dataclass(frozen=True)
class PublishedTarget:
    """A published target and its secret truth.

    Attributes
    ----------
    table : pandas.DataFrame
        Kept rows only, shuffled, same header, index reset.
    truth : ndarray of int64
        ``truth[k]`` = 1-based row in the anonymized (and original) table of row ``k``.
    """

    table: pd.DataFrame
    truth: np.ndarray


def publish_target(
    anonymized: pd.DataFrame, *, seed: int, rows: int | None = None
) -> PublishedTarget:
    """Remove deleted rows and shuffle with ``numpy.random.default_rng(seed)``.

    With ``rows`` (iPWS 2023 published 300 of each table's 3,985 rows), only the first
    ``rows`` rows of that shuffle are published: a random sample of the kept rows, the same
    for the same seed, whose truth covers only the published rows. ``None``, or more rows
    than are kept, publishes every kept row.

    Examples
    --------
    >>> a = pd.DataFrame({"q": ["1", "", "3"], "s": ["5", "", "7"]})
    >>> target = publish_target(a, seed=0)
    >>> sorted(target.truth.tolist()), len(target.table)
    ([1, 3], 2)
    >>> sample = publish_target(a, seed=0, rows=1)
    >>> sample.truth.tolist() == target.truth[:1].tolist(), len(sample.table)
    (True, 1)
    """
    if rows is not None and rows < 1:
        raise ValueError(f"published rows must be at least 1, got {rows}")
    kept = np.flatnonzero(~deleted_mask(anonymized))
    order = np.random.default_rng(seed).permutation(kept.size)
    chosen = kept[order][:rows]
    table = anonymized.iloc[chosen].reset_index(drop=True)
    return PublishedTarget(table=table, truth=(chosen + 1).astype(np.int64))


def draw_sample(master: pd.DataFrame, *, size: int, seed: int) -> np.ndarray:
    """Sorted 0-based indices of ``size`` master rows drawn without replacement.

    Examples
    --------
    >>> draw_sample(pd.DataFrame({"a": list("abcdef")}), size=3, seed=1).size
    3
    """
    if not 0 < size <= len(master):
        raise ValueError(f"sample size must be in 1..{len(master)}, got {size}")
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(len(master), size=size, replace=False)).astype(np.int64)


@dataclass(frozen=True)
class CandidateTable:
    """Sample rows plus decoys, shuffled; ``position[i]`` = 1-based row of sample row i."""

    table: pd.DataFrame
    position: np.ndarray


def candidate_table(
    master: pd.DataFrame, sample_index: np.ndarray, *, decoys: int, seed: int
) -> CandidateTable:
    """The reference table of the per-team mode: the sample plus ``decoys`` other rows.

    Examples
    --------
    >>> master = pd.DataFrame({"a": [str(k) for k in range(10)]})
    >>> c = candidate_table(master, np.array([2, 5]), decoys=3, seed=0)
    >>> c.table["a"].iloc[c.position - 1].tolist()
    ['2', '5']
    """
    sample_index = np.asarray(sample_index, dtype=np.int64)
    pool = np.setdiff1d(np.arange(len(master)), sample_index)
    if not 0 <= decoys <= pool.size:
        raise ValueError(f"decoys must be in 0..{pool.size}, got {decoys}")
    rng = np.random.default_rng(seed)
    chosen = rng.choice(pool, size=decoys, replace=False) if decoys else pool[:0]
    rows = np.concatenate([sample_index, chosen])
    order = rng.permutation(rows.size)
    table = master.iloc[rows[order]].reset_index(drop=True)
    position = np.empty(rows.size, dtype=np.int64)
    position[order] = np.arange(1, rows.size + 1)
    return CandidateTable(table=table, position=position[: sample_index.size])
