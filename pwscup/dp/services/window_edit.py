"""The DP round's release window and upload limits on the core's console page *Dates and
limits* (``DPKind.phases_edit``): the window is the round's own row's (``DPRound``), read and
saved here; its rules are the admin's (``phase_window_check``, as the admin's form applies
it, then ``dp_round_window_set``). The core checks the platform's dates, bumps the ranking
version and records the edit."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.services import phase_window_check
from pwscup.dp.models import DPRound
from pwscup.dp.services.common import RELEASE_PHASE_LABEL
from pwscup.dp.services.rounds import dp_round_window_set
from pwscup.kinds.phases_edit import PhasesEdit, PhaseValues

RELEASE = "release"  # the page's one window: its fields are ``release_opens_at``...


def dp_window_errors(*, round, phases: dict) -> dict:
    """The admin's refusals of the window, under the page's fields."""
    window = phases[RELEASE]
    try:
        phase_window_check(
            opens_at=window.opens_at, closes_at=window.closes_at, time_zone=round.timezone
        )
    except ValidationError as error:
        return {f"{RELEASE}_{name}": messages for name, messages in error.message_dict.items()}
    return {}


def dp_window_stored(*, round) -> dict:
    """The round's window and limits as stored."""
    dp_round = DPRound.objects.get(round=round)
    return {
        RELEASE: PhaseValues(
            opens_at=dp_round.opens_at,
            closes_at=dp_round.closes_at,
            daily_limit=dp_round.daily_limit,
            total_limit=dp_round.total_limit,
        )
    }


def dp_window_save(*, round, phases: dict) -> None:
    """The window through ``dp_round_window_set`` (new dates: the round's new plan), and the
    limits (a team's estimates per level, per day and in total)."""
    window = phases[RELEASE]
    dp_round = DPRound.objects.select_for_update().select_related("round").get(round=round)
    dp_round_window_set(dp_round=dp_round, opens_at=window.opens_at, closes_at=window.closes_at)
    DPRound.objects.filter(pk=dp_round.pk).update(
        daily_limit=window.daily_limit, total_limit=window.total_limit
    )


DP_PHASES_EDIT = PhasesEdit(
    errors=dp_window_errors,
    labels={RELEASE: RELEASE_PHASE_LABEL},
    # A team's limits count its estimates per level, as the round's form says.
    limit_labels=(
        _("Estimates per team per level per day"),
        _("Estimates per team per level in all"),
    ),
    stored=dp_window_stored,
    save=dp_window_save,
)
