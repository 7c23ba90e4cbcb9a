"""What the scorer round's services share: the tasks' names, the phases' names,
and how a run's result is stored."""

from django.utils.translation import gettext

from pwscup.core.errors import Refused
from pwscup.scorer.models import ScorerRound
from pwscup.scorer.selectors import hidden_missing_names
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.services.two_sided import TWO_SIDED_PHASE_LABELS

BUILD_TASK = "pwscup.scorer.build_program"
SCORE_RELEASE_TASK = "pwscup.scorer.score_release"
SCORE_ATTACK_TASK = "pwscup.scorer.score_attack"
RANKING_TASK = "pwscup.scorer.rank"

# The game's names of the core's phases: its schedule, its bundle and its refusals say them.
PHASE_LABELS = TWO_SIDED_PHASE_LABELS


def hidden_wait_text(*, scorer: ScorerRound) -> str:
    """Why the round takes no upload while it awaits hidden data a bundle left out (``""``:
    it awaits none): the refusal of an upload, and what the team pages say instead of the
    upload form."""
    missing = hidden_missing_names(scorer=scorer)
    if not missing:
        return ""
    return gettext(
        "This round is not open yet: the organizers have still to upload its hidden "
        "data (%(packs)s)."
    ) % {"packs": missing}


def hidden_ready_check(*, scorer: ScorerRound) -> None:
    """Refuse (403) an upload while the round awaits hidden data a bundle left out."""
    waiting = hidden_wait_text(scorer=scorer)
    if waiting:
        raise Refused(waiting, status=403)


def result_message(result) -> JobMessage | None:
    """A run that did not end ``ok``: its code and parameters, rendered in each reader's
    language (``scoring.catalogues.scorer``), English kept as the stored text."""
    if result.status == "ok":
        return None
    return JobMessage(code=result.code, params=dict(result.params), text=result.render("en"))
