"""The round's scores in plain words, for the *Rules and scoring* tab (reads only): one
sentence per metric, the paper's name after it, and a worked example on a 4-row table.

The worked example is metrics.md's Table 2a and its micro-aggregated copy (Table 8, "F"):
its numbers are written here, and a test computes them with ``scoring`` so that they can
never drift from the scorer (the page itself computes nothing).
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

import scoring
from pwscup.competitions.models import Round
from pwscup.competitions.selectors import round_metrics
from pwscup.pwscup2015.metric_headers import BetterDirection
from pwscup.pwscup2015.scoring_guide import round_scoring_config

GROUPS = (
    (
        "utility",
        _("Usefulness: how far your copy is from the original (lower is better)"),
        scoring.UTILITY_METRICS,
    ),
    (
        "k_anonymity",
        _("Hiding in a crowd: how many people look alike on the QI columns (higher is safer)"),
        ("S1", "S2"),
    ),
    (
        "attacks",
        _(
            "Attacks: the share of the rows of your copy an attacker matches to the right "
            "person, the re-identification rate, from 0 to 1 (lower is safer)"
        ),
        scoring.ATTACK_METRICS,
    ),
    (
        "indicators",
        _("Sensitive values inside each group of look-alikes"),
        scoring.INDICATOR_METRICS,
    ),
)

# %(e2)s, %(e4)s: the round's e2_column and e4_column.
SENTENCES = {
    "U1": _("How far the average of each numeric (SA) column moved, averaged over the columns."),
    "U2": _(
        "The same, inside each group of people who share the cross-tabulation columns: how "
        "far the group averages moved."
    ),
    "U3": _("How much the number of people in each of those groups changed."),
    "U4": _("How much the correlations between the numeric columns changed."),
    "U5": _(
        "How far the numbers of each kept person moved, as a share of the column's range "
        "(information loss)."
    ),
    "U6": _("How many rows you deleted."),
    "S1": _(
        "The size of the smallest group of people who look the same on every QI column "
        "(the k of k-anonymity)."
    ),
    "S2": _("The average size of those groups."),
    "E1": _(
        "The attacker picks at random among the original people who look the same on the "
        "QI columns."
    ),
    "E2": _("Among those people, the attacker picks the one whose %(e2)s is nearest."),
    "E3": _(
        "The attacker sorts both tables by the sum of each row's numbers and matches them "
        "rank by rank."
    ),
    "E4": _("The attacker ignores the QI columns and picks the nearest %(e4)s."),
    "EUC1": _(
        "Among the people alike on the QI columns, the attacker picks the nearest by all the "
        "numbers together (Euclidean distance)."
    ),
    "EUC2": _("As EUC1, but when nobody is alike on the QI columns, it searches everybody."),
    "L1": _("The fewest different sensitive values a group of look-alikes holds."),
    "L2": _("The same, counted with entropy: how evenly the sensitive values are spread."),
    "L3": _("How much the most frequent sensitive value dominates a group."),
    "T": _("How different a group's sensitive values are from the whole table's, at most."),
}


@dataclass(frozen=True)
class MetricWords(BetterDirection):
    metric: str
    sentence: str
    paper_name: str
    lower_is_better: bool


@dataclass(frozen=True)
class MetricGroup:
    key: str
    title: object
    metrics: list[MetricWords]


def metric_groups(*, round: Round) -> list[MetricGroup]:
    """The round's metrics, grouped, each in one plain sentence then its paper name."""
    config = round_scoring_config(round=round)
    columns = {"e2": config.get("e2_column", ""), "e4": config.get("e4_column", "")}
    used = set(round_metrics(round=round))
    groups = []
    for key, title, metrics in GROUPS:
        words = [
            MetricWords(
                metric=metric,
                sentence=str(SENTENCES[metric]) % columns,
                paper_name=scoring.METRIC_NAMES[metric],
                lower_is_better=scoring.LOWER_IS_BETTER[metric],
            )
            for metric in metrics
            if metric in used
        ]
        if words:
            groups.append(MetricGroup(key, title, words))
    return groups


# --- the worked example (metrics.md, Tables 2a and 8) ---------------------------------------

EXAMPLE_COLUMNS = ("QI1", "QI2", "QI3", "SA1", "SA2")
EXAMPLE_CONFIG = {
    "qi": ["QI1", "QI2", "QI3"],
    "sa": ["SA1", "SA2"],
    "cross": ["QI1", "QI2"],
    "e2_column": "SA1",
    "e4_column": "SA1",
}
EXAMPLE_ORIGINAL = (
    ("2", "1", "1", "100", "100"),
    ("2", "1", "1", "200", "400"),
    ("1", "1", "2", "300", "200"),
    ("1", "1", "2", "400", "500"),
)
# Micro-aggregation: each person's numbers replaced by the average of the two look-alikes.
EXAMPLE_COPY = (
    ("2", "1", "1", "150", "250"),
    ("2", "1", "1", "150", "250"),
    ("1", "1", "2", "350", "350"),
    ("1", "1", "2", "350", "350"),
)
# metric: (the original published as is, the copy), as metrics.md gives them (4 decimals).
EXAMPLE_SCORES = (
    ("U1", 0, 0),
    ("U4", 0, 0.2929),
    ("U5", 0, 0.2708),
    ("S1", 2, 2),
    ("E1", 0.5, 0.5),
    ("E2", 1, 0.5),
    ("E3", 1, 0.25),
    ("EUC1", 1, 0.5),
)


def example_worst_cases() -> tuple[float, float]:
    """The highest attack rate of each column of ``EXAMPLE_SCORES`` (what the ranking uses)."""
    rates = [row for row in EXAMPLE_SCORES if row[0] in scoring.ATTACK_METRICS]
    return max(r[1] for r in rates), max(r[2] for r in rates)
