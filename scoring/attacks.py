"""Re-identification attacks E1–E4, EUC1, EUC2 (metrics.md "re-identification attacks").

Each attack gives every released row ``k`` a guess set ``T(k)`` of reference rows; the
rate is the mean of ``[truth(k) in T(k)] / |T(k)|``, the expected hit rate when ties
are broken uniformly at random. Only rows whose true reference row ties the minimum
distance contribute, so the engine needs, per released row, the true row's distance,
the minimum distance and the number of rows tying it (see :mod:`scoring.nearest`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.nearest import TIE_RTOL, nearest_hits
from scoring.prepare import TableCache, class_ids, sa_matrix


class AttackInputs:
    """Reference and released tables converted for the attacks.

    Parameters
    ----------
    ref_class, rel_class : ndarray of int64
        Class ids over ``match_qi`` in a shared id space (-1: matches nothing).
    ref_sa, rel_sa : ndarray of float64
        The ``sa`` columns (rows x columns).
    truth : ndarray of int64
        0-based reference row of each released row, -1 when it is not in the reference.
    config : RoundConfig
        Gives the ``sa`` order of the matrices and the attack columns.
    """

    def __init__(self, ref_class, rel_class, ref_sa, rel_sa, truth, config) -> None:
        self.ref_class = ref_class
        self.rel_class = rel_class
        self.ref_sa = ref_sa
        self.rel_sa = rel_sa
        self.truth = truth
        position = {column: k for k, column in enumerate(config.sa)}
        self.e2 = position[config.e2_column]
        self.e4 = position[config.e4_column]
        self.euc = [position[column] for column in config.euc_sa]
        class_sizes = np.bincount(ref_class[ref_class >= 0], minlength=1)
        has_class = (rel_class >= 0) & (rel_class < class_sizes.size)
        self.matched = has_class.copy()
        self.matched[has_class] = class_sizes[rel_class[has_class]] > 0
        valid_truth = truth >= 0
        self.truth_in_class = np.zeros(truth.size, dtype=bool)
        self.truth_in_class[valid_truth] = (
            ref_class[truth[valid_truth]] == rel_class[valid_truth]
        ) & self.matched[valid_truth]
        self.class_sizes = class_sizes
        self._cache: dict = {}


def e1_identify_rand(inputs: AttackInputs) -> float:
    """E1 identify.rand: a uniform pick among the reference rows of the same QI class."""
    rows = inputs.truth.size
    if rows == 0:
        return 0.0
    hits = inputs.truth_in_class
    sizes = inputs.class_sizes[inputs.rel_class[hits]]
    return float(np.sum(1.0 / sizes) / rows)


def _columns(matrix: np.ndarray, columns: Sequence[int]) -> np.ndarray:
    """``matrix[:, columns]``, without the copy when that is every column in order (EUC
    over all the ``sa`` columns: two fewer copies of the table, which are large at a
    million rows)."""
    if list(columns) == list(range(matrix.shape[1])):
        return matrix
    return matrix[:, columns]


def _rate(contributions: np.ndarray, rows: int) -> float:
    return float(contributions.sum() / rows) if rows else 0.0


def _class_then_all(inputs: AttackInputs, columns: Sequence[int], *, fallback: bool) -> float:
    """Nearest rows on ``columns`` inside the QI class; all rows when it is empty.

    The per-row results are cached on ``inputs``, so EUC2 reuses EUC1's work.
    """
    rows = inputs.truth.size
    key = tuple(columns)
    if ("class", key) not in inputs._cache:
        contributions = np.zeros(rows)
        matched = np.flatnonzero(inputs.matched)
        if matched.size:
            truth = np.where(inputs.truth_in_class[matched], inputs.truth[matched], -1)
            contributions[matched] = nearest_hits(
                _columns(inputs.ref_sa, columns),
                _columns(inputs.rel_sa, columns)[matched],
                truth,
                ref_class=inputs.ref_class,
                rel_class=inputs.rel_class[matched],
            )
        inputs._cache[("class", key)] = contributions
    contributions = inputs._cache[("class", key)]
    unmatched = np.flatnonzero(~inputs.matched)
    if fallback and unmatched.size:
        if ("all", key) not in inputs._cache:
            inputs._cache[("all", key)] = nearest_hits(
                _columns(inputs.ref_sa, columns),
                _columns(inputs.rel_sa, columns)[unmatched],
                inputs.truth[unmatched],
            )
        contributions = contributions.copy()
        contributions[unmatched] = inputs._cache[("all", key)]
    return _rate(contributions, rows)


def e2_identify_sa(inputs: AttackInputs) -> float:
    """E2 identify.sa: nearest ``e2_column`` value in the QI class (all rows if empty)."""
    return _class_then_all(inputs, [inputs.e2], fallback=True)


def rank_blocks(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's block of tied rank positions ``[start, end)`` in ascending order of ``sums``.

    After sorting, a sum ties the previous one when the gap is at most
    ``1e-9 * max(1, |sum|)``; a block grows while the gaps stay that small (metrics.md, E3).

    Examples
    --------
    >>> start, end = rank_blocks(np.array([5.0, 1.0, 5.0, 3.0]))
    >>> start.tolist(), end.tolist()
    ([2, 0, 2, 1], [4, 1, 4, 2])
    """
    sums = np.asarray(sums, dtype=np.float64)
    size = sums.size
    # Any sort: tied sums share one block, so the order among equal sums does not show,
    # and numpy's default sort is cheaper than a stable one.
    order = np.argsort(sums)
    ordered = sums[order]
    opens = np.ones(size, dtype=bool)
    opens[1:] = np.diff(ordered) > TIE_RTOL * np.maximum(1.0, np.abs(ordered[1:]))
    starts = np.flatnonzero(opens)
    ends = np.append(starts[1:], size)
    block = np.cumsum(opens) - 1
    start, end = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    start[order], end[order] = starts[block], ends[block]
    return start, end


def e3_identify_sort(inputs: AttackInputs) -> float:
    """E3 identify.sort: match the ranks of the ``sa`` sums, ties split uniformly.

    Row ``i`` contributes ``|a(i) ∩ x(i)| / (|a(i)|·|x(i)|)``, with ``a(i)`` and ``x(i)``
    its blocks of tied rank positions among the released and the reference rows: the
    chance that independent uniform tie-breaking in both tables pairs it with its true
    row. The result does not depend on the row order of either table.
    """
    rows = inputs.truth.size
    if rows == 0:
        return 0.0
    ref_start, ref_end = rank_blocks(inputs.ref_sa.sum(axis=1))
    rel_start, rel_end = rank_blocks(inputs.rel_sa.sum(axis=1))
    known = np.flatnonzero(inputs.truth >= 0)
    truth = inputs.truth[known]
    a_start, a_end = rel_start[known], rel_end[known]
    x_start, x_end = ref_start[truth], ref_end[truth]
    overlap = np.maximum(np.minimum(a_end, x_end) - np.maximum(a_start, x_start), 0)
    return _rate(overlap / ((a_end - a_start) * (x_end - x_start)), rows)


def e4_identify_sa21(inputs: AttackInputs) -> float:
    """E4 identify.sa21: nearest ``e4_column`` value among all reference rows."""
    contributions = nearest_hits(
        inputs.ref_sa[:, [inputs.e4]], inputs.rel_sa[:, [inputs.e4]], inputs.truth
    )
    return _rate(contributions, inputs.truth.size)


def euc1_identify_euc(inputs: AttackInputs) -> float:
    """EUC1: nearest ``euc_sa`` vector (Euclidean) in the QI class; no guess if empty."""
    return _class_then_all(inputs, inputs.euc, fallback=False)


def euc2_identify_euc(inputs: AttackInputs) -> float:
    """EUC2: as EUC1, but an empty QI class falls back to all reference rows."""
    return _class_then_all(inputs, inputs.euc, fallback=True)


EUC_METRICS = ("EUC1", "EUC2")


def euc_search(inputs: AttackInputs) -> None:
    """The nearest-row search behind EUC1 and EUC2, done ahead and cached on ``inputs``
    (``scoring.evaluate`` runs it beside the other metrics)."""
    _class_then_all(inputs, inputs.euc, fallback=True)


ATTACKS = {
    "E1": e1_identify_rand,
    "E2": e2_identify_sa,
    "E3": e3_identify_sort,
    "E4": e4_identify_sa21,
    "EUC1": euc1_identify_euc,
    "EUC2": euc2_identify_euc,
}


def attack_inputs(
    reference: pd.DataFrame, released: pd.DataFrame, truth: np.ndarray, config
) -> AttackInputs:
    """Convert reference/released tables and 1-based truth (0 = absent) for the attacks."""
    truth = np.asarray(truth, dtype=np.int64)
    if truth.shape != (len(released),):
        raise ValidationError("attack.truth_length", got=truth.size, expected=len(released))
    if truth.size and (truth.min() < 0 or truth.max() > len(reference)):
        raise ValidationError("attack.truth_range", reference_rows=len(reference))
    ref_cache, rel_cache = TableCache(reference), TableCache(released)
    # Decided on the round's original, never on this reference table (which may be a
    # candidate table whose decoys hold other values).
    integral = {c: c in config.integer_columns for c in config.match_qi}
    ref_class, rel_class = class_ids(ref_cache, rel_cache, config.match_qi, integral)
    ref_sa = sa_matrix(ref_cache, config.sa)
    rel_sa = sa_matrix(rel_cache, config.sa)
    for name, matrix in (("reference", ref_sa), ("released", rel_sa)):
        bad = np.flatnonzero(~np.isfinite(matrix).all(axis=1))
        if bad.size:
            raise ValidationError("attack.sa_not_number", what=f"{name} table", row=int(bad[0]) + 1)
    return AttackInputs(ref_class, rel_class, ref_sa, rel_sa, truth - 1, config)


def builtin_attack_rates(
    reference: pd.DataFrame, released: pd.DataFrame, truth: np.ndarray, config
) -> dict[str, float]:
    """Rates of the six built-in attacks of an attacker holding ``reference``.

    Parameters
    ----------
    reference : pandas.DataFrame
        The table the attacker matches against (original X, or a candidate table).
    released : pandas.DataFrame
        A published target (no deleted rows), same header.
    truth : array of int
        ``truth[k]`` = 1-based row of ``reference`` that released row ``k`` comes
        from, or 0 when that row is not in the reference.
    config : RoundConfig

    Returns
    -------
    dict
        ``{"E1": rate, ..., "EUC2": rate}``, plain floats in [0, 1].
    """
    inputs = attack_inputs(reference, released, truth, config)
    return {metric: attack(inputs) for metric, attack in ATTACKS.items()}
