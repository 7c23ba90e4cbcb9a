"""Pure scoring engine of PWSCup-style anonymize-and-attack competitions.

Implements ``spec/metrics.md``: utility U1–U6, k-anonymity S1–S2, the re-identification
attacks E1–E4, EUC1, EUC2 (and, beside them, the reference linkage attack of
:mod:`scoring.linkage`), submission validation, publication of attack targets and
the scoring of correspondence tables. No Django, no Celery: DataFrames in, numbers out.
The command line (``python -m scoring``) runs the same code as the server.
"""

from scoring.attacks import builtin_attack_rates
from scoring.columns import Table
from scoring.correspondence import AttackScore, read_correspondence, score_correspondence
from scoring.errors import ConfigError, ConfigErrors, ScoringError, ValidationError
from scoring.evaluate import METRIC_FUNCTIONS, PreparedOriginal, evaluate, prepare_original
from scoring.linkage import REFERENCE_ATTACK, reference_attack_rate
from scoring.metrics_info import (
    ALL_METRICS,
    ATTACK_METRICS,
    INDICATOR_METRICS,
    LOWER_IS_BETTER,
    METRIC_NAMES,
    METRICS,
    SAFETY_METRICS,
    SCORER_VERSION,
    UTILITY_METRICS,
)
from scoring.publish import (
    CandidateTable,
    PublishedTarget,
    candidate_table,
    draw_sample,
    publish_target,
)
from scoring.schema import RoundConfig, decide_integer_columns, load_config
from scoring.tables import load_table, read_table, write_csv
from scoring.validation import validate_original, validate_submission

__all__ = [
    "ALL_METRICS",
    "ATTACK_METRICS",
    "INDICATOR_METRICS",
    "AttackScore",
    "CandidateTable",
    "ConfigError",
    "ConfigErrors",
    "LOWER_IS_BETTER",
    "METRICS",
    "METRIC_FUNCTIONS",
    "METRIC_NAMES",
    "PreparedOriginal",
    "PublishedTarget",
    "REFERENCE_ATTACK",
    "RoundConfig",
    "SAFETY_METRICS",
    "SCORER_VERSION",
    "Table",
    "ScoringError",
    "UTILITY_METRICS",
    "ValidationError",
    "builtin_attack_rates",
    "candidate_table",
    "decide_integer_columns",
    "draw_sample",
    "evaluate",
    "load_config",
    "load_table",
    "prepare_original",
    "publish_target",
    "read_correspondence",
    "read_table",
    "reference_attack_rate",
    "score_correspondence",
    "validate_original",
    "validate_submission",
    "write_csv",
]
