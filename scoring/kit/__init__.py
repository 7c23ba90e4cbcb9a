"""The starter kit: anonymization methods and attacks of the lecture and seeds 002/004.

Pure (pandas/numpy/scipy), like the metrics: tables of text cells in, tables out,
options keyword-only, random methods seeded. See ``indicators-and-kit.md`` Part B and
``python -m scoring anonymize --help`` / ``python -m scoring attack --help``.
"""

from scoring.kit._common import KitError
from scoring.kit.attacks import (
    ATTACKS,
    answer,
    correspondence_lines,
    lecture_answer,
    lecture_attack_rate,
    neighbor_answer,
)
from scoring.kit.hierarchy import attr_depth_example, generalize, k_anonymize, load_hierarchy
from scoring.kit.matching import attack_id
from scoring.kit.methods import (
    delete_outliers,
    delete_random,
    delete_rows,
    laplace_ldp,
    mdav,
    qi_unify,
    randomized_response,
    remove_record,
    sa_class_mean,
    sa_noise,
    swap_in_class,
    top_bottom_coding,
    yamaoka,
)
from scoring.kit.neighbors import Candidates, neighbor_att
from scoring.kit.registry import ATTACK_ENTRIES, METHODS

BUILTIN_ATTACKER = "KIT"
"""Key of the lecture's pipeline among a target's built-in attack rates (``BuiltinAttack.rates``)."""

__all__ = [
    "BUILTIN_ATTACKER",
    "ATTACKS",
    "ATTACK_ENTRIES",
    "Candidates",
    "KitError",
    "METHODS",
    "answer",
    "attr_depth_example",
    "attack_id",
    "correspondence_lines",
    "delete_outliers",
    "delete_random",
    "delete_rows",
    "generalize",
    "k_anonymize",
    "laplace_ldp",
    "lecture_answer",
    "lecture_attack_rate",
    "load_hierarchy",
    "mdav",
    "neighbor_answer",
    "neighbor_att",
    "qi_unify",
    "randomized_response",
    "remove_record",
    "sa_class_mean",
    "sa_noise",
    "swap_in_class",
    "top_bottom_coding",
    "yamaoka",
]
