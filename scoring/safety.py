"""k-anonymity metrics S1, S2 (metrics.md "Safety: k-anonymity"); higher is safer."""

from __future__ import annotations

import numpy as np

from scoring.prepare import ScoringData


def _class_sizes(data: ScoringData) -> np.ndarray:
    sizes = np.bincount(data.qi_ids)
    return sizes[sizes > 0]


def s1_k_anonymity(data: ScoringData) -> int:
    """S1 k-anony: size of the smallest equivalence class of A+ over all ``qi``.

    Examples
    --------
    >>> from scoring._examples import example_data
    >>> s1_k_anonymity(example_data("deleted"))
    1
    """
    sizes = _class_sizes(data)
    return int(sizes.min()) if sizes.size else 0


def s2_mean_class_size(data: ScoringData) -> float:
    """S2 k-anonymMean: ``|K|`` divided by the number of equivalence classes.

    Examples
    --------
    >>> from scoring._examples import example_data
    >>> s2_mean_class_size(example_data("deleted"))
    1.5
    """
    sizes = _class_sizes(data)
    return float(data.kept.size / sizes.size) if sizes.size else 0.0
