"""Seeded synthetic tables shaped like the PWSCup 2015 pseudo-microdata.

The 2015 competition used a 25-column extract of the National Statistics
Center's pseudo-microdata of the Family Income and Expenditure Survey: 13
discrete quasi-identifiers with small domains followed by 12 skewed, often zero
monthly expenditures. That file cannot be redistributed, so tests, demos and
benchmarks use tables generated here instead. Every cell is a Python ``str``
(object dtype), exactly like :func:`scoring.read_table` returns, so generated
tables can be fed to the engine without a CSV round trip.

Generation is fully vectorised (no Python loop over rows): a million rows take
a few seconds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.numbers import parse_numbers

__all__ = [
    "QI_COLUMNS",
    "SA_COLUMNS",
    "COLUMNS",
    "QI_DOMAINS",
    "SA_ZERO_FRACTIONS",
    "default_config_dict",
    "generate_original",
    "generate_anonymized",
]


def _zipf(size: int, alpha: float) -> tuple[float, ...]:
    weights = 1.0 / np.arange(1, size + 1) ** alpha
    return tuple(weights / weights.sum())


# Category probabilities, code k + 1 has probability probs[k]. Fixed (not drawn
# from the seed) so domain sizes and skew are the same for every table.
_QI_PROBS: dict[str, tuple[float, ...]] = {
    "sex": (0.82, 0.18),
    "age_band": (0.02, 0.08, 0.13, 0.15, 0.15, 0.14, 0.13, 0.10, 0.07, 0.03),
    "prefecture": _zipf(47, 0.9),
    "household_size": (0.25, 0.28, 0.20, 0.16, 0.07, 0.03, 0.007, 0.003),
    "city_class": (0.35, 0.25, 0.20, 0.12, 0.08),
    "occupation": _zipf(12, 0.7),
    "tenure": (0.62, 0.20, 0.08, 0.05, 0.03, 0.02),
    "earners": (0.20, 0.45, 0.25, 0.08, 0.02),
    "industry": _zipf(15, 0.8),
    "employment_status": (0.55, 0.15, 0.12, 0.10, 0.05, 0.03),
    "dwelling_type": (0.55, 0.35, 0.08, 0.02),
    "children": (0.55, 0.20, 0.17, 0.06, 0.015, 0.005),
    "income_band": (0.05, 0.09, 0.12, 0.14, 0.14, 0.13, 0.11, 0.09, 0.08, 0.05),
}

QI_COLUMNS: tuple[str, ...] = tuple(_QI_PROBS)
"""The 13 quasi-identifiers (integer codes ``1..len(domain)``)."""

QI_DOMAINS: dict[str, int] = {name: len(p) for name, p in _QI_PROBS.items()}
"""Number of codes of each quasi-identifier."""

# name -> (median of the non-zero values in yen, log-sd, zero fraction,
#          elasticity to household size)
_SA_SPECS: dict[str, tuple[float, float, float, float]] = {
    "food": (65_000, 0.45, 0.0, 0.45),
    "housing": (25_000, 1.0, 0.55, 0.0),
    "utilities": (18_000, 0.4, 0.01, 0.30),
    "furniture": (7_000, 1.1, 0.15, 0.10),
    "clothing": (9_000, 1.0, 0.20, 0.30),
    "medical": (9_000, 1.0, 0.15, 0.10),
    "transport": (30_000, 1.0, 0.05, 0.20),
    "education": (18_000, 1.1, 0.70, 0.30),
    "recreation": (25_000, 0.9, 0.04, 0.20),
    "personal_care": (8_000, 0.7, 0.05, 0.20),
    "social": (14_000, 1.2, 0.30, 0.0),
    "other": (45_000, 0.8, 0.02, 0.10),
}

SA_COLUMNS: tuple[str, ...] = tuple(_SA_SPECS)
"""The 12 expenditure columns (non-negative integers, yen)."""

SA_ZERO_FRACTIONS: dict[str, float] = {name: spec[2] for name, spec in _SA_SPECS.items()}
"""Expected fraction of zeros of each expenditure column."""

COLUMNS: tuple[str, ...] = QI_COLUMNS + SA_COLUMNS


def default_config_dict() -> dict:
    """Round configuration (JSON-ready) for tables from :func:`generate_original`.

    Mirrors the 2015 round: every QI column is a quasi-identifier, the cross
    tabulations use the first six, E2 uses the 2nd SA (paper: column 15) and E4
    the 8th SA (paper: column 21, the zero-heavy one).

    Returns
    -------
    dict
        Keys ``qi``, ``sa``, ``cross``, ``e2_column``, ``e4_column``,
        ``match_qi`` (``None`` = all qi), ``euc_sa`` (``None`` = all sa).

    Examples
    --------
    >>> cfg = default_config_dict()
    >>> len(cfg["qi"]), len(cfg["sa"]), cfg["e4_column"]
    (13, 12, 'education')
    """
    return {
        "qi": list(QI_COLUMNS),
        "sa": list(SA_COLUMNS),
        "cross": list(QI_COLUMNS[:6]),
        "e2_column": SA_COLUMNS[1],
        "e4_column": SA_COLUMNS[7],
        "match_qi": None,
        "euc_sa": None,
    }


def _codes(rng: np.random.Generator, probs: Sequence[float], n: int) -> np.ndarray:
    """Draw ``n`` codes in ``1..len(probs)`` (vectorised inverse CDF)."""
    cdf = np.cumsum(probs)
    cdf[-1] = 1.0
    return np.searchsorted(cdf, rng.random(n), side="right").astype(np.int64) + 1


def _format_codes(codes: np.ndarray) -> np.ndarray:
    """Small non-negative integer codes -> object array of ``str`` by table lookup."""
    table = np.array([str(k) for k in range(int(codes.max()) + 1)], dtype=object)
    return table[codes]


def _format_numbers(values: np.ndarray) -> np.ndarray:
    """Numbers -> object array of ``str``; integral float arrays are written as integers.

    Each distinct value is converted once, which is much faster than converting
    every cell for the typical many-ties expenditure columns. Non-negative
    integers with a moderate maximum are ranked through a presence table
    (linear time) instead of a sort.
    """
    values = np.asarray(values)
    if values.dtype.kind == "f" and np.all(values == np.round(values)):
        values = values.astype(np.int64)
    if values.dtype.kind in "iu" and values.size and values.min() >= 0:
        top = int(values.max())
        if top <= 8 * values.size + 1_000_000:
            present = np.zeros(top + 1, dtype=bool)
            present[values] = True
            rank = np.cumsum(present) - 1
            labels = np.flatnonzero(present).astype(str).astype(object)
            return labels[rank[values]]
    unique, inverse = np.unique(values, return_inverse=True)
    return unique.astype(str).astype(object)[inverse]


def _parse_numbers(cells: pd.Series) -> np.ndarray:
    """Column of numeric ``str`` cells -> float64, parsing each distinct value once."""
    codes, uniques = pd.factorize(cells.to_numpy(dtype=object))
    return parse_numbers(uniques)[codes]


def generate_original(n_rows: int, *, seed: int) -> pd.DataFrame:
    """Generate an original table shaped like the PWSCup 2015 data.

    Parameters
    ----------
    n_rows : int
        Number of rows (>= 1).
    seed : int
        Seed of ``numpy.random.default_rng``; the same seed gives the same table.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COLUMNS` (13 QI codes then 12 expenditures), every cell a
        ``str`` (object dtype), no empty cell.

    Examples
    --------
    >>> table = generate_original(5, seed=1)
    >>> table.shape
    (5, 25)
    >>> isinstance(table.iloc[0, 0], str)
    True
    """
    if n_rows < 1:
        raise ValueError("n_rows must be >= 1")
    rng = np.random.default_rng(seed)
    codes = {name: _codes(rng, probs, n_rows) for name, probs in _QI_PROBS.items()}
    # A few plausible dependencies so correlations (U4) and classes are not trivial.
    codes["children"] = np.minimum(codes["children"], codes["household_size"])
    codes["earners"] = np.minimum(codes["earners"], codes["household_size"])

    size = codes["household_size"].astype(float)
    wealth = 0.6 * rng.standard_normal(n_rows) + 0.08 * (codes["income_band"] - 5.5)
    no_children = codes["children"] == 1
    expenditures = {}
    for name, (median, sigma, zero_fraction, elasticity) in _SA_SPECS.items():
        log_value = (
            np.log(median)
            + sigma * (0.6 * wealth + 0.8 * rng.standard_normal(n_rows))
            + elasticity * np.log(size / 2.5)
        )
        value = np.maximum(np.round(np.exp(log_value) / 10.0) * 10.0, 10.0)
        if name == "education":
            # Households without children rarely pay for education; overall
            # zero fraction stays close to SA_ZERO_FRACTIONS["education"].
            p_zero = np.where(no_children, 0.93, 0.42)
        else:
            p_zero = np.full(n_rows, zero_fraction)
        value[rng.random(n_rows) < p_zero] = 0.0
        expenditures[name] = value.astype(np.int64)

    data = {name: _format_codes(c) for name, c in codes.items()}
    data.update({name: _format_numbers(v) for name, v in expenditures.items()})
    return pd.DataFrame(data, columns=list(COLUMNS), dtype=object)


def generate_anonymized(
    original: pd.DataFrame,
    *,
    seed: int,
    delete_fraction: float = 0.05,
    sa_noise: float = 0.1,
    additive_noise: float = 0.0,
    generalise_fraction: float = 0.0,
    qi: Sequence[str] | None = None,
    sa: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Make a simple valid anonymized submission of ``original``.

    Parameters
    ----------
    original : pandas.DataFrame
        Table of ``str`` cells (e.g. from :func:`generate_original` or
        :func:`scoring.read_table`); ``sa`` columns must be numeric.
    seed : int
        Seed of ``numpy.random.default_rng``.
    delete_fraction : float, default 0.05
        Fraction of rows deleted (all cells ``""``), rounded; at least one row
        is always kept.
    sa_noise : float, default 0.1
        Standard deviation of the multiplicative noise ``x * (1 + sa_noise * N(0, 1))``.
    additive_noise : float, default 0.0
        Standard deviation of an additive noise, as a fraction of the column's
        standard deviation.
    generalise_fraction : float, default 0.0
        In every ``qi`` column, this fraction of the rows is recoded to the
        column's most frequent value (so values stay within the original ones).
    qi, sa : sequence of str, optional
        Column roles; default: those of :func:`default_config_dict`.

    Returns
    -------
    pandas.DataFrame
        Same header and row count as ``original``, object dtype. Noisy SA values
        are clipped at 0 and written as integers when the original column holds
        integers only.

    Examples
    --------
    >>> x = generate_original(100, seed=0)
    >>> a = generate_anonymized(x, seed=1, delete_fraction=0.1)
    >>> int((a == "").all(axis=1).sum())
    10
    """
    if not 0.0 <= delete_fraction < 1.0:
        raise ValueError("delete_fraction must be in [0, 1)")
    config = default_config_dict()
    qi = list(config["qi"] if qi is None else qi)
    sa = list(config["sa"] if sa is None else sa)
    rng = np.random.default_rng(seed)
    n_rows = len(original)
    columns = {name: original[name].to_numpy(dtype=object, copy=True) for name in original}

    for name in sa:
        x = _parse_numbers(original[name])
        integral = bool(np.all(x == np.round(x)))
        noisy = x * (1.0 + sa_noise * rng.standard_normal(n_rows))
        if additive_noise:
            noisy += additive_noise * x.std() * rng.standard_normal(n_rows)
        noisy = np.maximum(noisy, 0.0)
        if integral:
            noisy = np.round(noisy)
        columns[name] = _format_numbers(noisy)

    if generalise_fraction > 0.0:
        for name in qi:
            mode = original[name].value_counts().index[0]
            columns[name][rng.random(n_rows) < generalise_fraction] = mode

    n_deleted = min(int(round(delete_fraction * n_rows)), n_rows - 1)
    if n_deleted:
        deleted = rng.choice(n_rows, size=n_deleted, replace=False)
        for column in columns.values():
            column[deleted] = ""
    return pd.DataFrame(columns, columns=original.columns, index=original.index, dtype=object)
