"""Attacks of the starter kit as answer files (B.1.5, B.1.6): the catalogue :data:`ATTACKS`.

* :func:`answer` — a correspondence table (guesses) for any attack of :data:`ATTACKS`:
  the lecture's pipeline (:func:`~scoring.kit.neighbors.neighbor_att` then
  :func:`~scoring.kit.matching.attack_id`) and the built-in attacks E1–E4, EUC1, EUC2 as
  answer files, and the reference linkage attack (:mod:`scoring.linkage`).
* :func:`lecture_attack_rate` — the lecture's pipeline scored like a team's answer.

Guesses are 0-based reference rows, ``-1`` for "no guess";
:func:`correspondence_lines` turns them into the platform's correspondence table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.correspondence import score_correspondence
from scoring.kit._common import KitError, at_least, rng_of
from scoring.kit.matching import attack_id
from scoring.kit.neighbors import neighbor_att
from scoring.linkage import linkage_columns
from scoring.prepare import TableCache, class_ids


def correspondence_lines(guesses: np.ndarray) -> str:
    """The platform's correspondence table: line ``k`` holds ``guess + 1`` (``0``: no guess).

    Examples
    --------
    >>> correspondence_lines(np.array([2, -1, 0]))
    '3\\n0\\n1\\n'
    """
    values = np.asarray(guesses, dtype=np.int64) + 1
    return "".join(f"{v}\n" for v in np.maximum(values, 0).tolist())


def _match_classes(published, reference, config):
    integral = {c: c in config.integer_columns for c in config.match_qi}
    ref_class, pub_class = class_ids(
        TableCache(reference), TableCache(published), config.match_qi, integral
    )
    sizes = np.bincount(
        ref_class[ref_class >= 0], minlength=int(max(pub_class.max(initial=0), 0)) + 1
    )
    matched = (pub_class >= 0) & (sizes[np.maximum(pub_class, 0)] > 0)
    return ref_class, pub_class, matched


def _nearest(published, reference, config, columns, *, match, fallback, scale="none", n=1, **_):
    found = neighbor_att(
        published,
        reference,
        columns=columns,
        n=n,
        scale=scale,
        match=config.match_qi if match else None,
        fallback=fallback,
        integer_columns=config.integer_columns,
    )
    return found


def neighbor_answer(
    published,
    reference,
    config,
    *,
    columns: Sequence[str] | None = None,
    n: int = 3,
    scale: str = "range",
    match: bool = True,
    fallback: bool = True,
    duplication: bool = False,
    method: str = "greedy",
    **_,
):
    """``Neighbor_att`` then ``Attack_id``; the defaults are the lecture's pipeline.

    Top-``n`` over ``columns`` (default ``euc_sa``) inside the ``match_qi`` class (all
    rows when it is empty), then a greedy 1:1 assignment without duplicates.
    """
    found = _nearest(
        published,
        reference,
        config,
        list(config.euc_sa if columns is None else columns),
        match=match,
        fallback=fallback,
        scale=scale,
        n=n,
    )
    return attack_id(found, duplication=duplication, method=method)


def lecture_answer(published, reference, config, *, n: int = 3, **_):
    """The lecture's pipeline (:func:`neighbor_answer` with its defaults)."""
    at_least(n, 1, method="lecture", name="n")
    return neighbor_answer(published, reference, config, n=n)


def e1_answer(published, reference, config, *, seed=None, **_):
    """E1: a uniform pick among the reference rows of the same ``match_qi`` class (seeded)."""
    ref_class, pub_class, matched = _match_classes(published, reference, config)
    order = np.argsort(ref_class, kind="stable")
    sorted_class = ref_class[order]
    start = np.searchsorted(sorted_class, pub_class)
    size = np.searchsorted(sorted_class, pub_class, side="right") - start
    draw = np.floor(rng_of(seed).random(len(published)) * np.maximum(size, 1)).astype(np.int64)
    guess = np.full(len(published), -1, dtype=np.int64)
    guess[matched] = order[(start + draw)[matched]]
    return guess


def e3_answer(published, reference, config, **_):
    """E3: the r-th published row by ``sa`` sum guesses the r-th reference row (stable ties)."""

    def sums(table):
        cache = TableCache(table)
        return np.sum([cache.numbers(c) for c in config.sa], axis=0)

    pub_order = np.argsort(sums(published), kind="stable")
    ref_order = np.argsort(sums(reference), kind="stable")
    guess = np.full(len(published), -1, dtype=np.int64)
    count = min(pub_order.size, ref_order.size)
    guess[pub_order[:count]] = ref_order[:count]
    return guess


def reference_answer(published, reference, config, **_):
    """The reference linkage attack (:mod:`scoring.linkage`) as an answer file: blocking on
    the categorical QIs, the nearest row over the range-scaled numeric columns, all rows with
    one unit per categorical mismatch when the block is empty; ties to the lower row. On a
    release without tied distances it scores the rate the platform reports for it."""
    categorical, numeric = linkage_columns(config)
    found = neighbor_att(
        published,
        reference,
        columns=numeric + categorical,
        n=1,
        scale="range",
        match=categorical or None,
        fallback=True,
        integer_columns=config.integer_columns,
    )
    return found.index[:, 0].copy()


def _one_nearest(columns_of, *, match, fallback):
    def generate(published, reference, config, **_):
        found = _nearest(
            published, reference, config, columns_of(config), match=match, fallback=fallback
        )
        return found.index[:, 0].copy()

    return generate


ATTACKS = {
    "lecture": lecture_answer,
    "neighbor": neighbor_answer,
    "E1": e1_answer,
    "E2": _one_nearest(lambda c: [c.e2_column], match=True, fallback=True),
    "E3": e3_answer,
    "E4": _one_nearest(lambda c: [c.e4_column], match=False, fallback=True),
    "EUC1": _one_nearest(lambda c: list(c.euc_sa), match=True, fallback=False),
    "EUC2": _one_nearest(lambda c: list(c.euc_sa), match=True, fallback=True),
    "reference": reference_answer,
}
"""Answer generators: ``(published, reference, config, **options) -> guesses``.

The E-attacks break ties by the lower reference row (E1: a seeded uniform pick), so an
answer scores one realisation of the expected rate the platform reports."""


def answer(
    published: pd.DataFrame, reference: pd.DataFrame, config, *, attack: str = "lecture", **options
) -> np.ndarray:
    """Guesses (0-based, -1 none) of ``attack`` on a published target.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> answer(bank(), bank(), bank_config(), attack="EUC2").tolist()
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    if attack not in ATTACKS:
        raise KitError("kit.unknown_method", name=attack, names=", ".join(ATTACKS))
    return ATTACKS[attack](published, reference, config, **options)


def lecture_attack_rate(
    reference: pd.DataFrame, published: pd.DataFrame, truth: np.ndarray, config, *, n: int = 3
) -> float:
    """Rate of the lecture's pipeline on a published target, scored like a team's answer.

    Parameters
    ----------
    reference, published : pandas.DataFrame
        The table given to attackers and the published (shuffled) target.
    truth : array of int
        1-based true reference row of each published row (0: not in the reference).
    """
    guesses = lecture_answer(published, reference, config, n=n)
    return score_correspondence(np.maximum(guesses + 1, 0), np.asarray(truth, dtype=np.int64)).rate
