"""Metric identifiers, names and ranking direction (metrics.md)."""

SCORER_VERSION = "2015.2"

UTILITY_METRICS = ("U1", "U2", "U3", "U4", "U5", "U6")
SAFETY_METRICS = ("S1", "S2")
ATTACK_METRICS = ("E1", "E2", "E3", "E4", "EUC1", "EUC2")
METRICS = UTILITY_METRICS + SAFETY_METRICS + ATTACK_METRICS

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
}

# From the anonymizing participant's point of view: utility losses and
# re-identification rates should be low, k-anonymity high.
LOWER_IS_BETTER = {metric: metric not in SAFETY_METRICS for metric in METRICS}
