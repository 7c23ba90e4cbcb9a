"""Noise (B.1.3 Laplace LDP, B.1.4 randomized response, B.3 DB): random methods that
perturb each kept value independently, drawing in row order."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.kit._common import (
    KitError,
    at_least,
    check_columns,
    format_numbers,
    numbers,
    output_frame,
    rng_of,
    sort_keys,
)
from scoring.kit.methods._shared import kept_rows, require_number_domain


def _snap(values: np.ndarray, originals: np.ndarray) -> np.ndarray:
    """Index of the nearest of the sorted ``originals`` for each value (ties: smaller)."""
    position = np.clip(np.searchsorted(originals, values), 1, max(originals.size - 1, 1))
    lower = originals[position - 1]
    upper = originals[np.minimum(position, originals.size - 1)]
    take_upper = np.abs(upper - values) < np.abs(values - lower)
    return np.where(take_upper, np.minimum(position, originals.size - 1), position - 1)


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
    kept = kept_rows(out)
    for column in columns:
        if not snap:
            require_number_domain(config, column, method=method, option="snap=true")
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
    >>> randomized_response_probability(1000.0, 5), randomized_response_probability(float("inf"), 5)
    (1.0, 1.0)
    """
    if k <= 1:
        return 1.0
    # The same fraction divided by e^ε: e^ε overflows to inf from ε ≈ 710 (inf / inf = NaN
    # kept nothing), e^-ε only underflows to 0 (p = 1, every value kept).
    return float(1.0 / (1.0 + (k - 1) * np.exp(-float(epsilon))))


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
    at_least(epsilon, 0, method="randomized_response", name="epsilon", strict=True, infinite=True)
    columns = check_columns(table, columns, method="randomized_response")
    rng = rng_of(seed)
    out = output_frame(table)
    kept = kept_rows(out)
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
    at_least(scale, 0, method=method, name="scale")
    columns = check_columns(table, config.sa if columns is None else columns, method=method)
    rng = rng_of(seed)
    out = output_frame(table)
    kept = kept_rows(out)
    for column in columns:
        require_number_domain(config, column, method=method, option="(none: choose an sa column)")
        values = numbers(out, column, kept, method=method)
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = format_numbers(values + rng.laplace(0.0, float(scale), size=values.size))
        out[column] = cells
    return out
