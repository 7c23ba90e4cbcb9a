"""Properties of the indicators (spec indicators-and-kit.md A.6), driven by the registry.

Like ``test_properties.py``: each transform of a generated round has a table
``{indicator id: rule}`` and every test is parametrised by ``scoring.INDICATOR_METRICS``,
so an indicator added to the registry is checked by every transform that names it; the
range checks apply to all of them. Every transform is guarded: it must change the data
(and, for coarsening and class deletion, the classes) or its test would prove nothing.
Each submission goes through ``scoring.evaluate`` with an ``indicators`` block, so these
are the numbers the platform stores.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring.datasets import default_config_dict, generate_original

INDICATORS = scoring.INDICATOR_METRICS
TOLERANCE = 1e-9
COARSE_QI = ["sex", "age_band", "earners"]
# (indicator block) per scenario: an integer-coded categorical column with no role, a
# numeric sa column with binned l-variants and the ordered distance, and l = 3
SCENARIOS = {
    "categorical": {"sa": "income_band", "kind": "categorical"},
    "numeric": {"sa": "food", "bins": 4},
    "categorical-l3": {"sa": "occupation", "kind": "categorical", "l": 3},
}


@functools.cache
def original(name: str) -> pd.DataFrame:
    return generate_original(1200, seed=17 + len(name))


def config_for(name: str, table: pd.DataFrame) -> scoring.RoundConfig:
    raw = {**default_config_dict(), "qi": COARSE_QI, "cross": COARSE_QI[:2]}
    if SCENARIOS[name]["sa"] in raw["qi"]:  # pragma: no cover - a typo above
        raise AssertionError
    return scoring.load_config({**raw, "indicators": SCENARIOS[name]}, table)


def class_ids(table: pd.DataFrame) -> np.ndarray:
    return table.groupby(COARSE_QI, sort=False).ngroup().to_numpy()


def _rotate_within_classes(table: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Move the values of ``columns`` one row on inside every class (rows keep their QIs)."""
    ids = class_ids(table)
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    start = np.searchsorted(sorted_ids, sorted_ids, side="left")
    size = np.searchsorted(sorted_ids, sorted_ids, side="right") - start
    source = np.empty_like(order)
    source[order] = order[start + (np.arange(len(ids)) - start + 1) % size]
    moved = table.copy()
    moved[columns] = table[columns].to_numpy()[source]
    return moved


def _swap_indicator(name, x):
    """On the unified table, whose classes are large (compared with ``unify_qi``)."""
    return x, _rotate_within_classes(_unify_qi(name, x)[1], [SCENARIOS[name]["sa"]])


def _move_records(name, x):
    """YA / B8: whole records (every non-QI cell) move together inside their class."""
    a = _unify_qi(name, x)[1]
    return x, _rotate_within_classes(a, [c for c in a.columns if c not in COARSE_QI])


def _unify_qi(name, x):
    """QI unification: one QI column takes its most frequent value (classes merge)."""
    a = x.copy()
    a["earners"] = x["earners"].mode().iloc[0]
    return x, a


def _top_code(name, x):
    """Top coding of a QI: every age band above the median becomes the median band."""
    a = x.copy()
    bands = x["age_band"].astype(int)
    cap = int(bands.median())
    a["age_band"] = np.where(bands > cap, str(cap), x["age_band"]).astype(object)
    return x, a


def _delete_classes(name, x):
    """Blank every row of a third of the classes (whole classes deleted)."""
    ids = class_ids(x)
    a = x.copy()
    a.loc[(ids % 3 == 1), :] = ""
    return x, a


def _permute(name, x):
    order = np.random.default_rng(5).permutation(len(x))
    permuted = x.iloc[order].reset_index(drop=True)
    return permuted, _mixed(permuted)


def _mixed(x):
    """A submission whose classes and indicator values both differ from X's."""
    a = _unify_qi("", x)[1]
    return _rotate_within_classes(a, [c for c in a.columns if c not in COARSE_QI])


def _rename_or_rescale(name, x):
    """A bijection on the indicator's labels (order-preserving), in X and A alike."""
    column = SCENARIOS[name]["sa"]
    renamed = x.copy()
    numbers = x[column].astype(int)
    if SCENARIOS[name].get("kind") == "categorical":
        renamed[column] = ("label-" + (numbers + 100).astype(str)).astype(object)
    else:
        renamed[column] = (numbers * 1000 + 7).astype(str).astype(object)
    return renamed, _mixed(renamed)


def _base_mixed(name, x):
    return x, _mixed(x)


TRANSFORMS = {
    "swap_indicator": _swap_indicator,
    "move_records": _move_records,
    "unify_qi": _unify_qi,
    "top_code": _top_code,
    "delete_classes": _delete_classes,
    "permute": _permute,
    "rename_or_rescale": _rename_or_rescale,
    "mixed": _base_mixed,
}
SAME = dict.fromkeys(INDICATORS, "equal")
COARSENING = {"L1": "not_lower", "L2": "not_lower", "T": "not_higher"}  # L3: no guarantee
PROPERTIES: dict[str, tuple[str, dict[str, str]]] = {
    # transform -> (what it is compared with, rules)
    "swap_indicator": ("unify_qi", SAME),
    "move_records": ("unify_qi", SAME),
    "unify_qi": ("identity", COARSENING),
    "top_code": ("identity", COARSENING),
    "delete_classes": ("identity", {"L1": "not_lower", "L2": "not_lower"}),
    "permute": ("mixed", SAME),
    "rename_or_rescale": ("mixed", SAME),
}


@functools.cache
def scores(name: str, transform: str) -> dict:
    if transform == "identity":
        x = original(name)
        return scoring.evaluate(x, x, config_for(name, x))
    x, a = TRANSFORMS[transform](name, original(name))
    return scoring.evaluate(x, a, config_for(name, x))


def _check(rule: str, value, reference, metric: str) -> None:
    if rule == "equal":
        if reference is None:
            assert value is None, metric
        else:
            assert value == pytest.approx(reference, rel=1e-12, abs=TOLERANCE), metric
    elif rule == "not_lower":
        assert value >= reference - TOLERANCE, f"{metric}: {value} < {reference}"
    elif rule == "not_higher":
        assert value <= reference + TOLERANCE, f"{metric}: {value} > {reference}"
    else:  # pragma: no cover
        raise AssertionError(rule)


@pytest.mark.parametrize("metric", INDICATORS)
@pytest.mark.parametrize("transform", PROPERTIES)
@pytest.mark.parametrize("name", SCENARIOS)
def test_property(name, transform, metric):
    baseline, rules = PROPERTIES[transform]
    result, reference = scores(name, transform), scores(name, baseline)
    if metric in rules:
        _check(rules[metric], result[metric], reference[metric], metric)
    _assert_range(result)


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("name", SCENARIOS)
def test_transform_changes_the_data(name, transform):
    """Guard: each transform changes cells; coarsening merges and deletion drops classes."""
    x, a = TRANSFORMS[transform](name, original(name))
    scoring.validate_submission(x, a, config_for(name, x))
    if transform not in ("permute", "rename_or_rescale", "mixed"):
        assert (a != x).any(axis=1).mean() > 0.05, transform
    result, identity = scores(name, transform), scores(name, "identity")
    if transform in ("unify_qi", "top_code"):
        assert result["classes"] < identity["classes"]
    if transform == "delete_classes":
        assert 0 < result["kept_rows"] < len(x)
    if transform in ("swap_indicator", "move_records", "mixed"):
        sa = SCENARIOS[name]["sa"]
        assert (a[sa] != x[sa]).mean() > 0.05


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_properties_are_not_vacuous(name):
    """Coarsening really raises some diversity, and the baselines are not degenerate."""
    identity = scores(name, "identity")
    coarse = scores(name, "unify_qi")
    assert (coarse["L2"], -coarse["T"]) != (identity["L2"], -identity["T"])
    assert scores(name, "mixed")["T"] > 0


def _assert_range(result: dict) -> None:
    assert type(result["L1"]) is int and result["L1"] >= 1
    assert 1 - TOLERANCE <= result["L2"] <= result["L1"] + TOLERANCE
    assert result["L3"] is None or result["L3"] > 0
    assert 0 <= result["T"] <= 1
