"""What every DP service shares: the request error (HTTP 400) and its text, and the checks
of a level's window and of a request_id."""

from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from pwscup.dp import engine
from pwscup.dp.models import DPRound
from pwscup.submissions.services.windows import window_check
from scoring.dp.errors import DPError

# The DP jobs, sent by name (``pwscup.submissions.broker.job_send``): tasks.py imports the
# services, so the services do not import the tasks.
SCORE_DP_ROUND = "pwscup.dp.tasks.score_dp_round"
CHECK_DP_ESTIMATE = "pwscup.dp.tasks.check_dp_estimate"

# The game's name of its one upload window (``UploadDates`` on ``DPRound``): its schedule and
# its refusals say it.
RELEASE_PHASE_LABEL = gettext_lazy("Release phase")


# Errors that name something the round or the team's ledger does not have (a query type, an
# attribute, a value of its domain, a numeric column, a charge number): the API answers them
# 404, as it answers an unknown number in a URL. The schema cannot list a round's names, so a
# request the schema calls valid may name one.
NOT_FOUND_CODES = frozenset(
    {
        "dp.query.type",
        "dp.query.unknown_attribute",
        "dp.query.unknown_column",
        "dp.count.unknown_attribute",
        "dp.count.not_in_domain",
        "dp.release.unknown_attribute",
    }
)


class DPRequestError(Exception):
    """A request the round cannot take (HTTP 400, or 404 when it names something the round
    or the ledger does not have): its message names what is wrong.

    ``error`` is the ``scoring.dp.DPError`` when there is one (rendered in the reader's
    language by the pages), else the message text."""

    def __init__(self, error, *, status: int | None = None):
        super().__init__(str(error))
        self.error = error
        if status is None:
            status = 404 if getattr(error, "code", None) in NOT_FOUND_CODES else 400
        self.status = status


def dp_error_text(error) -> str:
    """A ``DPRequestError`` or ``LedgerRefusal`` (or a bare ``DPError``) as text in the
    reader's language: what the pages and the API both show."""
    inner = getattr(error, "error", error)
    if isinstance(inner, DPError):
        return inner.render(get_language())
    return str(inner)


# --- checks shared by queries, releases and estimates --------------------------------------


def level_known(dp_round: DPRound, level: str) -> None:
    """A level the round has; else 404 (the level is part of the address) naming its levels."""
    levels = dp_round.level_ids
    if level not in levels:
        raise DPRequestError(
            _("Level '%(level)s' does not exist; levels: %(levels)s")
            % {"level": level, "levels": ", ".join(levels)},
            status=404,
        )


def level_open(dp_round: DPRound, level: str, now=None) -> None:
    level_known(dp_round, level)
    # The window's refusals are the core's (403), like every kind's deadline.
    window_check(
        label=str(RELEASE_PHASE_LABEL),
        opens_at=dp_round.opens_at,
        closes_at=dp_round.closes_at,
        time_zone=dp_round.round.timezone,
        now=now or timezone.now(),
    )


def request_id_of(value) -> str:
    """``""`` (none given) or a valid request_id (≤ 100 printable characters)."""
    if value is None or value == "":
        return ""
    try:
        return engine.request_id_check(value)
    except engine.DPInputError as error:
        raise DPRequestError(error) from None
