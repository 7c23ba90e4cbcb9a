"""How the metrics are named in score tables: id, the 2015 name, what it measures and
which direction is better for the anonymizing team (``scoring.LOWER_IS_BETTER``)."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

import scoring
from pwscup.pwscup2015.leaderboards.metric_words import better_arrow, better_words, metric_name

DESCRIPTIONS = {
    "U1": _("Utility loss: mean over the SA columns of the gap between the column means"),
    "U2": _("Utility loss: mean gap between the SA means of the cross-tabulation cells"),
    "U3": _("Utility loss: mean gap between the row counts of the cross-tabulation cells"),
    "U4": _("Utility loss: mean gap between the correlations of the SA column pairs"),
    "U5": _("Information loss: mean min–max-normalised gap of the SA values of kept rows"),
    "U6": _("Number of deleted rows"),
    "S1": _("k-anonymity: size of the smallest equivalence class over all QI columns"),
    "S2": _("Mean size of the equivalence classes over all QI columns"),
    "E1": _("Re-identification rate: random pick inside the matching QI class"),
    "E2": _("Re-identification rate: nearest e2 column value inside the QI class"),
    "E3": _("Re-identification rate: rows ranked by the sum of their SA values"),
    "E4": _("Re-identification rate: nearest e4 column value, QI ignored"),
    "EUC1": _("Re-identification rate: Euclidean nearest over euc_sa inside the QI class"),
    "EUC2": _("Re-identification rate: as EUC1, falling back to all rows"),
    "L1": _("Distinct l-diversity: fewest distinct indicator values in an equivalence class"),
    "L2": _("Entropy l-diversity: smallest exp(entropy) of the indicator values in a class"),
    "L3": _(
        "Recursive (c,l)-diversity: largest r1 / (rl + … + rm) over the classes; "
        "∞ when a class has fewer than l values"
    ),
    "T": _("t-closeness: largest distance between a class's and the table's indicator values"),
}


class BetterDirection:
    """The arrow that shows which way is better, for a metric with ``lower_is_better``."""

    @property
    def arrow(self) -> str:
        return better_arrow(self.lower_is_better)


@dataclass(frozen=True)
class MetricHeader(BetterDirection):
    metric: str
    name: str
    description: str
    lower_is_better: bool

    @property
    def better(self) -> str:
        return better_words(self.lower_is_better)

    @property
    def title(self) -> str:
        return f"{self.metric} {self.name}: {self.description} ({self.better})"


def metric_headers(metrics=scoring.METRICS) -> list[MetricHeader]:
    return [
        MetricHeader(
            metric=metric,
            name=metric_name(metric),  # the id is shown beside it already
            description=str(DESCRIPTIONS[metric]),
            lower_is_better=scoring.LOWER_IS_BETTER[metric],
        )
        for metric in metrics
    ]
