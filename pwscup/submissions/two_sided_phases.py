"""The two phases of a two-sided round (a release phase, then an attack phase on the frozen
releases), as the kinds' selectors, consoles and API read them."""

from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of
from pwscup.submissions.services.two_sided import ATTACK, RELEASE, TWO_SIDED_PHASE_LABELS


def release_phase(round_) -> Phase | None:
    """The round's release phase (``None``: not set)."""
    return phase_of(round=round_, kind=RELEASE)


def attack_phase(round_) -> Phase | None:
    """The round's attack phase (``None``: not set)."""
    return phase_of(round=round_, kind=ATTACK)


def named_phases(round_) -> list[tuple[Phase | None, str]]:
    """The round's two phases with their names, in order (``None``: a phase not set), as the
    consoles' panels list them."""
    return [
        (phase_of(round=round_, kind=key), label) for key, label in TWO_SIDED_PHASE_LABELS.items()
    ]
