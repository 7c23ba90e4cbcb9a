"""Membership-inference attacks (spec synthetic-round.md §2, §4, §6): reading an answer
``teamX_mia_teamY.csv``, scoring it, and the built-in attacks.

An answer has the header ``id,score`` and one row per challenge id ``1 … n``, each once,
``score`` a finite number (higher = more likely a member). Its scores, on a half of the
challenge set (labels 1 = member):

* ``auc`` — :func:`sklearn.metrics.roc_auc_score` (ties count one half);
* ``tpr@L`` for each FPR level ``L`` — the highest true-positive rate among the points of
  ``roc_curve(labels, score, drop_intermediate=False)`` whose false-positive rate is ≤ ``L``;
* ``adv`` — the membership advantage, the largest ``TPR − FPR`` over those points.

Examples
--------
The worked example W1 (spec §6):

>>> labels = [1, 1, 1, 1, 0, 0, 0, 0]
>>> scores = [0.9, 0.8, 0.35, 0.3, 0.7, 0.2, 0.1, 0.05]
>>> attack_scores(labels, scores, fpr_levels=(0.1, 0.25))
{'auc': 0.875, 'tpr@0.1': 0.5, 'tpr@0.25': 1.0, 'adv': 0.75}
>>> attack_scores(labels, [0.5] * 8, fpr_levels=(0.1,))
{'auc': 0.5, 'tpr@0.1': 0.0, 'adv': 0.0}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from scoring.extras import optional
from scoring.messages import clip
from scoring.numbers import parse_integers
from scoring.synthetic.config import tpr_key
from scoring.synthetic.draws import _rng
from scoring.synthetic.errors import SynthError, row_listing
from scoring.synthetic.population import Population, checked_numbers
from scoring.synthetic.utility import nearest_distances
from scoring.tables import load_table

HEADER = ["id", "score"]
IDS_SHOWN = 10


def read_attack(source: Any, n_challenge: int, *, name: str = "mia.csv") -> np.ndarray:
    """Read an answer; return the score of challenge id ``i`` at position ``i - 1``.

    Raises
    ------
    SynthError, scoring.errors.ValidationError
        The header, an id that is no challenge id or repeats, a missing id, a score that
        is no finite number — naming the rows and values.
    """
    table = load_table(source, name=name).to_frame()
    header = [str(c) for c in table.columns]
    if header != HEADER:
        raise SynthError("syn.attack.header", name=name, got=clip(",".join(header), 200))
    id_cells = table["id"].to_numpy(dtype=object)
    ids = parse_integers(id_cells)
    bad = np.flatnonzero(~((ids >= 1) & (ids <= n_challenge)))
    if len(bad):
        raise SynthError(
            "syn.attack.not_id",
            count=n_challenge,
            rows=row_listing(bad + 1, id_cells[bad[:10]].tolist()),
        )
    ids = ids.astype(np.int64)
    repeated = np.flatnonzero(pd.Series(ids).duplicated().to_numpy())
    if len(repeated):
        raise SynthError(
            "syn.attack.duplicate", rows=row_listing(repeated + 1, id_cells[repeated[:10]].tolist())
        )
    missing = np.setdiff1d(np.arange(1, n_challenge + 1), ids)
    if len(missing):
        shown = ", ".join(str(i) for i in missing[:IDS_SHOWN]) + (
            ", …" * (len(missing) > IDS_SHOWN)
        )
        raise SynthError("syn.attack.missing", ids=shown, total=len(missing))
    score_cells = table["score"].to_numpy(dtype=object)
    scores = checked_numbers(score_cells, column="score", code="syn.attack.not_score")
    ordered = np.empty(n_challenge)
    ordered[ids - 1] = scores
    return ordered


def attack_scores(
    labels: Sequence[int] | np.ndarray,
    scores: Sequence[float] | np.ndarray,
    *,
    fpr_levels: Sequence[float],
) -> dict[str, float]:
    """``auc``, ``tpr@L`` for each level and ``adv`` of ``scores`` against ``labels``."""
    metrics = optional("sklearn.metrics", extra="synthetic")
    labels = np.asarray(labels)
    scores = np.asarray(scores, dtype=np.float64)
    fpr, tpr, _ = metrics.roc_curve(labels, scores, drop_intermediate=False)
    result = {"auc": float(metrics.roc_auc_score(labels, scores))}
    for level in fpr_levels:
        result[tpr_key(level)] = float(tpr[fpr <= level].max())
    result["adv"] = float((tpr - fpr).max())
    return result


def roc_points(
    labels: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray
) -> dict[str, list[float]]:
    """The ROC curve of ``scores`` against ``labels`` (``fpr`` and ``tpr``, every threshold),
    for the pictures of the results page."""
    metrics = optional("sklearn.metrics", extra="synthetic")
    fpr, tpr, _ = metrics.roc_curve(np.asarray(labels), np.asarray(scores, dtype=np.float64))
    return {"fpr": [round(float(v), 6) for v in fpr], "tpr": [round(float(v), 6) for v in tpr]}


@dataclass(frozen=True)
class AttackResult:
    """An attack's scores on the dev half (shown live) and on the final half (hidden until
    the results are published; the matrix and the rankings use it)."""

    dev: dict[str, float]
    final: dict[str, float]
    final_roc: dict[str, list[float]]


def score_attack(
    scores: np.ndarray, labels: np.ndarray, dev: np.ndarray, *, fpr_levels: Sequence[float]
) -> AttackResult:
    """Score an answer (scores in challenge-id order) on each half of the challenge set."""
    labels, dev = np.asarray(labels), np.asarray(dev, dtype=bool)
    return AttackResult(
        dev=attack_scores(labels[dev], scores[dev], fpr_levels=fpr_levels),
        final=attack_scores(labels[~dev], scores[~dev], fpr_levels=fpr_levels),
        final_roc=roc_points(labels[~dev], scores[~dev]),
    )


# -- built-in attacks (spec §2): each gives a score per challenge row, scored like a team's


def dcr_attack(
    release: pd.DataFrame, challenge: pd.DataFrame, population: Population
) -> np.ndarray:
    """Minus the distance from each challenge row to its nearest row of the release."""
    return -nearest_distances(challenge, release, population)


def density_attack(
    release: pd.DataFrame, aux: pd.DataFrame, challenge: pd.DataFrame, population: Population
) -> np.ndarray:
    """The log-density of each challenge row under a Gaussian kernel density fitted on the
    release minus the same under one fitted on the auxiliary table, both in the DCR
    embedding with the round's ``density_bandwidth`` (``population.config``; 0.1): the
    likelihood-ratio test with ``A`` as the reference population.

    A fixed bandwidth, not Scott's rule (spec rev. 2): in a wide embedding such as Adult's
    (~110 dimensions) Scott's factor is ≈ 0.93, wider than a categorical mismatch (0.71),
    so every row of the release weighs about the same and the attack stays at chance even
    against a verbatim copy."""
    density = optional("sklearn.neighbors", extra="synthetic").KernelDensity
    bandwidth = population.config.density_bandwidth
    points = population.embed(challenge)
    under_release = density(kernel="gaussian", bandwidth=bandwidth).fit(population.embed(release))
    under_aux = density(kernel="gaussian", bandwidth=bandwidth).fit(population.embed(aux))
    return under_release.score_samples(points) - under_aux.score_samples(points)


def null_attack(count: int, *, seed: int, target: str) -> np.ndarray:
    """Scores drawn uniformly from the round's seed, ignoring the release: the chance level."""
    return _rng(seed, f"null:{target}").random(count)


BUILTIN_ATTACKS = ("dcr", "density", "null")
