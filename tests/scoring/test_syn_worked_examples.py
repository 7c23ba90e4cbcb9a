"""Spec synthetic-round.md §6, worked example W1, exactly; and the ROC points it reads."""

import numpy as np
import pytest
from sklearn.metrics import roc_curve

from scoring.synthetic.attack import attack_scores, score_attack

LABELS = [1, 1, 1, 1, 0, 0, 0, 0]
SCORES = [0.9, 0.8, 0.35, 0.3, 0.7, 0.2, 0.1, 0.05]


def test_w1_roc_points_are_the_specs():
    fpr, tpr, _ = roc_curve(LABELS, SCORES, drop_intermediate=False)
    points = list(zip(fpr.tolist(), tpr.tolist(), strict=True))
    assert points == [
        (0, 0),
        (0, 0.25),
        (0, 0.5),
        (0.25, 0.5),
        (0.25, 0.75),
        (0.25, 1),
        (0.5, 1),
        (0.75, 1),
        (1, 1),
    ]


def test_w1_scores():
    assert attack_scores(LABELS, SCORES, fpr_levels=(0.1, 0.25)) == {
        "auc": 0.875,
        "tpr@0.1": 0.5,
        "tpr@0.25": 1.0,
        "adv": 0.75,
    }


def test_w1_ties():
    assert attack_scores(LABELS, [0.5] * 8, fpr_levels=(0.1,)) == {
        "auc": 0.5,
        "tpr@0.1": 0.0,
        "adv": 0.0,
    }


def test_tpr_at_fpr_keeps_the_collinear_point_that_decides_it():
    # Ten tie groups of one member and one non-member each: the ROC curve is the diagonal
    # through (0.1, 0.1), (0.2, 0.2), …; drop_intermediate=True keeps (0.1, 0.1) and
    # (1, 1) only, so at FPR ≤ 0.2 it answers 0.1 where the curve reaches 0.2.
    labels = np.tile([1, 0], 10)
    scores = np.repeat(np.arange(10, 0, -1), 2).astype(float)
    fpr, tpr, _ = roc_curve(labels, scores)  # drop_intermediate=True, the default
    assert tpr[fpr <= 0.2].max() == pytest.approx(0.1)  # what a default call would give
    assert attack_scores(labels, scores, fpr_levels=(0.2,))["tpr@0.2"] == pytest.approx(0.2)


def test_dev_and_final_halves_are_scored_apart():
    labels = np.array(LABELS + LABELS)
    scores = np.array(SCORES + [0.5] * 8)
    dev = np.array([True] * 8 + [False] * 8)
    result = score_attack(scores, labels, dev, fpr_levels=(0.1,))
    assert result.dev["auc"] == 0.875
    assert result.final == {"auc": 0.5, "tpr@0.1": 0.0, "adv": 0.0}
