"""Publication of attack targets, per-team samples and candidate tables, built-in attacks."""

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring.datasets import default_config_dict, generate_anonymized, generate_original


@pytest.fixture(scope="module")
def generated():
    original = generate_original(600, seed=11)
    anonymized = generate_anonymized(original, seed=12, delete_fraction=0.1)
    config_dict = default_config_dict()
    config_dict["match_qi"] = ["sex", "age_band", "household_size"]  # real classes, ties
    config = scoring.load_config(config_dict, original)
    return original, anonymized, config


def test_publish_removes_deleted_rows_and_records_truth(generated):
    _, anonymized, _ = generated
    target = scoring.publish_target(anonymized, seed=5)
    kept = anonymized[(anonymized != "").any(axis=1)]
    assert len(target.table) == len(kept)
    assert list(target.table.columns) == list(anonymized.columns)
    assert target.table.index.tolist() == list(range(len(kept)))
    assert target.truth.dtype == np.int64
    expected = anonymized.iloc[target.truth - 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(target.table, expected)
    assert sorted(target.truth.tolist()) == (kept.index + 1).tolist()


def test_publish_is_seeded(generated):
    _, anonymized, _ = generated
    first = scoring.publish_target(anonymized, seed=5)
    again = scoring.publish_target(anonymized, seed=5)
    other = scoring.publish_target(anonymized, seed=6)
    assert np.array_equal(first.truth, again.truth)
    assert not np.array_equal(first.truth, other.truth)
    assert not np.array_equal(first.truth, np.sort(first.truth))


def test_draw_sample_sorted_unique_seeded():
    master = pd.DataFrame({"a": [str(k) for k in range(100)]})
    sample = scoring.draw_sample(master, size=30, seed=3)
    assert sample.tolist() == sorted(set(sample.tolist())) and sample.size == 30
    assert np.array_equal(sample, scoring.draw_sample(master, size=30, seed=3))
    assert sample.min() >= 0 and sample.max() < 100
    with pytest.raises(ValueError):
        scoring.draw_sample(master, size=101, seed=3)


def test_candidate_table_positions():
    master = pd.DataFrame({"a": [str(k) for k in range(50)], "b": ["x"] * 50})
    sample = scoring.draw_sample(master, size=10, seed=1)
    candidates = scoring.candidate_table(master, sample, decoys=15, seed=2)
    assert len(candidates.table) == 25
    assert candidates.table["a"].iloc[candidates.position - 1].tolist() == [str(k) for k in sample]
    values = candidates.table["a"].astype(int)
    assert values.is_unique
    assert set(values) - set(sample.tolist()) <= set(range(50)) - set(sample.tolist())
    again = scoring.candidate_table(master, sample, decoys=15, seed=2)
    pd.testing.assert_frame_equal(candidates.table, again.table)


def test_builtin_attack_rates_equal_evaluate(generated):
    original, anonymized, config = generated
    values = scoring.evaluate(original, anonymized, config)
    kept = np.flatnonzero((anonymized != "").any(axis=1).to_numpy())
    released = anonymized.iloc[kept].reset_index(drop=True)
    rates = scoring.builtin_attack_rates(original, released, kept + 1, config)
    for metric in scoring.ATTACK_METRICS:
        assert rates[metric] == pytest.approx(values[metric], abs=1e-12), metric


def test_builtin_attack_rates_invariant_under_publication_shuffle(generated):
    original, anonymized, config = generated
    kept = np.flatnonzero((anonymized != "").any(axis=1).to_numpy())
    released = anonymized.iloc[kept].reset_index(drop=True)
    base = scoring.builtin_attack_rates(original, released, kept + 1, config)
    target = scoring.publish_target(anonymized, seed=9)
    shuffled = scoring.builtin_attack_rates(original, target.table, target.truth, config)
    for metric in scoring.ATTACK_METRICS:  # E3 included: ties are split, not row-ordered
        assert shuffled[metric] == pytest.approx(base[metric], abs=1e-12), metric


def test_builtin_attacks_against_candidate_table(generated):
    original, anonymized, config = generated
    sample = scoring.draw_sample(original, size=200, seed=4)
    candidates = scoring.candidate_table(original, sample, decoys=100, seed=4)
    target = scoring.publish_target(anonymized.iloc[sample].reset_index(drop=True), seed=4)
    truth = candidates.position[target.truth - 1]
    rates = scoring.builtin_attack_rates(candidates.table, target.table, truth, config)
    assert all(0.0 <= rates[m] <= 1.0 for m in scoring.ATTACK_METRICS)
    assert rates["EUC2"] > 0.5  # noise of 10% leaves most rows re-identifiable
    absent = scoring.builtin_attack_rates(candidates.table, target.table, truth * 0, config)
    assert all(absent[m] == 0.0 for m in scoring.ATTACK_METRICS)


def test_candidate_decoys_cannot_change_which_columns_are_integers():
    """A QI column integer-valued in the original stays so for the built-in attacks.

    pandas writes ``3.0`` as soon as a column holds a blank, and ``3.0`` must count as
    ``3`` (metrics.md). The decision is the round's, made on the original; a decoy of the
    candidate table holding ``3.5`` must not turn the column into text.
    """
    original = generate_original(300, seed=21)
    config = scoring.load_config(default_config_dict(), original)
    assert "age_band" in config.integer_columns
    anonymized = generate_anonymized(original, seed=22, delete_fraction=0.0)
    sample = scoring.draw_sample(original, size=150, seed=23)
    candidates = scoring.candidate_table(original, sample, decoys=100, seed=24)
    decoys = np.setdiff1d(np.arange(len(candidates.table)), candidates.position - 1)
    candidates.table.loc[decoys[:5], "age_band"] = "3.5"
    target = scoring.publish_target(anonymized.iloc[sample].reset_index(drop=True), seed=25)
    truth = candidates.position[target.truth - 1]
    as_integers = scoring.builtin_attack_rates(candidates.table, target.table, truth, config)
    as_floats = target.table.copy()
    as_floats["age_band"] = as_floats["age_band"] + ".0"
    # The platform loads the round's configuration against the candidate table.
    on_candidates = scoring.load_config(config.to_dict(), candidates.table)
    assert on_candidates.integer_columns == config.integer_columns
    rates = scoring.builtin_attack_rates(candidates.table, as_floats, truth, on_candidates)
    assert as_integers["E1"] > 0.3  # real QI matches, so the comparison below means something
    for metric in scoring.ATTACK_METRICS:
        assert rates[metric] == pytest.approx(as_integers[metric], abs=1e-12), metric
