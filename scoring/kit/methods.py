"""Anonymization methods of the starter kit (spec indicators-and-kit.md B.1–B.3).

Every method takes the current table (text cells, as :func:`scoring.read_table`
returns) and the round configuration, returns a new table with the same header, the
same rows in the same order, deleted rows all empty and every value a valid
submission value; so methods chain, and the result of a chain is a submission. Options
are keyword-only; random methods take ``seed`` (an int, or a shared
``numpy.random.Generator``) and draw in row order. Deleted rows stay deleted and are
never drawn for.

BANK, the spec's ten-row worked example (B.4), is used by the doctests:

>>> from scoring.kit._examples import bank, bank_config
>>> top_bottom_coding(bank(), bank_config(), column="deposit", bottom=80, top=500)[
...     "deposit"].tolist()
['80', '80', '120', '200', '150', '300', '420', '380', '500', '500']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.kit._common import (
    KitError,
    check_columns,
    class_codes,
    deleted_rows,
    format_numbers,
    is_integral,
    mode_value,
    numbers,
    output_frame,
    rng_of,
    sort_keys,
)


def _kept(table: pd.DataFrame) -> np.ndarray:
    return np.flatnonzero(~deleted_rows(table))


def _is_number_column(config, column: str) -> bool:
    return config.domains.get(column) == "number"


def _require_number_domain(config, column: str, *, method: str, option: str) -> None:
    if not _is_number_column(config, column):
        raise KitError("kit.number_domain", method=method, column=column, option=option)


def _blank(out: pd.DataFrame, rows: np.ndarray, *, method: str) -> pd.DataFrame:
    if rows.size:
        out.iloc[rows, :] = ""
    if deleted_rows(out).all():
        raise KitError("kit.all_deleted", method=method)
    return out


def _snap(values: np.ndarray, originals: np.ndarray) -> np.ndarray:
    """Index of the nearest of the sorted ``originals`` for each value (ties: smaller)."""
    position = np.clip(np.searchsorted(originals, values), 1, max(originals.size - 1, 1))
    lower = originals[position - 1]
    upper = originals[np.minimum(position, originals.size - 1)]
    take_upper = np.abs(upper - values) < np.abs(values - lower)
    return np.where(take_upper, np.minimum(position, originals.size - 1), position - 1)


# --------------------------------------------------------------------------------------
# B.1.2 record removal, B.3 DH deletion and the outlier rule of B.2


def remove_record(table: pd.DataFrame, config, *, k: int, columns: Sequence[str] | None = None):
    """``Remove_record``: blank every row whose combination of ``columns`` occurs < ``k`` times.

    One pass suffices: removing whole classes changes no other class (B.1.2).

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = remove_record(bank(), bank_config(), k=2, columns=["sex"])
    >>> int((out == "").all(axis=1).sum())
    0
    """
    columns = check_columns(
        table, config.qi if columns is None else columns, method="remove_record"
    )
    out = output_frame(table)
    kept = _kept(out)
    codes = class_codes(out, columns, kept)
    sizes = np.bincount(codes)
    return _blank(out, kept[sizes[codes] < int(k)], method="remove_record")


def delete_rows(table: pd.DataFrame, config, *, rows: Sequence[int]):
    """DH with given rows: blank the listed rows (1-based).

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = delete_rows(bank(), bank_config(), rows=[2, 10])
    >>> (out == "").all(axis=1).tolist()[:3]
    [False, True, False]
    """
    rows = np.asarray(list(rows), dtype=np.int64)
    bad = rows[(rows < 1) | (rows > len(table))]
    if bad.size:
        raise KitError("kit.bad_row", method="delete_rows", row=int(bad[0]), rows=len(table))
    return _blank(output_frame(table), np.unique(rows - 1), method="delete_rows")


def delete_random(table: pd.DataFrame, config, *, d: int, seed=None):
    """DH at random: blank ``d`` kept rows drawn uniformly without replacement (seeded)."""
    out = output_frame(table)
    kept = _kept(out)
    chosen = rng_of(seed).choice(kept.size, size=min(int(d), kept.size), replace=False)
    return _blank(out, kept[np.sort(chosen)], method="delete_random")


def delete_outliers(table: pd.DataFrame, config, *, d: int, columns: Sequence[str] | None = None):
    """Record suppression (B.2): blank the ``d`` rows farthest from the mean in z-scores.

    The norm is Euclidean over the z-scores (population sd) of ``columns`` (default: all
    ``sa``); ties go to the higher row.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = delete_outliers(bank(), bank_config(), d=1, columns=["income", "deposit"])
    >>> np.flatnonzero((out == "").all(axis=1)).tolist()
    [9]
    """
    columns = check_columns(
        table, config.sa if columns is None else columns, method="delete_outliers"
    )
    out = output_frame(table)
    kept = _kept(out)
    z = _zscores(out, columns, kept, method="delete_outliers")
    norm = np.sqrt(np.einsum("ij,ij->i", z, z))
    order = np.lexsort((-kept, -norm))  # largest norm first, ties: higher row first
    return _blank(out, kept[order[: int(d)]], method="delete_outliers")


def _zscores(table, columns, rows, *, method) -> np.ndarray:
    values = np.column_stack([numbers(table, c, rows, method=method) for c in columns])
    sd = values.std(axis=0)
    return (values - values.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


# --------------------------------------------------------------------------------------
# B.2 top / bottom coding, B.3 DD/DE QI unification


def top_bottom_coding(
    table: pd.DataFrame,
    config,
    *,
    column: str,
    top: float | None = None,
    bottom: float | None = None,
    rep: str = "value",
):
    """Top/bottom coding: ``v > top -> top``, ``v < bottom -> bottom``.

    ``top`` and ``bottom`` must be values of the column (so the output keeps original
    values). ``rep="mean"`` replaces the coded values of each side by their mean instead
    (only for ``number``-domain columns).

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> top_bottom_coding(bank(), bank_config(), column="age", top=63)["age"].tolist()[-3:]
    ['58', '63', '63']
    """
    method = "top_bottom_coding"
    check_columns(table, [column], method=method)
    if rep not in ("value", "mean"):
        raise KitError("kit.bad_parameter", method=method, name="rep", reason="'value' or 'mean'")
    out = output_frame(table)
    kept = _kept(out)
    values = numbers(out, column, kept, method=method)
    cells = out[column].to_numpy(dtype=object, copy=True)
    for code, beyond in ((top, lambda v, t: v > t), (bottom, lambda v, t: v < t)):
        if code is None:
            continue
        match = np.flatnonzero(values == float(code))
        if match.size == 0:
            raise KitError("kit.code_value", column=column, value=code)
        rows = np.flatnonzero(beyond(values, float(code)))
        if rep == "mean":
            _require_number_domain(config, column, method=method, option="rep=value")
            replacement = format_numbers(np.array([values[rows].mean()]))[0] if rows.size else ""
        else:
            replacement = cells[kept[match[0]]]
        cells[kept[rows]] = replacement
    out[column] = cells
    return out


def qi_unify(table: pd.DataFrame, config, *, columns: Sequence[str]):
    """DD/DE: set each column to its most frequent value (ties: the smallest).

    DD names QI columns outside ``cross``, DE columns of ``cross``.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> qi_unify(bank(), bank_config(), columns=["pref"])["pref"].unique().tolist()
    ['東京']
    """
    columns = check_columns(table, columns, method="qi_unify")
    out = output_frame(table)
    kept = _kept(out)
    for column in columns:
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = mode_value(cells[kept])
        out[column] = cells
    return out


# --------------------------------------------------------------------------------------
# Noise: B.1.3 Laplace LDP, B.1.4 randomized response, B.3 DB


def laplace_ldp(
    table: pd.DataFrame,
    config,
    *,
    columns: Sequence[str],
    epsilon: float,
    value_range: Sequence[float] | None = None,
    clip: bool = False,
    snap: bool = False,
    seed=None,
):
    """``Differential_l``: ``y = x + Lap(Δ/ε)`` per value, ``Δ = max − min`` (B.1.3).

    ``value_range`` defaults to the column's values. ``clip`` clips to ``[min, max]``;
    ``snap`` rounds to the nearest original value (ties: smaller), required for a column
    that must keep original values.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = laplace_ldp(bank(), bank_config(), columns=["income"], epsilon=1.0, seed=0)
    >>> out["income"].tolist() == bank()["income"].tolist()
    False
    """
    method = "laplace_ldp"
    if not float(epsilon) > 0:
        raise KitError("kit.bad_parameter", method=method, name="epsilon", reason="must be > 0")
    columns = check_columns(table, columns, method=method)
    rng = rng_of(seed)
    out = output_frame(table)
    kept = _kept(out)
    for column in columns:
        if not snap:
            _require_number_domain(config, column, method=method, option="snap=true")
        values = numbers(out, column, kept, method=method)
        bounds = values if value_range is None else np.asarray(value_range, dtype=np.float64)
        low, high = float(bounds.min()), float(bounds.max())
        noisy = values + rng.laplace(0.0, (high - low) / float(epsilon), size=values.size)
        if clip:
            noisy = np.clip(noisy, low, high)
        cells = out[column].to_numpy(dtype=object, copy=True)
        if snap:
            originals, codes = sort_keys(cells[kept])
            as_numbers = numbers(
                pd.DataFrame({column: originals}), column, np.arange(originals.size), method=method
            )
            cells[kept] = originals[_snap(noisy, as_numbers)]
        else:
            cells[kept] = format_numbers(noisy)
        out[column] = cells
    return out


def randomized_response_probability(epsilon: float, k: int) -> float:
    """``P(y = x) = e^ε / (K − 1 + e^ε)`` of generalized randomized response.

    Examples
    --------
    >>> round(randomized_response_probability(1.0, 2), 3), round(randomized_response_probability(1.0, 5), 4)
    (0.731, 0.4046)
    """
    if k <= 1:
        return 1.0
    return float(np.exp(epsilon) / (k - 1 + np.exp(epsilon)))


def randomized_response(
    table: pd.DataFrame, config, *, columns: Sequence[str], epsilon: float, seed=None
):
    """``Differential_e``: generalized randomized response over the column's values (B.1.4).

    Keep ``x`` with probability ``e^ε/(K−1+e^ε)``, else output one of the other ``K−1``
    values uniformly (values in sorted order). Outputs are original values.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = randomized_response(bank(), bank_config(), columns=["sex"], epsilon=50.0, seed=0)
    >>> out["sex"].tolist() == bank()["sex"].tolist()
    True
    """
    columns = check_columns(table, columns, method="randomized_response")
    rng = rng_of(seed)
    out = output_frame(table)
    kept = _kept(out)
    for column in columns:
        cells = out[column].to_numpy(dtype=object, copy=True)
        distinct, codes = sort_keys(cells[kept])
        keep = rng.random(kept.size) <= randomized_response_probability(
            float(epsilon), distinct.size
        )
        if distinct.size > 1:
            other = rng.integers(0, distinct.size - 1, size=kept.size)
            other = other + (other >= codes)
            codes = np.where(keep, codes, other)
        cells[kept] = distinct[codes]
        out[column] = cells
    return out


def sa_noise(
    table: pd.DataFrame, config, *, scale: float, columns: Sequence[str] | None = None, seed=None
):
    """DB: add Laplace noise of scale ``scale`` (``b``) to every value of ``columns`` (default ``sa``).

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = sa_noise(bank(), bank_config(), scale=0.0, seed=0)
    >>> out["income"].tolist() == bank()["income"].tolist()
    True
    """
    method = "sa_noise"
    columns = check_columns(table, config.sa if columns is None else columns, method=method)
    rng = rng_of(seed)
    out = output_frame(table)
    kept = _kept(out)
    for column in columns:
        _require_number_domain(config, column, method=method, option="(none: choose an sa column)")
        values = numbers(out, column, kept, method=method)
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = format_numbers(values + rng.laplace(0.0, float(scale), size=values.size))
        out[column] = cells
    return out


# --------------------------------------------------------------------------------------
# In-class methods: B.3 DF (SA mean), DG (swap), DC (Yamaoka row moves)


def _qi_classes(table: pd.DataFrame, config, kept: np.ndarray) -> np.ndarray:
    return class_codes(table, config.qi, kept)


def sa_class_mean(table: pd.DataFrame, config, *, columns: Sequence[str] | None = None):
    """DF: inside each full-QI class every value of ``columns`` (default ``sa``) becomes the class mean.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = sa_class_mean(bank(), bank_config(qi=["sex"]), columns=["income"])
    >>> sorted(set(out["income"]))
    ['490', '502']
    """
    method = "sa_class_mean"
    columns = check_columns(table, config.sa if columns is None else columns, method=method)
    out = output_frame(table)
    kept = _kept(out)
    classes = _qi_classes(out, config, kept)
    for column in columns:
        _require_number_domain(config, column, method=method, option="(none: choose an sa column)")
        values = numbers(out, column, kept, method=method)
        means = np.bincount(classes, weights=values) / np.bincount(classes)
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = format_numbers(means[classes])
        out[column] = cells
    return out


def swap_in_class(table: pd.DataFrame, config, *, columns: Sequence[str] | None = None, seed=None):
    """DG: inside each full-QI class, each column gets an independent uniform permutation.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = swap_in_class(bank(), bank_config(qi=["sex"]), seed=1)
    >>> sorted(out["income"]) == sorted(bank()["income"])
    True
    """
    columns = check_columns(
        table, config.sa if columns is None else columns, method="swap_in_class"
    )
    rng = rng_of(seed)
    out = output_frame(table)
    kept = _kept(out)
    classes = _qi_classes(out, config, kept)
    by_class = np.argsort(classes, kind="stable")
    for column in columns:
        shuffled = np.lexsort((rng.random(kept.size), classes))
        cells = out[column].to_numpy(dtype=object, copy=True)
        moved = cells[kept].copy()
        moved[by_class] = cells[kept][shuffled]
        cells[kept] = moved
        out[column] = cells
    return out


def yamaoka(table: pd.DataFrame, config):
    """DC (YA): inside each full-QI class ``i_1 < … < i_s``, row ``i_t`` takes the record of ``i_{t+1}``.

    Row ``i_s`` takes that of ``i_1``. Whole records move, so the table's multiset of
    records is unchanged and each row keeps its QI class.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> yamaoka(bank(), bank_config(qi=["sex"]))["income"].tolist()[:3]
    ['420', '500', '480']
    """
    out = output_frame(table)
    kept = _kept(out)
    classes = _qi_classes(out, config, kept)
    order = np.argsort(classes, kind="stable")  # rows ascending inside each class
    ordered = classes[order]
    first = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    size = np.diff(np.r_[first, ordered.size])
    start = np.repeat(first, size)
    offset = np.arange(ordered.size) - start
    source = order[start + (offset + 1) % np.repeat(size, size)]
    values = out.to_numpy(dtype=object, copy=True)
    values[kept[order]] = values[kept[source]]
    return pd.DataFrame(values, columns=out.columns, dtype=object)


# --------------------------------------------------------------------------------------
# Micro-aggregation: MDAV (B.2)


def mdav_groups(points: np.ndarray, *, k: int) -> np.ndarray:
    """Group id of each row by MDAV (Domingo-Ferrer & Mateo-Sanz 2002), ties to the lower row.

    While ≥ 3k rows remain: r = farthest from the centroid, s = farthest from r; the k
    nearest r, then the k nearest s form groups. With 2k…3k−1 left, the k nearest the
    row farthest from the centroid form a group; the rest is the last group. One
    iteration is vectorised over the remaining rows, so the cost is O(n²/k).

    Examples
    --------
    >>> mdav_groups(np.array([[0.0], [1.0], [10.0], [11.0]]), k=2).tolist()
    [0, 0, 1, 1]
    """
    n = points.shape[0]
    group = np.full(n, -1, dtype=np.int64)
    left = np.arange(n)
    label = 0

    def farthest(center, rows):
        d = np.sum((points[rows] - center) ** 2, axis=1)
        return rows[int(np.argmax(d))]  # argmax: first (lowest) row among ties

    def nearest_k(center, rows):
        d = np.sum((points[rows] - center) ** 2, axis=1)
        return rows[np.lexsort((rows, d))[:k]]

    while left.size >= 3 * k:
        r = farthest(points[left].mean(axis=0), left)
        s = farthest(points[r], left)
        for anchor in (r, s):
            members = nearest_k(points[anchor], left)
            group[members] = label
            label += 1
            left = left[group[left] < 0]
    if left.size >= 2 * k:
        members = nearest_k(points[farthest(points[left].mean(axis=0), left)], left)
        group[members] = label
        label += 1
        left = left[group[left] < 0]
    if left.size:
        group[left] = label
    return group


def mdav(table: pd.DataFrame, config, *, k: int, columns: Sequence[str] | None = None):
    """Micro-aggregation by MDAV on z-scored ``columns`` (default ``sa``); values become group means.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = mdav(bank(), bank_config(), k=3, columns=["income", "deposit"])
    >>> out["income"].tolist()[2:4]
    ['356.6666666666667', '572.5']
    """
    method = "mdav"
    columns = check_columns(table, config.sa if columns is None else columns, method=method)
    if int(k) < 1:
        raise KitError("kit.bad_parameter", method=method, name="k", reason="must be ≥ 1")
    out = output_frame(table)
    kept = _kept(out)
    groups = mdav_groups(_zscores(out, columns, kept, method=method), k=int(k))
    for column in columns:
        _require_number_domain(config, column, method=method, option="(none: choose an sa column)")
        values = numbers(out, column, kept, method=method)
        means = np.bincount(groups, weights=values) / np.bincount(groups)
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = format_numbers(means[groups])
        out[column] = cells
    return out


__all__ = [
    "delete_outliers",
    "delete_random",
    "delete_rows",
    "is_integral",
    "laplace_ldp",
    "mdav",
    "mdav_groups",
    "qi_unify",
    "randomized_response",
    "randomized_response_probability",
    "remove_record",
    "sa_class_mean",
    "sa_noise",
    "swap_in_class",
    "top_bottom_coding",
    "yamaoka",
]
