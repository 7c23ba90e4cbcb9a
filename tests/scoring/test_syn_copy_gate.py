"""The copy gate (issue 47): a release whose share of copied members ``R_copy`` is above the
round's ``r_copy_max`` fails it; the members released verbatim fail it although they pass
every utility gate, the kit's independent-marginals sample passes it on Adult."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scoring.synthetic.config import DEFAULTS, parse_config
from scoring.synthetic.errors import SynthError
from scoring.synthetic.kit import independent_marginals
from scoring.synthetic.population import read_population
from scoring.synthetic.utility import copy_gate_failure, release_scores

ADULT = Path(__file__).resolve().parents[2] / "fixtures" / "adult.csv"
NUMERIC = {"age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"}
HEADER = ADULT.open(encoding="utf-8").readline().strip().split(",")
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
    return {"u_ml_min": config.u_ml_min, "u_1_max": config.u_1_max, "r_copy_max": config.r_copy_max}


def test_the_members_verbatim_pass_every_utility_gate_but_fail_the_copy_gate(adult):
    p, members, holdout = adult
    config = p.config
    scores = release_scores(members, members, holdout, p)
    assert scores.r_copy == 1.0 and scores.u_ml == 1.0 and scores.u_1 == 0.0
    # The utility gates alone bless the copy: that was the bug.
    assert scores.u_ml >= config.u_ml_min and scores.u_1 <= config.u_1_max
    assert not scores.passes(**gates(config))
    failure = copy_gate_failure(scores.r_copy, r_copy_max=config.r_copy_max)
    assert isinstance(failure, SynthError) and failure.code == "syn.gate.r_copy"
    assert failure.params == {"value": "1.000", "limit": "0.1"}
    assert (
        "copy gate" in str(failure) and "R_copy = 1.000" in str(failure) and "0.1" in str(failure)
    )
    ja = failure.render("ja")
    assert "R_copy = 1.000" in ja and "0.1" in ja and "公開されません" in ja


def test_a_near_verbatim_copy_fails_it_too(adult):
    p, members, holdout = adult
    # 240 members as they are and 60 honest rows: R_copy 0.8.
    honest = independent_marginals(members, rows=60, seed=1)
    release = pd.concat([members.iloc[:240], honest], ignore_index=True)
    scores = release_scores(release, members, holdout, p)
    assert scores.r_copy == pytest.approx(0.8, abs=0.01)
    assert copy_gate_failure(scores.r_copy, r_copy_max=p.config.r_copy_max) is not None


def test_the_kits_independent_marginals_sample_passes_it(adult):
    p, members, holdout = adult
    for seed in range(3):
        sample = independent_marginals(members, rows=len(members), seed=seed)
        scores = release_scores(sample, members, holdout, p)
        assert scores.r_copy < 0.05
        assert copy_gate_failure(scores.r_copy, r_copy_max=p.config.r_copy_max) is None
    # A fresh sample of the table itself (the holdout scored as a release) passes as well.
    assert release_scores(holdout, members, holdout, p).r_copy < 0.01


def test_the_gate_is_at_most_the_limit():
    assert copy_gate_failure(0.1, r_copy_max=0.1) is None
    assert copy_gate_failure(0.1001, r_copy_max=0.1) is not None
    assert copy_gate_failure(0.0, r_copy_max=0.0) is None
    assert copy_gate_failure(1.0, r_copy_max=1.0) is None


def test_the_default_and_the_round_trip():
    assert DEFAULTS["gates"]["r_copy_max"] == 0.1
    config = parse_config({"columns": {"y": "categorical"}, "label": "y"})
    assert config.r_copy_max == 0.1
    assert config.as_dict()["gates"] == {"u_ml_min": 0.8, "u_1_max": 0.1, "r_copy_max": 0.1}
    own = parse_config(
        {"columns": {"y": "categorical"}, "label": "y", "gates": {"r_copy_max": 0.5}}
    )
    assert (own.r_copy_max, own.u_ml_min) == (0.5, 0.8)
    assert parse_config(own.as_dict()) == own


@pytest.mark.parametrize("value", [-0.1, 1.5, "0.1", True, None, math.nan, math.inf])
def test_a_bad_limit_is_refused_by_its_key(value):
    with pytest.raises(SynthError) as caught:
        parse_config(
            {"columns": {"y": "categorical"}, "label": "y", "gates": {"r_copy_max": value}}
        )
    assert caught.value.code == "syn.config.bad_value"
    assert caught.value.params["key"] == "gates.r_copy_max"
    assert "gates.r_copy_max" in caught.value.render("ja")
