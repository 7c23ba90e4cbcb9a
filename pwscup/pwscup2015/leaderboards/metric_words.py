"""The metrics in plain words, for the charts' axes and the leaderboard's legend: what each
one measures, said first, the paper's code (``U4 corMAE``) after.

``AXIS_WORDS`` are short noun phrases that fit under a chart; ``SENTENCES`` one plain sentence
each for the legend. The ranking's own number (the safety a team is ranked by) is
``RANKING``: its words depend on the round's rule and on what is known yet (before the
freeze only the built-in attacks have attacked; after it, every team too).
"""

from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring

RANKING = "ranking"  # the pseudo-metric of the ranking's safety (``?y=ranking``)

AXIS_WORDS = {
    "U1": gettext_lazy("gap between the columns' averages"),
    "U2": gettext_lazy("gap between the cross-table's group averages"),
    "U3": gettext_lazy("gap between the cross-table's group sizes"),
    "U4": gettext_lazy("gap between the columns' correlations"),
    "U5": gettext_lazy("how far the values moved"),
    "U6": gettext_lazy("rows deleted"),
    "S1": gettext_lazy("smallest group of look-alike rows"),
    "S2": gettext_lazy("average group of look-alike rows"),
    "E1": gettext_lazy("re-identified by a random pick among look-alikes"),
    "E2": gettext_lazy("re-identified by the closest value among look-alikes"),
    "E3": gettext_lazy("re-identified by sorting the rows' totals"),
    "E4": gettext_lazy("re-identified by the closest value of one column"),
    "EUC1": gettext_lazy("re-identified by the closest row among look-alikes"),
    "EUC2": gettext_lazy("re-identified by the closest row, any row if none alike"),
    "L1": gettext_lazy("fewest distinct sensitive values in a group"),
    "L2": gettext_lazy("spread of the sensitive values in a group"),
    "L3": gettext_lazy("how much one value dominates a group"),
    "T": gettext_lazy("largest gap between a group and the whole table"),
}

SENTENCES = {
    "U1": gettext_lazy("How far the average of each sensitive column moved."),
    "U2": gettext_lazy("How far the averages inside the cross-table's groups moved."),
    "U3": gettext_lazy("How far the number of rows in each cross-table group moved."),
    "U4": gettext_lazy("How far the correlations between the sensitive columns moved."),
    "U5": gettext_lazy("How far each kept value moved, relative to its column's range."),
    "U6": gettext_lazy("How many rows were deleted."),
    "S1": gettext_lazy(
        "How many rows the smallest group of look-alike rows holds (rows an attacker cannot "
        "tell apart by the columns they know)."
    ),
    "S2": gettext_lazy("How many rows a group of look-alike rows holds on average."),
    "E1": gettext_lazy(
        "Share of rows an attacker matches back to their person by picking at random among "
        "the look-alike rows."
    ),
    "E2": gettext_lazy(
        "Share of rows matched back by the closest value of one sensitive column among the "
        "look-alike rows."
    ),
    "E3": gettext_lazy(
        "Share of rows matched back by sorting both tables by the total of their sensitive values."
    ),
    "E4": gettext_lazy(
        "Share of rows matched back by the closest value of one column, whatever the other "
        "columns say."
    ),
    "EUC1": gettext_lazy(
        "Share of rows matched back by the closest row (all sensitive values) among the "
        "look-alike rows."
    ),
    "EUC2": gettext_lazy("The same as EUC1, but among all rows when no row looks alike."),
    "L1": gettext_lazy("The fewest different sensitive values found inside one group."),
    "L2": gettext_lazy("How evenly the sensitive values spread inside the least even group."),
    "L3": gettext_lazy("How much the commonest sensitive value dominates a group."),
    "T": gettext_lazy(
        "How far the sensitive values of a group differ from those of the whole table."
    ),
}


@dataclass(frozen=True)
class MetricWords:
    """One metric as the legend says it: the sentence, then the code and the direction."""

    code: str
    name: str  # the paper's name (``corMAE``)
    sentence: str
    better: str  # "lower is better" / "higher is better"


def metric_name(metric: str) -> str:
    """The paper's name of ``metric`` without a repeated code: ``identify.euc``, not
    ``identify.euc (EUC1)``."""
    return scoring.METRIC_NAMES[metric].split(" (")[0]


def better_words(lower_is_better: bool) -> str:
    return str(_("lower is better") if lower_is_better else _("higher is better"))


def better_arrow(lower_is_better: bool) -> str:
    """The arrow beside a metric's code: ↓ when lower is better, ↑ when higher is."""
    return "↓" if lower_is_better else "↑"


def legend(metrics) -> list[MetricWords]:
    return [
        MetricWords(
            code=metric,
            name=metric_name(metric),
            sentence=str(SENTENCES[metric]),
            better=better_words(scoring.LOWER_IS_BETTER[metric]),
        )
        for metric in metrics
    ]


def ranking_words(*, measure: str, every_attack: bool) -> str:
    """The ranking's safety in words: ``measure`` is the round's rule (``worst_attack`` or
    ``mean_attack``); ``every_attack`` whether the teams' attacks count yet (after the freeze,
    for whom may see them) or only the built-in ones."""
    if measure == "mean_attack":
        if every_attack:
            return str(_("mean re-identification rate over every attack"))
        return str(_("mean re-identification rate of the built-in attacks"))
    if every_attack:
        return str(_("worst-case re-identification rate over every attack"))
    return str(_("worst-case re-identification rate of the built-in attacks"))


def ranking_label(*, measure: str, every_attack: bool) -> str:
    """The ranking number's one name, as every surface heads it: the leaderboard's table, its
    chart's axis and data table, and the API's standings (``pwscup leaderboard``)."""
    return capfirst(ranking_words(measure=measure, every_attack=every_attack))


def ranking_sentence(*, measure: str, every_attack: bool) -> str:
    """The legend's sentence for the ranking's own number."""
    if every_attack:
        return str(
            _(
                "The number teams are ranked by: the %(what)s, teams' attacks and built-in "
                "ones, on the team's final table (lower is safer)."
            )
            % {"what": ranking_words(measure=measure, every_attack=True)}
        )
    return str(
        _(
            "The number teams are ranked by: the %(what)s (E1–E4, EUC1, EUC2) on the team's "
            "table; after the attack phase the teams' own attacks count too (lower is safer)."
        )
        % {"what": ranking_words(measure=measure, every_attack=False)}
    )
