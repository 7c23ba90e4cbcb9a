"""The reference linkage attack: a stronger attacker shown beside E1–E4, EUC1, EUC2.

Not one of the 2015 metrics (metrics.md): it never enters a score, a gate or the 2015
safety measures. It answers a different question — how much of a release a plain,
well-known record-linkage attack re-identifies — so that a team does not read the
built-in attacks' low rates as safety (issue 47: on two releases the built-in attacks'
best was 0.066 and 0.159, a 30-line linkage attack found 0.65 and 0.74).

Algorithm (every step deterministic; no randomness)
---------------------------------------------------
Columns, decided by the round's configuration:

* **categorical QIs** — the ``match_qi`` columns that are not integer-valued in the
  original (``config.integer_columns``);
* **numeric columns** — the integer-valued ``match_qi`` columns (ages, codes) and every
  ``sa`` column, each divided by its range ``max − min`` in the reference table (the
  table the attacker holds); a column whose range is 0 tells no row apart and is left out.

For every released row ``i``:

1. **Blocking**: the candidates are the reference rows with exactly the same categorical
   QI values (compared as the built-in attacks compare them).
2. **Nearest neighbour** inside the block: the candidates at the smallest Euclidean
   distance over the scaled numeric columns form the guess set ``T(i)``.
3. **Fallback with a mismatch penalty**: when the block is empty (some categorical value
   was changed, or is not in the reference), the candidates are all reference rows and
   the distance is ``sqrt(Σ_numeric ((a − x) / range)² + MISMATCH_PENALTY · m)``, ``m``
   the number of categorical QIs that disagree: one disagreement costs as much as a
   numeric column's whole range, so the rows that disagree least come first.
4. **Ties** are kept, as for the built-in attacks: distances tie within
   ``1e-9 · max(1, d)`` and row ``i`` contributes ``[truth(i) ∈ T(i)] / |T(i)|``
   (the expected hit rate of a uniform pick among the tied rows).

The rate is the mean of the contributions over the released rows (denominator: every
released row), the formula of metrics.md's attacks, so it reads like their rates.

Cost: the blocks are searched like EUC1 (:func:`scoring.nearest.nearest_hits`); a row
without a block first among the reference rows one categorical QI away
(``_one_mismatch_hits``, exact), and when that cannot decide it, against every reference
row, in slices of at most ``_PAIR_ELEMENTS`` pairs (bounded memory; the time grows with
those rows × reference rows). numpy only, so the toolkit without extras gives the same number.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.nearest import nearest_hits, tie_threshold
from scoring.prepare import TableCache, combine_codes, encode_pair, sa_matrix

REFERENCE_ATTACK = "REF"
"""Key of the reference attack's rate beside the 2015 metrics (``evaluate``'s result, a
target's built-in rates)."""

MISMATCH_PENALTY = 1.0
_PAIR_ELEMENTS = 2**21  # released × reference pairs per slice of the fallback (16 MB each)
# A row without a block is first searched among the reference rows one categorical QI away
# when they are at most this share of the reference (1/8): beyond it the full search is as fast.
_ONE_MISMATCH_SHARE = 8


def linkage_columns(config) -> tuple[list[str], list[str]]:
    """(categorical QIs, numeric columns) of the reference attack for ``config``.

    Examples
    --------
    The worked examples' QI columns hold integer codes, so nothing is blocked on:

    >>> from scoring._examples import example_config, example_table, X_ROWS
    >>> linkage_columns(example_config(example_table(X_ROWS)))
    ([], ['QI1', 'QI2', 'QI3', 'SA1', 'SA2'])
    """
    integer = set(config.integer_columns)
    categorical = [c for c in config.match_qi if c not in integer]
    numeric = [c for c in config.match_qi if c in integer]
    numeric += [c for c in config.sa if c not in numeric]
    return categorical, numeric


@dataclass(frozen=True)
class LinkageInputs:
    """Both tables as the attack reads them.

    ``ref_codes``/``rel_codes``: categorical QI codes (rows × columns, shared codes, -1
    for a value the reference lacks); ``ref_block``/``rel_block``: their combination (-1:
    no block); ``ref_points``/``rel_points``: the scaled numeric columns; ``truth``:
    0-based reference row of each released row, -1 when it is not in the reference.
    """

    ref_codes: np.ndarray
    rel_codes: np.ndarray
    ref_block: np.ndarray
    rel_block: np.ndarray
    ref_points: np.ndarray
    rel_points: np.ndarray
    truth: np.ndarray


def linkage_inputs(
    reference: TableCache,
    released: TableCache,
    truth: np.ndarray,
    config,
    *,
    released_rows: np.ndarray | None = None,
) -> LinkageInputs:
    """Convert the tables (``released_rows``: the rows of ``released`` attacked, default
    all) and the 0-based ``truth`` (-1: absent) for :func:`reference_attack`."""
    categorical, numeric = linkage_columns(config)
    n = reference.rows
    m = released.rows if released_rows is None else released_rows.size
    ref_codes, rel_codes, cards = [], [], []
    for column in categorical:
        ref_c, rel_c, card = encode_pair(
            reference, released, column, integral=False, released_rows=released_rows
        )
        ref_codes.append(ref_c)
        rel_codes.append(rel_c)
        cards.append(card)
    blocks = combine_codes(
        [np.concatenate([r, a]) for r, a in zip(ref_codes, rel_codes, strict=True)], cards, n + m
    )
    ref_points = sa_matrix(reference, numeric)
    rel_points = sa_matrix(released, numeric, released_rows)
    for what, points in (("reference table", ref_points), ("released table", rel_points)):
        bad = np.flatnonzero(~np.isfinite(points).all(axis=1))
        if bad.size:
            raise ValidationError("attack.sa_not_number", what=what, row=int(bad[0]) + 1)
    if n:
        spread = ref_points.max(axis=0) - ref_points.min(axis=0)
    else:
        spread = np.zeros(len(numeric))
    telling = spread > 0
    scale = 1.0 / spread[telling]
    return LinkageInputs(
        ref_codes=_stacked(ref_codes, n),
        rel_codes=_stacked(rel_codes, m),
        ref_block=blocks[:n],
        rel_block=blocks[n:],
        ref_points=np.ascontiguousarray(ref_points[:, telling] * scale),
        rel_points=np.ascontiguousarray(rel_points[:, telling] * scale),
        truth=np.asarray(truth, dtype=np.int64),
    )


def _stacked(codes: list[np.ndarray], rows: int) -> np.ndarray:
    if not codes:
        return np.zeros((rows, 0), dtype=np.int64)
    return np.column_stack(codes).astype(np.int64, copy=False)


def reference_attack(inputs: LinkageInputs) -> float:
    """The reference attack's rate (the module's docstring gives the algorithm).

    Examples
    --------
    >>> from scoring._examples import example_config, example_table, X_ROWS
    >>> x = example_table(X_ROWS)
    >>> reference_attack_rate(x, x, np.arange(1, 5), example_config(x))
    1.0
    """
    rows = inputs.truth.size
    if rows == 0:
        return 0.0
    contributions = np.zeros(rows)
    ref_block, rel_block = inputs.ref_block, inputs.rel_block
    sizes = np.bincount(ref_block[ref_block >= 0], minlength=1)
    has_block = (rel_block >= 0) & (rel_block < sizes.size)
    has_block[has_block] = sizes[rel_block[has_block]] > 0
    inside = np.flatnonzero(has_block)
    if inside.size and inputs.ref_points.shape[0]:
        truth = inputs.truth[inside]
        known = truth >= 0
        same = np.zeros(inside.size, dtype=bool)
        same[known] = ref_block[truth[known]] == rel_block[inside[known]]
        truth = np.where(same, truth, -1)
        if inputs.ref_points.shape[1] == 0:  # no numeric column: every block row ties
            contributions[inside[same]] = 1.0 / sizes[rel_block[inside[same]]]
        else:
            contributions[inside] = nearest_hits(
                inputs.ref_points,
                inputs.rel_points[inside],
                truth,
                ref_class=ref_block,
                rel_class=rel_block[inside],
            )
    outside = np.flatnonzero(~has_block & (inputs.truth >= 0))
    contributions[outside] = _fallback_hits(inputs, outside)
    return float(contributions.sum() / rows)


def _fallback_hits(inputs: LinkageInputs, rows: np.ndarray) -> np.ndarray:
    """Hits of ``rows`` (each with a true row, none with a block) against every reference
    row, distance with the mismatch penalty: first among the reference rows that differ in
    one categorical QI (``_one_mismatch_hits``), which decides most rows; the others
    against every reference row (``_all_pairs_hits``)."""
    out = np.zeros(rows.size)
    if rows.size == 0 or inputs.ref_points.shape[0] == 0:
        return out
    decided, hits = _one_mismatch_hits(inputs, rows)
    out[decided] = hits
    rest = np.flatnonzero(~decided)
    out[rest] = _all_pairs_hits(inputs, rows[rest])
    return out


def _one_mismatch_hits(inputs: LinkageInputs, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(which of ``rows`` are decided, their hits) from the reference rows one categorical
    QI away, found by blocking on every other QI.

    Exact, not a heuristic: a row without a block is at least one mismatch from every
    reference row, and a reference row two or more mismatches away is at distance at least
    ``sqrt(2 · MISMATCH_PENALTY)`` (the numeric part only adds; floating-point sums of
    non-negative terms keep that bound). So when the nearest one-mismatch row is closer
    than that by more than the tie tolerance, the guess set is among the one-mismatch rows
    alone, and the exact distances (``_pair_distances``, the same arithmetic as the full
    search) give the same hit. A row whose one-mismatch candidates number more than an
    eighth of the reference is left to the full search (the shortcut would not save)."""
    n = inputs.ref_points.shape[0]
    columns = inputs.ref_codes.shape[1]
    decided = np.zeros(rows.size, dtype=bool)
    if columns < 2:  # one QI: every reference row is one mismatch away
        return decided, np.zeros(0)
    searches = [_leave_one_out(inputs, rows, k) for k in range(columns)]
    counts = sum(count for _, _, count in searches)
    eligible = np.flatnonzero((counts > 0) & (counts <= n // _ONE_MISMATCH_SHARE))
    if eligible.size == 0:
        return decided, np.zeros(0)
    bound = np.sqrt(2.0 * MISMATCH_PENALTY)
    hits = np.zeros(rows.size)
    step_pairs = max(_PAIR_ELEMENTS, int(counts.max()))
    first = 0
    cumulative = np.cumsum(counts[eligible])
    while first < eligible.size:
        taken = cumulative[first] - counts[eligible[first]]
        last = int(np.searchsorted(cumulative, taken + step_pairs, side="right"))
        last = max(last, first + 1)
        part = eligible[first:last]
        pair_row, pair_ref = _candidate_pairs(searches, part)
        distance = _pair_distances(inputs, rows[part][pair_row], pair_ref)
        starts = np.flatnonzero(np.r_[True, pair_row[1:] != pair_row[:-1]])
        nearest = np.minimum.reduceat(distance, starts)
        sure = tie_threshold(nearest) < bound
        decided[part[sure]] = True
        keep = sure[pair_row]
        renumber = np.cumsum(sure) - 1
        hits[part[sure]] = _hits_from(
            distance[keep],
            renumber[pair_row[keep]],
            pair_ref[keep],
            inputs.truth[rows[part[sure]]],
        )
        first = last
    return decided, hits[decided]


def _leave_one_out(inputs: LinkageInputs, rows: np.ndarray, k: int):
    """The reference rows equal to each of ``rows`` on every categorical QI but the
    ``k``-th: (reference rows sorted by their class, each row's first index in that order,
    how many)."""
    n = inputs.ref_points.shape[0]
    others = [j for j in range(inputs.ref_codes.shape[1]) if j != k]
    codes = [np.concatenate([inputs.ref_codes[:, j], inputs.rel_codes[rows, j]]) for j in others]
    classes = combine_codes(codes, [int(c.max(initial=-1)) + 1 for c in codes], n + rows.size)
    ref_class, rel_class = classes[:n], classes[n:]
    order = np.argsort(ref_class, kind="stable")
    ordered = ref_class[order]
    start = np.searchsorted(ordered, rel_class, side="left")
    count = np.searchsorted(ordered, rel_class, side="right") - start
    count[rel_class < 0] = 0  # a value the reference lacks on another QI: none
    return order, start, count


def _candidate_pairs(searches, part: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (row of ``part``, reference row) pair of the leave-one-out searches, sorted by
    row (each reference row is in one search at most: it differs in exactly one QI)."""
    pair_rows, pair_refs = [], []
    for order, start, count in searches:
        counts = count[part]
        total = int(counts.sum())
        if total == 0:
            continue
        owner = np.repeat(np.arange(part.size), counts)
        within = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        pair_rows.append(owner)
        pair_refs.append(order[np.repeat(start[part], counts) + within])
    pair_row, pair_ref = np.concatenate(pair_rows), np.concatenate(pair_refs)
    by_row = np.argsort(pair_row, kind="stable")
    return pair_row[by_row], pair_ref[by_row]


def _all_pairs_hits(inputs: LinkageInputs, rows: np.ndarray) -> np.ndarray:
    """Hits of ``rows`` against every reference row, in slices of at most
    ``_PAIR_ELEMENTS`` pairs.

    The distance is Euclidean in an embedding (:func:`_embedded`), so each slice's squared
    distances come from one matrix product (BLAS, single precision) instead of a pass over
    the slice per column: 35 s → 2 s for 32,561 rows of which most have no block. The
    product's rounding only chooses the candidates: every pair within ``_SLACK`` of a row's
    smallest squared distance is measured again exactly, column by column as the module's
    docstring defines it, and the ties and hits are decided on those exact values.
    """
    out = np.zeros(rows.size)
    n = inputs.ref_points.shape[0]
    if rows.size == 0:
        return out
    ref_space, rel_space = _embedded(inputs, rows)
    ref_half_norms = 0.5 * np.einsum("ij,ij->i", ref_space, ref_space)
    step = max(1, _PAIR_ELEMENTS // n)
    for first in range(0, rows.size, step):
        part = slice(first, first + step)
        # ``|b|²/2 - a·b`` orders the reference rows as the squared distance does (``|a|²``
        # is the row's own constant): two passes over the slice after the product.
        order = rel_space[part] @ ref_space.T
        np.subtract(ref_half_norms[None, :], order, out=order)
        smallest = order.min(axis=1)
        own = 0.5 * np.einsum("ij,ij->i", rel_space[part], rel_space[part])
        slack = _SLACK * np.maximum(1.0, 2.0 * (smallest + own))
        close = np.flatnonzero(order <= (smallest + slack)[:, None])  # 1-D: 2x nonzero's speed
        pair_row, pair_ref = np.divmod(close, n)
        released = rows[part][pair_row]
        out[part] = _hits_from(
            _pair_distances(inputs, released, pair_ref),
            pair_row,
            pair_ref,
            inputs.truth[rows[part]],
        )
    return out


# The embedding's points in single precision: the product chooses candidates only (rounding
# below 1e-4 here), every candidate within this slack of a row's smallest is measured again.
_SLACK = 1e-3


def _embedded(inputs: LinkageInputs, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both tables as points whose squared Euclidean distance is the fallback's squared
    distance: the scaled numeric columns, then each categorical QI one-hot with weight
    ``sqrt(MISMATCH_PENALTY / 2)`` (two one-hot vectors that differ are ``MISMATCH_PENALTY``
    apart, squared), plus one slot per column for a released value the reference lacks
    (code -1), so that it too is one whole mismatch from every reference row."""
    weight = np.sqrt(MISMATCH_PENALTY / 2.0)
    ref_parts, rel_parts = [inputs.ref_points], [inputs.rel_points[rows]]
    for k in range(inputs.ref_codes.shape[1]):
        ref_code, rel_code = inputs.ref_codes[:, k], inputs.rel_codes[rows, k]
        width = int(max(ref_code.max(initial=-1), rel_code.max(initial=-1))) + 2
        for codes, parts in ((ref_code, ref_parts), (rel_code, rel_parts)):
            hot = np.zeros((codes.size, width))
            hot[np.arange(codes.size), codes + 1] = weight  # slot 0: the unknown value
            parts.append(hot)
    return np.hstack(ref_parts).astype(np.float32), np.hstack(rel_parts).astype(np.float32)


def _pair_distances(inputs: LinkageInputs, released: np.ndarray, pair_ref: np.ndarray):
    """The exact distance of each pair (released row, reference row), column by column as
    the module's docstring defines it."""
    squares = np.zeros(released.size)
    for k in range(inputs.ref_points.shape[1]):
        gap = inputs.rel_points[released, k] - inputs.ref_points[pair_ref, k]
        squares += gap * gap
    for k in range(inputs.ref_codes.shape[1]):
        squares += MISMATCH_PENALTY * (
            inputs.rel_codes[released, k] != inputs.ref_codes[pair_ref, k]
        )
    return np.sqrt(squares)


def _hits_from(
    distance: np.ndarray, pair_row: np.ndarray, pair_ref: np.ndarray, truth: np.ndarray
) -> np.ndarray:
    """Each row's contribution from its candidate pairs (``pair_row`` indexes ``truth``,
    sorted, every row present; ``distance`` exact): ties within ``tie_threshold`` of the
    row's smallest, ``[truth ∈ T] / |T|``."""
    starts = np.flatnonzero(np.r_[True, pair_row[1:] != pair_row[:-1]])
    threshold = tie_threshold(np.minimum.reduceat(distance, starts))[pair_row]
    tied = distance <= threshold
    count = np.bincount(pair_row, weights=tied, minlength=truth.size)
    hit = tied & (pair_ref == truth[pair_row])
    out = np.zeros(truth.size)
    out[pair_row[hit]] = 1.0 / count[pair_row[hit]]
    return out


def reference_attack_rate(
    reference: pd.DataFrame, released: pd.DataFrame, truth: np.ndarray, config
) -> float:
    """Rate of the reference attack of an attacker holding ``reference``.

    Parameters
    ----------
    reference : pandas.DataFrame or scoring.columns.Table
        The table the attacker matches against (original X, or a candidate table).
    released : pandas.DataFrame or scoring.columns.Table
        A published target (no deleted rows), same header.
    truth : array of int
        ``truth[k]`` = 1-based row of ``reference`` that released row ``k`` comes
        from, or 0 when that row is not in the reference.
    config : RoundConfig

    Returns
    -------
    float
        In [0, 1], computed as the built-in attacks' rates
        (:func:`scoring.attacks.builtin_attack_rates`).
    """
    truth = np.asarray(truth, dtype=np.int64)
    if truth.shape != (len(released),):
        raise ValidationError("attack.truth_length", got=truth.size, expected=len(released))
    if truth.size and (truth.min() < 0 or truth.max() > len(reference)):
        raise ValidationError("attack.truth_range", reference_rows=len(reference))
    inputs = linkage_inputs(TableCache(reference), TableCache(released), truth - 1, config)
    return reference_attack(inputs)
