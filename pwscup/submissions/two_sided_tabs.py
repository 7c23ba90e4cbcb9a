"""What the tabs of a two-sided round (a release phase, then an attack phase on the frozen
releases: synthetic data, the organizer's own scoring program) read of its two phases, and
the "What to do now" lines that only say where the round is. The kind's ``RoundState``
extends ``TwoSidedPhases`` with its own row of the round, which says whether the releases
are frozen (``frozen``) and the results published (``published``); the kind writes the
lines of its open phases itself."""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_closes_at, phase_of, phase_state
from pwscup.kinds.tabs import RESULTS, NextStep, tab_url
from pwscup.submissions.services.two_sided import ATTACK, RELEASE


@dataclass(frozen=True)
class TwoSidedPhases:
    """The round's two phases as every tab describes them (the kind's state adds ``frozen``
    and ``published``)."""

    release_phase: Phase | None
    attack_phase: Phase | None
    release_state: str  # the release phase: unset, upcoming, open, closed (frozen: closed)
    attack_state: str

    @property
    def release_open(self) -> bool:
        return self.release_state == "open" and not self.frozen

    @property
    def attack_open(self) -> bool:
        return self.attack_state == "open" and self.frozen and not self.published

    @property
    def release_closes_at(self):
        return phase_closes_at(phase=self.release_phase) if self.release_phase else None

    @property
    def attack_closes_at(self):
        return self.attack_phase.closes_at if self.attack_phase else None


def two_sided_phases(round_, *, frozen: bool) -> dict:
    """The fields of ``TwoSidedPhases`` for ``round_`` (``frozen``: its releases are, which
    closes the release phase)."""
    release_phase = phase_of(round=round_, kind=RELEASE)
    attack_phase = phase_of(round=round_, kind=ATTACK)
    return {
        "release_phase": release_phase,
        "attack_phase": attack_phase,
        "release_state": "closed" if frozen else phase_state(phase=release_phase),
        "attack_state": phase_state(phase=attack_phase),
    }


def two_sided_next_steps(state, round_, *, releasing: Callable, attacking: Callable) -> list:
    """A team's "What to do now" lines (``NextStep``): the kind's own while the release
    phase (``releasing()``) or the attack phase (``attacking()``) is open; else where the
    round is: the results published, the release phase not open yet or closed (the
    organizers freeze next), the releases frozen and the results not published yet."""
    if state.published:
        return [
            NextStep(
                _("Results published: see the rankings."), tab_url(round_, RESULTS), _("Results")
            )
        ]
    if state.release_open:
        return releasing()
    if not state.frozen:
        if state.release_state == "upcoming":
            return [NextStep(_("The release phase has not opened yet."))]
        return [NextStep(_("The release phase is closed: the organizers freeze next."))]
    if state.attack_open:
        return attacking()
    return [
        NextStep(
            _("The releases are frozen; the results are shown once the organizers publish them."),
            tab_url(round_, RESULTS),
            _("Results"),
        )
    ]
