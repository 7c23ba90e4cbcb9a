"""The two phases of a two-sided round (a release phase, then an attack phase on the frozen
releases), as the kinds' selectors, consoles and API read them."""

from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of
from pwscup.submissions.services.two_sided import ATTACK, RELEASE


def release_phase(round_) -> Phase | None:
    """The round's release phase (``None``: not set)."""
    return phase_of(round=round_, kind=RELEASE)


def attack_phase(round_) -> Phase | None:
    """The round's attack phase (``None``: not set)."""
    return phase_of(round=round_, kind=ATTACK)
