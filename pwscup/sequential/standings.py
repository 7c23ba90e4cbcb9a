"""The sequential round's rankings for the competition's standings (``RoundKind.ranking_keys``
/ ``published_rankings``), declared (``TwoSidedStandings``): the leaderboard over the frozen
releases (safety, lower is better) and, with an attack phase, the attack ranking (mean
accuracy, higher is better), from the round's own selectors once its results are published.
A round total may name the leaderboard's columns (``RN_max``, ``IL``... as the leaderboard
heads them), the team's ``safety`` and, with an attack phase, its ``attack`` score."""

from django.utils.translation import gettext_lazy as _

from pwscup.sequential import selectors
from pwscup.submissions.two_sided_standings import (
    ReleaseStanding,
    TwoSidedResults,
    TwoSidedStandings,
)


def _attack_phase(sequential) -> bool:
    return bool(sequential.config.get("attack_phase"))


def _results(sequential) -> TwoSidedResults:
    """The leaderboard's rows and, with an attack phase, the attack matrix."""
    releases = [
        ReleaseStanding(
            row.team,
            row.rank,
            row.safety,
            {
                **{key: row.results.get(key) for key in selectors.BOARD_METRICS},
                "safety": row.safety,
            },
        )
        for row in selectors.leaderboard_rows(sequential=sequential)
    ]
    attacked = _attack_phase(sequential)
    matrix = selectors.attack_matrix(sequential=sequential) if attacked else None
    return TwoSidedResults(releases, matrix)


STANDINGS = TwoSidedStandings(
    part=lambda round: selectors.sequential_or_none(round=round),
    results=_results,
    names=(
        *((key, key) for key in selectors.BOARD_METRICS),
        ("safety", _("Safety (the release ranking's score)")),
    ),
    attack_label=_("Attack score (mean accuracy)"),
    attacked=_attack_phase,
)
ranking_keys = STANDINGS.ranking_keys
published_rankings = STANDINGS.published_rankings
named_scores = STANDINGS.named_scores
score_names = STANDINGS.score_names
attack_cells = STANDINGS.attack_cells
