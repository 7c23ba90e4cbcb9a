"""The toy's reads: its leaderboard, without the competition's disqualified teams (the
core's one rule, ``pwscup.accounts.selectors.without_disqualified``)."""

from pwscup.accounts.selectors import without_disqualified
from tests.kinds.toy.models import ToyRound, ToyUpload


def toy_published(*, round) -> bool:
    return ToyRound.objects.filter(round=round, published=True).exists()


def toy_uploads(*, round, team):
    """The team's uploads, newest first."""
    return ToyUpload.objects.filter(round=round, team=team).order_by("-number")


def toy_leaderboard(round) -> list[tuple[str, float]]:
    """(team name, score) of every scored upload, best first."""
    rows = ToyUpload.objects.filter(round=round, status="finished").select_related("team")
    rows = without_disqualified(rows.order_by("-score"), competition_id=round.competition_id)
    return [(row.team.name, row.score) for row in rows]
