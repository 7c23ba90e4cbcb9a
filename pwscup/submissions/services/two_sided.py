"""A two-sided round's phases (a release phase, then an attack phase on the frozen releases),
for the kinds that play one (synthetic data, the organizer's own program): their names and
the one check of an upload's window, on the core's ``window_check``."""

import datetime as dt

from django.utils.translation import gettext_lazy

from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import phase_of
from pwscup.core.errors import Refused
from pwscup.submissions.services.uploads import phase_window_check

# A two-sided round's phases (a release phase, then an attack phase on the frozen releases)
# by the names its pages, schedule, bundle and refusals say (the synthetic and scorer kinds).
TWO_SIDED_PHASE_LABELS = {
    Phase.Kind.ANONYMIZATION: gettext_lazy("Release phase"),
    Phase.Kind.ATTACK: gettext_lazy("Attack phase"),
}
TWO_SIDED_PHASE_MISSING = {
    Phase.Kind.ANONYMIZATION: gettext_lazy("This round has no release phase."),
    Phase.Kind.ATTACK: gettext_lazy("This round has no attack phase."),
}


def two_sided_phase_check(*, round: Round, kind: str, now: dt.datetime) -> None:
    """Refuse (403) an upload to a two-sided round's phase ``kind`` at ``now`` unless it is
    open (until its real close: the freeze ends the release phase): ``phase_window_check``
    under the game's name of the phase; a round without that phase is refused too."""
    phase = phase_of(round=round, kind=kind)
    if phase is None:
        raise Refused(str(TWO_SIDED_PHASE_MISSING[kind]), status=403)
    phase_window_check(phase=phase, now=now, label=str(TWO_SIDED_PHASE_LABELS[kind]))
