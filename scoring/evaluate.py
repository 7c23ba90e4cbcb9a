"""Validation plus all 14 metrics of a submission (the function the server runs)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from scoring import attacks, safety, utility
from scoring.metrics_info import ATTACK_METRICS, METRICS
from scoring.prepare import ScoringData, TableCache
from scoring.schema import RoundConfig
from scoring.validation import validate_original, validate_submission

METRIC_FUNCTIONS: dict[str, Callable[[ScoringData], float | int | None]] = {
    "U1": utility.u1_mean_mae,
    "U2": utility.u2_cross_mean,
    "U3": utility.u3_cross_count,
    "U4": utility.u4_cor_mae,
    "U5": utility.u5_information_loss,
    "U6": utility.u6_deleted_rows,
    "S1": safety.s1_k_anonymity,
    "S2": safety.s2_mean_class_size,
}


def attack_inputs_for(data: ScoringData) -> attacks.AttackInputs:
    """The attack inputs of a scored submission: reference X, released A+, truth = K."""
    ref_class, rel_class = data.match_ids
    return attacks.AttackInputs(
        ref_class, rel_class, data.x_sa, data.a_sa, data.kept.astype(np.int64), data.config
    )


def evaluate(
    original: pd.DataFrame,
    anonymized: pd.DataFrame,
    config: RoundConfig,
    *,
    timings: dict[str, float] | None = None,
) -> dict[str, float | int | None]:
    """Validate a submission and compute every metric of metrics.md.

    Parameters
    ----------
    original, anonymized : pandas.DataFrame
        Tables as returned by :func:`scoring.read_table`.
    config : RoundConfig
    timings : dict, optional
        When given, filled with the seconds spent in validation, preparation and
        each metric (keys ``"validate"``, ``"prepare"``, ``"U1"``, ...).

    Returns
    -------
    dict
        ``U1`` .. ``EUC2`` (plain float/int; ``U2`` may be ``None``) plus ``rows``,
        ``kept_rows``, and ``classes`` (equivalence classes of A+).

    Raises
    ------
    ValidationError
        The submission (or the original) is invalid.

    Examples
    --------
    >>> from scoring._examples import example_config, example_table, X_ROWS
    >>> x = example_table(X_ROWS)
    >>> evaluate(x, x, example_config(x))["E1"]
    0.5
    """
    clock = time.perf_counter()
    record = timings if timings is not None else {}
    caches = (TableCache(original), TableCache(anonymized))
    validate_original(original, config, cache=caches[0])
    validate_submission(original, anonymized, config, caches=caches)
    record["validate"] = time.perf_counter() - clock
    clock = time.perf_counter()
    data = ScoringData(original, anonymized, config, caches=caches)
    inputs = attack_inputs_for(data)
    record["prepare"] = time.perf_counter() - clock
    results: dict[str, float | int | None] = {}
    for metric in METRICS:
        clock = time.perf_counter()
        if metric in ATTACK_METRICS:
            value = attacks.ATTACKS[metric](inputs)
        else:
            value = METRIC_FUNCTIONS[metric](data)
        record[metric] = time.perf_counter() - clock
        results[metric] = _plain(value)
    results["rows"] = int(data.n)
    results["kept_rows"] = int(data.kept.size)
    results["classes"] = int(data.qi_ids.max(initial=-1) + 1)
    return results


def _plain(value):
    if value is None:
        return None
    if isinstance(value, int | np.integer):
        return int(value)
    value = float(value)
    if not np.isfinite(value):
        return None
    return value
