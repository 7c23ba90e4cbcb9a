"""The copy gate (issue 47): a release whose share of copied members ``R_copy`` exceeds its
share copied from as many holdout rows (``R_copy(H)``, what chance copies) by more than the
round's ``r_copy_excess_max`` fails it; the members released verbatim fail it although they
pass every utility gate, the kit's independent-marginals sample and a fresh sample of the
table pass it on Adult, and on Adult's categorical columns alone, where the absolute limit
of the first gate refused a fresh sample."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scoring.display import format_number
from scoring.synthetic.config import DEFAULTS, parse_config
from scoring.synthetic.errors import SynthError
from scoring.synthetic.kit import independent_marginals
from scoring.synthetic.population import read_population
from scoring.synthetic.utility import (
    copy_gate_failure,
    copy_reference,
    r_copy,
    release_scores,
)

ADULT = Path(__file__).resolve().parents[2] / "fixtures" / "adult.csv"
NUMERIC = {"age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"}
HEADER = ADULT.open(encoding="utf-8").readline().strip().split(",")
CATEGORICAL = [c for c in HEADER if c not in NUMERIC]
SETTINGS = {
    "columns": {c: "numeric" if c in NUMERIC else "categorical" for c in HEADER},
    "label": "income",
    "n_holdout": 500,
    "n_train": 300,
    "n_challenge": 80,
    "n_aux": 300,
}


@pytest.fixture(scope="module")
def adult():
    """Adult's first 2,000 rows: members 0…299, holdout 1,000…1,499."""
    lines = ADULT.read_bytes().splitlines(keepends=True)
    p = read_population(b"".join(lines[:2001]), parse_config(SETTINGS))
    return p, p.rows(np.arange(0, 300)), p.rows(np.arange(1000, 1500))


def gates(config):
    return {
        "u_ml_min": config.u_ml_min,
        "u_1_max": config.u_1_max,
        "r_copy_excess_max": config.r_copy_excess_max,
    }


def gate(scores, config):
    return copy_gate_failure(
        scores.r_copy, scores.r_copy_holdout, r_copy_excess_max=config.r_copy_excess_max
    )


def test_the_members_verbatim_pass_every_utility_gate_but_fail_the_copy_gate(adult):
    p, members, holdout = adult
    config = p.config
    scores = release_scores(members, members, holdout, p)
    assert scores.r_copy == 1.0 and scores.u_ml == 1.0 and scores.u_1 == 0.0
    # The utility gates alone bless the copy: that was the bug.
    assert scores.u_ml >= config.u_ml_min and scores.u_1 <= config.u_1_max
    assert not scores.passes(**gates(config))
    failure = gate(scores, config)
    assert isinstance(failure, SynthError) and failure.code == "syn.gate.r_copy"
    reference = format_number(scores.r_copy_holdout)
    assert scores.r_copy_holdout < 0.01  # every column: chance copies next to nothing
    assert failure.params == {
        "value": "1.0000",
        "reference": reference,
        "excess": format_number(1 - scores.r_copy_holdout),
        "limit": "0.1",
    }
    english = str(failure)
    assert "copy gate" in english and "R_copy = 1.0000" in english and "limit 0.1" in english
    assert f"against {reference}" in english and "holdout" in english
    ja = failure.render("ja")
    assert "R_copy = 1.0000" in ja and reference in ja and "0.1" in ja and "公開されません" in ja


def test_a_near_verbatim_copy_fails_it_too(adult):
    p, members, holdout = adult
    # 240 members as they are and 60 honest rows: R_copy 0.8.
    honest = independent_marginals(members, rows=60, seed=1)
    release = pd.concat([members.iloc[:240], honest], ignore_index=True)
    scores = release_scores(release, members, holdout, p)
    assert scores.r_copy == pytest.approx(0.8, abs=0.01)
    assert gate(scores, p.config) is not None


def test_the_kits_independent_marginals_sample_passes_it(adult):
    p, members, holdout = adult
    for seed in range(3):
        sample = independent_marginals(members, rows=len(members), seed=seed)
        scores = release_scores(sample, members, holdout, p)
        assert scores.r_copy < 0.05
        assert gate(scores, p.config) is None
    # A fresh sample of the table itself (rows no member nor reference row) passes as well.
    fresh = release_scores(p.rows(np.arange(1500, 1800)), members, holdout, p)
    assert fresh.r_copy < 0.01 and gate(fresh, p.config) is None


@pytest.fixture(scope="module")
def categorical_adult():
    """Adult's 9 categorical columns alone, first 2,000 rows: members 0…299, holdout
    1,000…1,499. Rows repeat by chance: a fresh sample copies about a fifth of its rows."""
    frame = pd.read_csv(ADULT, dtype=str, nrows=2000)[CATEGORICAL]
    config = parse_config(
        {**SETTINGS, "columns": {c: "categorical" for c in CATEGORICAL}, "label": "income"}
    )
    p = read_population(frame.to_csv(index=False).encode(), config)
    return p, p.rows(np.arange(0, 300)), p.rows(np.arange(1000, 1500))


def test_on_categorical_columns_an_honest_release_passes_and_a_copy_fails(categorical_adult):
    p, members, holdout = categorical_adult
    fresh = release_scores(p.rows(np.arange(1500, 1800)), members, holdout, p)
    # The absolute limit of the first gate (R_copy ≤ 0.1) refused this honest release ...
    assert fresh.r_copy > 0.15
    # ... which copies no more from its members than from holdout rows it never saw.
    assert fresh.r_copy_holdout > 0.15
    assert fresh.r_copy - fresh.r_copy_holdout < 0.05
    assert gate(fresh, p.config) is None and fresh.passes(**gates(p.config))
    # The members verbatim: R_copy 1, chance a fifth of it, the excess far above 0.1.
    verbatim = release_scores(members, members, holdout, p)
    assert verbatim.r_copy == 1.0 and 0.15 < verbatim.r_copy_holdout < 0.35
    assert gate(verbatim, p.config) is not None and not verbatim.passes(**gates(p.config))
    for seed in range(3):
        sample = independent_marginals(members, rows=len(members), seed=seed)
        excess = r_copy(sample, members, p) - r_copy(sample, copy_reference(holdout, 300), p)
        assert excess < 0.05
        assert (
            copy_gate_failure(
                r_copy(sample, members, p),
                r_copy(sample, copy_reference(holdout, 300), p),
                r_copy_excess_max=p.config.r_copy_excess_max,
            )
            is None
        )


def test_the_reference_is_as_many_holdout_rows_the_same_each_time(categorical_adult):
    p, members, holdout = categorical_adult
    reference = copy_reference(holdout, len(members))
    assert len(reference) == len(members) and reference.index.isin(holdout.index).all()
    assert reference.equals(copy_reference(holdout, len(members)))
    assert not reference.equals(holdout.iloc[: len(members)])  # a draw, not the first rows
    assert copy_reference(holdout, 10_000) is holdout  # a smaller holdout: all of it
    scores = release_scores(members, members, holdout, p)
    assert scores.r_copy_holdout == r_copy(members, reference, p)


def test_the_gate_is_at_most_the_limit():
    assert copy_gate_failure(0.1, 0.0, r_copy_excess_max=0.1) is None
    assert copy_gate_failure(0.1001, 0.0, r_copy_excess_max=0.1) is not None
    assert copy_gate_failure(0.6, 0.5, r_copy_excess_max=0.1) is None
    assert copy_gate_failure(0.62, 0.5, r_copy_excess_max=0.1) is not None
    assert copy_gate_failure(0.0, 0.0, r_copy_excess_max=0.0) is None
    assert copy_gate_failure(0.3, 0.5, r_copy_excess_max=0.0) is None  # below chance
    assert copy_gate_failure(1.0, 0.0, r_copy_excess_max=1.0) is None


def test_the_default_and_the_round_trip():
    assert DEFAULTS["gates"]["r_copy_excess_max"] == 0.1
    config = parse_config({"columns": {"y": "categorical"}, "label": "y"})
    assert config.r_copy_excess_max == 0.1
    assert config.as_dict()["gates"] == {"u_ml_min": 0.8, "u_1_max": 0.1, "r_copy_excess_max": 0.1}
    own = parse_config(
        {"columns": {"y": "categorical"}, "label": "y", "gates": {"r_copy_excess_max": 0.5}}
    )
    assert (own.r_copy_excess_max, own.u_ml_min) == (0.5, 0.8)
    assert parse_config(own.as_dict()) == own


def test_a_round_stored_with_the_old_key_keeps_its_limit():
    stored = {"columns": {"y": "categorical"}, "label": "y", "gates": {"r_copy_max": 0.3}}
    config = parse_config(stored)
    assert config.r_copy_excess_max == 0.3
    assert config.as_dict()["gates"]["r_copy_excess_max"] == 0.3
    assert "r_copy_max" not in config.as_dict()["gates"]
    assert parse_config(config.as_dict()) == config
    both = {**stored, "gates": {"r_copy_max": 0.3, "r_copy_excess_max": 0.2}}
    assert parse_config(both).r_copy_excess_max == 0.2  # the new key wins


@pytest.mark.parametrize("key", ["r_copy_excess_max", "r_copy_max"])
@pytest.mark.parametrize("value", [-0.1, 1.5, "0.1", True, None, math.nan, math.inf])
def test_a_bad_limit_is_refused_by_its_key(key, value):
    with pytest.raises(SynthError) as caught:
        parse_config({"columns": {"y": "categorical"}, "label": "y", "gates": {key: value}})
    assert caught.value.code == "syn.config.bad_value"
    assert caught.value.params["key"] == f"gates.{key}"
    assert f"gates.{key}" in caught.value.render("ja")


@pytest.mark.parametrize("value", [-0.1, 1.5])
def test_the_u_1_gate_is_a_share_too(value):
    """``U_1`` is a mean total variation distance, 0 to 1: a ``u_1_max`` below 0 ranked no
    release at all, and the console took it without a word."""
    with pytest.raises(SynthError) as caught:
        parse_config({"columns": {"y": "categorical"}, "label": "y", "gates": {"u_1_max": value}})
    assert caught.value.code == "syn.config.bad_value"
    assert caught.value.params["key"] == "gates.u_1_max"
    assert "0 以上 1 以下" in caught.value.render("ja")
    own = {"columns": {"y": "categorical"}, "label": "y", "gates": {"u_1_max": 0.0}}
    assert parse_config(own).u_1_max == 0.0


@pytest.mark.parametrize("value", [-0.1, -2])
def test_the_u_ml_gate_refuses_a_bound_below_zero(value):
    """``U_ML`` (an AUC over an AUC) is never below 0: a ``u_ml_min`` below 0 gated nothing,
    as 0 does, and was taken without a word. It is refused naming the key and the value; 0
    is the bound that gates nothing."""
    with pytest.raises(SynthError) as caught:
        parse_config({"columns": {"y": "categorical"}, "label": "y", "gates": {"u_ml_min": value}})
    assert caught.value.code == "syn.config.bad_value"
    assert caught.value.params["key"] == "gates.u_ml_min"
    assert str(value) in str(caught.value) and "≥ 0" in str(caught.value)
    assert "0 以上の数" in caught.value.render("ja")
    own = {"columns": {"y": "categorical"}, "label": "y", "gates": {"u_ml_min": 0}}
    assert parse_config(own).u_ml_min == 0.0


def test_every_gate_at_fault_is_reported_at_once():
    """docs/synthetic.md: one post shows every error found. A bad ``u_ml_min`` hides
    neither a bad ``u_1_max`` nor a bad copy limit: each gate is named with its value."""
    gates = {"u_ml_min": -1, "u_1_max": 2, "r_copy_excess_max": 3}
    with pytest.raises(SynthError) as caught:
        parse_config({"columns": {"y": "categorical"}, "label": "y", "gates": gates})
    errors = getattr(caught.value, "errors", [caught.value])
    assert [error.params["key"] for error in errors] == [
        "gates.u_ml_min",
        "gates.u_1_max",
        "gates.r_copy_excess_max",
    ]
