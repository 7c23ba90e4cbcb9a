"""The DP round's ranking for the competition's standings (``RoundKind.ranking_keys`` /
``published_rankings``): the overall ranking (sum of the per-level ranks, lower is better),
the leaderboard's own, once the results are final."""

from fractions import Fraction

from django.utils.translation import gettext_lazy as _

from pwscup.dp.archive import results_final
from pwscup.dp.models import DPRound
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.kinds.rankings import RankingKey, RoundRanking, ranking_rows, score_number
from pwscup.submissions.kind_rankings import ranked_named_scores
from scoring.dp.exact import format_epsilon

OVERALL = RankingKey("overall", _("Overall ranking (sum of the levels' ranks)"), False)


def ranking_keys(round) -> list[RankingKey]:
    return [OVERALL]


def published_rankings(round) -> list[RoundRanking]:
    dp_round = DPRound.objects.filter(round=round).select_related("round").first()
    if dp_round is None or not results_final(dp_round):
        return []
    rows = overall_ranking(level_boards(dp_round=dp_round))
    return [RoundRanking(OVERALL, ranking_rows(rows, score=lambda r: r.total))]


def named_scores(round) -> dict:
    """The overall ranking's numbers a round total may name: ``rank_sum`` (the sum of the
    per-level ranks) and each level's rank, ``rank_1``... from the smallest ε up."""
    dp_round = DPRound.objects.filter(round=round).select_related("round").first()
    if dp_round is None:
        return {"names": [], "teams": {}}
    boards = sorted(level_boards(dp_round=dp_round), key=lambda board: board.epsilon)
    levels = [(f"rank_{i}", board) for i, board in enumerate(boards, start=1)]
    teams: dict[int, dict] = {}
    for row in overall_ranking(boards):
        values = {"rank_sum": score_number(row.total)}
        for key, board in levels:
            values[key] = score_number(row.ranks.get(board.level))
        teams[row.team.pk] = values
    return ranked_named_scores(round, names=score_names(round), teams=teams)


def score_names(round) -> list[dict]:
    """``rank_sum``, then ``rank_1``... by the levels' ε, smallest first, as the levels'
    boards (``level_boards``) order them; named before the round is scored."""
    dp_round = DPRound.objects.filter(round=round).first()
    if dp_round is None:
        return []
    names = [{"key": "rank_sum", "label": str(_("Sum of the levels' ranks"))}]
    levels = sorted(dp_round.config["levels"], key=lambda level: Fraction(level["epsilon"]))
    for i, level in enumerate(levels, start=1):
        label = _("Rank at level %(level)s (ε = %(epsilon)s)") % {
            "level": level["id"],
            "epsilon": format_epsilon(Fraction(level["epsilon"])),
        }
        names.append({"key": f"rank_{i}", "label": str(label)})
    return names
