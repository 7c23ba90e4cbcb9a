"""Metric identifiers, names and ranking direction (metrics.md)."""

SCORER_VERSION = "2015.2"

UTILITY_METRICS = ("U1", "U2", "U3", "U4", "U5", "U6")
SAFETY_METRICS = ("S1", "S2")
ATTACK_METRICS = ("E1", "E2", "E3", "E4", "EUC1", "EUC2")
METRICS = UTILITY_METRICS + SAFETY_METRICS + ATTACK_METRICS
# Attribute-disclosure indicators (indicators-and-kit.md Part A): scored only when the
# round's configuration has an ``indicators`` block.
INDICATOR_METRICS = ("L1", "L2", "L3", "T")
ALL_METRICS = METRICS + INDICATOR_METRICS

METRIC_NAMES = {
    "U1": "meanMAE",
    "U2": "crossMean",
    "U3": "crossCnt",
    "U4": "corMAE",
    "U5": "IL",
    "U6": "nrow",
    "S1": "k-anony",
    "S2": "k-anonymMean",
    "E1": "identify.rand",
    "E2": "identify.sa",
    "E3": "identify.sort",
    "E4": "identify.sa21",
    "EUC1": "identify.euc (EUC1)",
    "EUC2": "identify.euc (EUC2)",
    "L1": "distinct l-diversity",
    "L2": "entropy l-diversity",
    "L3": "recursive (c,l)-diversity C_l",
    "T": "t-closeness",
}

# From the anonymizing participant's point of view: utility losses and
# re-identification rates should be low, k-anonymity and l-diversity high; the smallest
# c of recursive (c,l)-diversity and the t-closeness distance low.
HIGHER_IS_BETTER = SAFETY_METRICS + ("L1", "L2")
LOWER_IS_BETTER = {metric: metric not in HIGHER_IS_BETTER for metric in ALL_METRICS}

# What kind of number each metric is, for display (scoring.display): counts are integers
# (U6 deleted rows, S1 smallest class size, L1 distinct values), rates are shares in
# [0, 1] (the built-in attacks), the rest are real-valued.
COUNT_METRICS = ("U6", "S1", "L1")
METRIC_KINDS = {
    metric: "count" if metric in COUNT_METRICS else "rate" if metric in ATTACK_METRICS else "real"
    for metric in ALL_METRICS
}
