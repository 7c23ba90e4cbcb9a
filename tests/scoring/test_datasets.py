"""Tests of the synthetic 2015-shaped tables and of the Adult fixture."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring.datasets import (
    COLUMNS,
    QI_COLUMNS,
    QI_DOMAINS,
    SA_COLUMNS,
    SA_ZERO_FRACTIONS,
    default_config_dict,
    generate_anonymized,
    generate_original,
)

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"


@pytest.fixture(scope="module")
def big() -> pd.DataFrame:
    return generate_original(50_000, seed=7)


def _deleted(table: pd.DataFrame) -> np.ndarray:
    return (table == "").all(axis=1).to_numpy()


def test_shape_header_and_cells_are_str():
    table = generate_original(1_000, seed=1)
    assert table.shape == (1_000, 25)
    assert tuple(table.columns) == COLUMNS
    assert len(QI_COLUMNS) == 13 and len(SA_COLUMNS) == 12
    assert all(pd.api.types.is_object_dtype(dtype) for dtype in table.dtypes)
    assert table.map(type).eq(str).all().all()
    assert not (table == "").any().any()
    assert isinstance(table.index, pd.RangeIndex)


def test_same_seed_same_table_other_seed_other_table():
    pd.testing.assert_frame_equal(generate_original(500, seed=3), generate_original(500, seed=3))
    assert not generate_original(500, seed=3).equals(generate_original(500, seed=4))


def test_rejects_empty_table():
    with pytest.raises(ValueError):
        generate_original(0, seed=1)


def test_qi_codes_cover_their_small_domains(big):
    for name in QI_COLUMNS:
        codes = big[name].astype(int)
        domain = QI_DOMAINS[name]
        assert codes.min() >= 1 and codes.max() <= domain, name
        if name != "children":  # capped by household_size, its top code is very rare
            assert codes.nunique() == domain, name
    assert QI_DOMAINS["sex"] == 2 and QI_DOMAINS["age_band"] == 10
    assert QI_DOMAINS["prefecture"] == 47 and QI_DOMAINS["household_size"] == 8


def test_qi_distributions_are_skewed(big):
    for name in ("sex", "prefecture", "household_size", "tenure"):
        shares = big[name].value_counts(normalize=True)
        assert shares.iloc[0] > 1.5 / QI_DOMAINS[name], name


def test_sa_are_skewed_non_negative_integers(big):
    for name in SA_COLUMNS:
        assert big[name].str.fullmatch(r"0|[1-9][0-9]*").all(), name
        values = big[name].astype(np.int64)
        positive = values[values > 0]
        assert positive.mean() > positive.median(), f"{name} is not right-skewed"
        assert positive.nunique() > 500, name


def test_zero_heavy_columns(big):
    zero_share = {name: float((big[name] == "0").mean()) for name in SA_COLUMNS}
    for name in SA_COLUMNS:
        if name != "education":
            assert zero_share[name] == pytest.approx(SA_ZERO_FRACTIONS[name], abs=0.02), name
    assert 0.6 <= zero_share["education"] <= 0.8
    assert sum(share >= 0.14 for share in zero_share.values()) >= 5


def test_default_config_roles():
    cfg = default_config_dict()
    assert cfg["qi"] == list(QI_COLUMNS) and cfg["sa"] == list(SA_COLUMNS)
    assert cfg["cross"] == list(QI_COLUMNS[:6])
    assert cfg["e2_column"] == SA_COLUMNS[1]
    assert cfg["e4_column"] == SA_COLUMNS[7] == "education"
    assert json.loads(json.dumps(cfg)) == cfg


def test_default_config_loads_and_original_validates():
    table = generate_original(300, seed=5)
    config = scoring.load_config(default_config_dict(), table)
    scoring.validate_original(table, config)
    assert config.qi == QI_COLUMNS and config.e4_column == "education"


@pytest.mark.parametrize("fraction, expected", [(0.05, 50), (0.0, 0), (0.123, 123)])
def test_anonymized_deletes_the_requested_rows(fraction, expected):
    original = generate_original(1_000, seed=2)
    anonymized = generate_anonymized(original, seed=9, delete_fraction=fraction)
    assert anonymized.shape == original.shape
    assert tuple(anonymized.columns) == COLUMNS
    assert all(pd.api.types.is_object_dtype(dtype) for dtype in anonymized.dtypes)
    deleted = _deleted(anonymized)
    assert deleted.sum() == expected
    assert not (anonymized[~deleted] == "").any().any()


def test_anonymized_keeps_at_least_one_row():
    original = generate_original(10, seed=2)
    anonymized = generate_anonymized(original, seed=1, delete_fraction=0.99)
    assert _deleted(anonymized).sum() == 9
    with pytest.raises(ValueError):
        generate_anonymized(original, seed=1, delete_fraction=1.0)


def test_anonymized_noise_is_bounded_non_negative_and_leaves_qi_alone():
    original = generate_original(5_000, seed=4)
    anonymized = generate_anonymized(original, seed=8, sa_noise=0.1)
    kept = ~_deleted(anonymized)
    pd.testing.assert_frame_equal(
        anonymized.loc[kept, list(QI_COLUMNS)], original.loc[kept, list(QI_COLUMNS)]
    )
    x = original.loc[kept, list(SA_COLUMNS)].astype(float).to_numpy()
    a = anonymized.loc[kept, list(SA_COLUMNS)].astype(float).to_numpy()
    assert (a >= 0).all() and (a == np.round(a)).all()
    large = x >= 1_000
    relative = (a[large] - x[large]) / x[large]
    assert 0.08 < relative.std() < 0.12
    assert (a[x == 0] == 0).all()  # multiplicative noise keeps zeros


def test_anonymized_is_deterministic_and_noise_free_copy_is_identical():
    original = generate_original(800, seed=6)
    first = generate_anonymized(original, seed=1, generalise_fraction=0.1)
    pd.testing.assert_frame_equal(
        first, generate_anonymized(original, seed=1, generalise_fraction=0.1)
    )
    assert not first.equals(generate_anonymized(original, seed=2, generalise_fraction=0.1))
    copy = generate_anonymized(original, seed=1, delete_fraction=0.0, sa_noise=0.0)
    pd.testing.assert_frame_equal(copy, original)


def test_generalisation_stays_within_original_values():
    original = generate_original(2_000, seed=3)
    anonymized = generate_anonymized(
        original, seed=5, delete_fraction=0.0, sa_noise=0.0, generalise_fraction=0.3
    )
    for name in QI_COLUMNS:
        assert set(anonymized[name]) <= set(original[name]), name
        changed = (anonymized[name] != original[name]).mean()
        assert 0.0 < changed < 0.3, name
        assert anonymized[name].value_counts().iloc[0] > original[name].value_counts().iloc[0]


def test_anonymized_is_a_valid_submission():
    original = generate_original(2_000, seed=3)
    anonymized = generate_anonymized(original, seed=5, additive_noise=0.05, generalise_fraction=0.1)
    config = scoring.load_config(default_config_dict(), original)
    scoring.validate_submission(original, anonymized, config)
    scores = scoring.evaluate(original, anonymized, config)
    assert scores["U6"] == 100


def test_adult_fixture_and_its_round_configuration():
    original = scoring.read_table(FIXTURES / "adult.csv", name="adult.csv")
    assert original.shape == (32_561, 15)
    assert (original["workclass"] == "?").sum() > 0
    config = scoring.load_config(json.loads((FIXTURES / "adult_round.json").read_text()), original)
    scoring.validate_original(original, config)
    assert "income" not in config.qi + config.sa
    assert config.domains["income"] == "original-values"
    assert set(config.cross) <= set(config.qi)


def test_adult_example_submission_is_valid_and_current():
    original = scoring.read_table(FIXTURES / "adult.csv", name="adult.csv")
    config = scoring.load_config(json.loads((FIXTURES / "adult_round.json").read_text()), original)
    anonymized = scoring.read_table(FIXTURES / "adult_sample_anonymized.csv")
    scoring.validate_submission(original, anonymized, config)
    assert _deleted(anonymized).sum() == round(0.005 * 32_561)
    check = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "make_adult_example.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
