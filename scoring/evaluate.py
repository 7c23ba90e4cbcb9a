"""Validation plus all 14 metrics of a submission (the function the server runs)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd

from scoring import attacks, indicators, linkage, safety, utility
from scoring.columns import Table
from scoring.metrics_info import ATTACK_METRICS, METRICS
from scoring.prepare import ScoringData, TableCache, sa_matrix
from scoring.schema import RoundConfig, value_columns
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


class PreparedOriginal:
    """An original table checked and converted once, for scoring many submissions.

    Build it with :func:`prepare_original`; pass it to :func:`evaluate` in place of the
    original table. It holds the factorised columns (QI codes and comparison keys, with
    the integer-column decision of ``config``), the ``sa`` matrix and the domains of the
    value columns, so a submission's job converts only the submission. It is read-only
    once built: one object may serve every job of a worker process.

    Attributes
    ----------
    config : RoundConfig
        The configuration it was prepared for.
    cache : TableCache
        The original's columns, factorised.
    sa : ndarray
        The ``sa`` columns of the original (rows x columns, float64).
    """

    def __init__(self, cache: TableCache, config: RoundConfig, sa: np.ndarray) -> None:
        self.cache = cache
        self.config = config
        self.sa = sa
        self.sa.flags.writeable = False

    @property
    def rows(self) -> int:
        return self.cache.rows


def prepare_original(original: Table | pd.DataFrame, config: RoundConfig) -> PreparedOriginal:
    """Validate the original table once and compute everything submissions are scored on.

    Parameters
    ----------
    original : scoring.columns.Table or pandas.DataFrame
        The original table X (:func:`scoring.load_table` or :func:`scoring.read_table`).
    config : RoundConfig

    Raises
    ------
    ValidationError
        The original table is invalid (header, empty cells, a non-numeric ``sa`` cell).

    Examples
    --------
    >>> from scoring._examples import example_config, example_table, X_ROWS
    >>> x = example_table(X_ROWS)
    >>> prepared = prepare_original(x, example_config(x))
    >>> evaluate(prepared, x, example_config(x))["E1"]
    0.5
    """
    cache = TableCache(original)
    validate_original(cache.table, config, cache=cache)
    for column in value_columns(config):
        cache.keys(column, integral=column in config.integer_columns)
    for column in config.columns:
        cache.empty(column)
    if config.indicators is not None:
        indicators.prepare_original_column(cache.table, config.indicators)
    return PreparedOriginal(cache, config, sa_matrix(cache, config.sa))


def evaluate(
    original: PreparedOriginal | Table | pd.DataFrame,
    anonymized: Table | pd.DataFrame,
    config: RoundConfig,
    *,
    timings: dict[str, float] | None = None,
    value_ranges: Mapping[str, tuple[float, float]] | None = None,
) -> dict[str, float | int | None]:
    """Validate a submission and compute every metric of metrics.md.

    Parameters
    ----------
    original : PreparedOriginal, scoring.columns.Table or pandas.DataFrame
        The original table, or its prepared form (:func:`prepare_original`) for ``config``.
    anonymized : scoring.columns.Table or pandas.DataFrame
        The submission (:func:`scoring.load_table` or :func:`scoring.read_table`).
    config : RoundConfig
    timings : dict, optional
        When given, filled with the seconds spent in validation, preparation and
        each metric (keys ``"validate"``, ``"prepare"``, ``"U1"``, ...).
    value_ranges : mapping of column to (low, high), optional
        The round's range rule, checked in place of those columns' domains
        (:func:`scoring.validation.validate_submission`).

    Returns
    -------
    dict
        ``U1`` .. ``EUC2`` (plain float/int; ``U2`` may be ``None``) plus ``rows``,
        ``kept_rows``, ``classes`` (equivalence classes of A+) and ``REF``, the rate of
        the reference linkage attack (:mod:`scoring.linkage`: shown beside the 2015
        metrics, not one of them); with an
        ``indicators`` block in ``config`` also ``L1``, ``L2``, ``L3`` (``None`` when
        some class has fewer than ``l`` labels) and ``T``.

    Raises
    ------
    ValidationError
        The submission (or the original) is invalid.
    ValueError
        ``original`` was prepared for another configuration.

    Examples
    --------
    >>> from scoring._examples import example_config, example_table, X_ROWS
    >>> x = example_table(X_ROWS)
    >>> evaluate(x, x, example_config(x))["E1"]
    0.5
    """
    clock = time.perf_counter()
    record = timings if timings is not None else {}
    if isinstance(original, PreparedOriginal):
        if original.config != config:
            raise ValueError("the original table was prepared for another configuration")
        prepared = original
    else:
        prepared = prepare_original(original, config)
    caches = (prepared.cache, TableCache(anonymized))
    validate_submission(
        prepared.cache.table, caches[1].table, config, caches=caches, value_ranges=value_ranges
    )
    record["validate"] = time.perf_counter() - clock
    clock = time.perf_counter()
    data = ScoringData(None, None, config, caches=caches, x_sa=prepared.sa)
    inputs = attack_inputs_for(data)
    record["prepare"] = time.perf_counter() - clock
    results: dict[str, float | int | None] = {}
    # The nearest-row search of EUC1/EUC2, the longest metric, runs on a second thread
    # beside the others (the compiled search releases the GIL); its timing is the wait.
    with ThreadPoolExecutor(1, thread_name_prefix="scoring-euc") as pool:
        euc = pool.submit(attacks.euc_search, inputs)
        for metric in METRICS:
            clock = time.perf_counter()
            if metric in ATTACK_METRICS:
                if metric in attacks.EUC_METRICS:
                    euc.result()
                value = attacks.ATTACKS[metric](inputs)
            else:
                value = METRIC_FUNCTIONS[metric](data)
            record[metric] = time.perf_counter() - clock
            results[metric] = _plain(value)
    results.update(_beside_the_metrics(prepared, data, record))
    return results


def _beside_the_metrics(prepared: PreparedOriginal, data: ScoringData, record: dict) -> dict:
    """What ``evaluate`` returns besides the 14 metrics: the reference attack, the indicators
    (when configured) and the row and class counts; their seconds go into ``record``."""
    clock = time.perf_counter()
    results = {linkage.REFERENCE_ATTACK: reference_attack_score(prepared, data)}
    record[linkage.REFERENCE_ATTACK] = time.perf_counter() - clock
    if data.config.indicators is not None:
        clock = time.perf_counter()
        results.update(indicator_scores(prepared, data))
        record["indicators"] = time.perf_counter() - clock
    results["rows"] = int(data.n)
    results["kept_rows"] = int(data.kept.size)
    results["classes"] = int(data.qi_ids.max(initial=-1) + 1)
    return results


def reference_attack_score(prepared: PreparedOriginal, data: ScoringData) -> float:
    """The reference linkage attack on the kept rows of A, each row's truth its own row of X
    (the attack the platform runs on the published target gives the same rate: it does not
    depend on the order of the rows)."""
    inputs = linkage.linkage_inputs(
        prepared.cache, data.a_cache, data.kept, data.config, released_rows=data.kept
    )
    return linkage.reference_attack(inputs)


def indicator_scores(prepared: PreparedOriginal, data: ScoringData) -> dict:
    """L1, L2, L3, T of the kept rows on the classes of S1/S2 (spec indicators Part A)."""
    spec = data.config.indicators
    result = indicators.table_indicators(
        prepared.cache.table,
        data.a_cache.table,
        data.qi_ids,
        spec,
        rows=data.kept,
        integer=spec.sa in data.config.integer_columns,
    )
    return {metric: _plain(value) for metric, value in result.scores().items()}


def indicator_classes(
    original: Table | pd.DataFrame,
    anonymized: Table | pd.DataFrame,
    config: RoundConfig,
    *,
    value_ranges: Mapping[str, tuple[float, float]] | None = None,
) -> pd.DataFrame:
    """The organizer's per-class table of the indicators (spec indicators A.3).

    One row per equivalence class of the kept rows (all ``qi``), largest distance first:
    the class key (its QI values), ``size``, ``m`` (distinct labels), ``exp_h``, ``c``
    (``inf`` when ``m < l``) and ``distance`` ``D[P_E, P]``.

    Raises
    ------
    ValueError
        ``config`` names no ``indicators`` block.
    """
    if config.indicators is None:
        raise ValueError("the configuration names no indicators block")
    prepared = prepare_original(original, config)
    caches = (prepared.cache, TableCache(anonymized))
    validate_submission(
        prepared.cache.table, caches[1].table, config, caches=caches, value_ranges=value_ranges
    )
    data = ScoringData(None, None, config, caches=caches, x_sa=prepared.sa)
    result = indicators.table_indicators(
        prepared.cache.table,
        data.a_cache.table,
        data.qi_ids,
        config.indicators,
        rows=data.kept,
        integer=config.indicators.sa in config.integer_columns,
    )
    _, first = np.unique(data.qi_ids, return_index=True)
    keys = {c: data.a_cache.values(c, data.kept[first]) for c in config.qi}
    table = pd.concat([pd.DataFrame(keys), result.classes], axis=1)
    return table.sort_values(["distance", "size"], ascending=[False, True], kind="stable")


def _plain(value):
    if value is None:
        return None
    if isinstance(value, int | np.integer):
        return int(value)
    value = float(value)
    if not np.isfinite(value):
        return None
    return value
