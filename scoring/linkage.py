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
   the distance is ``sqrt(Σ_numeric ((a − x) / range)² + MISMATCH_PENALTY · m)``
   (:mod:`scoring.linkage_fallback`; the penalty is 1), ``m``
   the number of categorical QIs that disagree: one disagreement costs as much as a
   numeric column's whole range, so the rows that disagree least come first.
4. **Ties** are kept, as for the built-in attacks: distances tie within
   ``1e-9 · max(1, d)`` and row ``i`` contributes ``[truth(i) ∈ T(i)] / |T(i)|``
   (the expected hit rate of a uniform pick among the tied rows).

The rate is the mean of the contributions over the released rows (denominator: every
released row), the formula of metrics.md's attacks, so it reads like their rates.

Cost: the blocks are searched like EUC1 (:func:`scoring.nearest.nearest_hits`); a row
without a block first among the reference rows one categorical QI away
(:mod:`scoring.linkage_fallback`, exact), and when that cannot decide it, against every
reference row, in slices of bounded memory (the time grows with those rows × reference rows).
numpy only, so the toolkit without extras gives the same number.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.linkage_fallback import fallback_hits
from scoring.nearest import nearest_hits
from scoring.prepare import TableCache, combine_codes, encode_pair, sa_matrix

REFERENCE_ATTACK = "REF"
"""Key of the reference attack's rate beside the 2015 metrics (``evaluate``'s result, a
target's built-in rates)."""


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
    contributions[outside] = fallback_hits(inputs, outside)
    return float(contributions.sum() / rows)


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
