"""The synthetic round's rankings for the competition's standings
(``RoundKind.ranking_keys`` / ``published_rankings``), declared (``TwoSidedStandings``): the
release ranking (the highest attack headline reached, lower is better) and the attack
ranking (mean headline, higher is better) on the final half, from the round's own selectors
once its results are published. A round total may name the release's utilities ``u_ml`` and
``u_1``, its ``privacy`` (the release ranking's score) and the team's ``attack`` score."""

from django.utils.translation import gettext_lazy as _

from pwscup.submissions.two_sided_standings import (
    ReleaseStanding,
    TwoSidedResults,
    TwoSidedStandings,
)
from pwscup.synthetic import selectors

FINAL = "final"


def _results(synthetic) -> TwoSidedResults:
    """Both rankings on the final half, from its matrix read once."""
    results = selectors.round_results(synthetic=synthetic, half=FINAL)
    releases = [
        ReleaseStanding(
            row["team"],
            row["rank"],
            row["worst"],
            {"u_ml": row["u_ml"], "u_1": row["u_1"], "privacy": row["worst"]},
        )
        for row in results.releases
    ]
    return TwoSidedResults(releases, results.matrix)


STANDINGS = TwoSidedStandings(
    part=selectors.synthetic_of,
    results=_results,
    names=(
        ("u_ml", "U_ML"),
        ("u_1", "U_1"),
        ("privacy", _("Privacy (highest attack reached, lower is better)")),
    ),
    attack_label=_("Attack score (mean headline)"),
)
ranking_keys = STANDINGS.ranking_keys
published_rankings = STANDINGS.published_rankings
named_scores = STANDINGS.named_scores
score_names = STANDINGS.score_names
attack_cells = STANDINGS.attack_cells
