"""The DP round's lifecycle actions in the organizer console (``DPKind.console_actions``):
close the release phase now, and score a closed round again."""

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import audit_record
from pwscup.dp import services
from pwscup.dp.selectors import dp_round_of
from pwscup.kinds.actions import RoundAction


def _close(*, user, round, early=False) -> str:
    opening = services.dp_round_close_now(dp_round=dp_round_of(round=round), early=early)
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=AuditEntry.Action.PHASES_CLOSED,
        **opening,
    )
    return _("The release phase is closed; the worker computes the scores and baselines.")


def _score(*, user, round) -> str:
    services.dp_round_rescore(dp_round=dp_round_of(round=round))
    audit_record(
        user=user, competition=round.competition, round=round, action=AuditEntry.Action.ROUND_SCORED
    )
    return _("The worker computes the scores and baselines again.")


CLOSE = RoundAction(
    gettext_lazy("Close the release phase now"),
    gettext_lazy(
        "Queries, releases and estimates are refused from this moment; every team's last "
        "valid estimate per level is scored and the baselines are computed on the worker. "
        "Everyone then sees the leaderboard."
    ),
    gettext_lazy("Close now and score"),
    _close,
    ends=lambda *, round: services.dp_round_window_end(dp_round=dp_round_of(round=round)),
)
SCORE = RoundAction(
    gettext_lazy("Score again"),
    gettext_lazy(
        "The scores and baselines of the closed round are computed again with the current "
        "scorer; the leaderboard shows the new ones once the worker has run."
    ),
    gettext_lazy("Score again"),
    _score,
    secondary=True,
    replaces={"close": gettext_lazy("The release phase is already closed.")},
)


def dp_actions(round_) -> dict[str, RoundAction]:
    dp_round = dp_round_of(round=round_)
    if dp_round.has_closed(timezone.now()):
        return {"score": SCORE}
    return {"close": CLOSE}
