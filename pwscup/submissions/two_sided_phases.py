"""The two phases of a two-sided round (a release phase, then an attack phase on the frozen
releases), as the kinds' selectors, consoles and API read them."""

from django.utils import timezone

from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of
from pwscup.kinds.two_sided import results_wait
from pwscup.submissions.services.two_sided import ATTACK, RELEASE, TWO_SIDED_PHASE_LABELS


def release_phase(round_) -> Phase | None:
    """The round's release phase (``None``: not set)."""
    return phase_of(round=round_, kind=RELEASE)


def attack_phase(round_) -> Phase | None:
    """The round's attack phase (``None``: not set)."""
    return phase_of(round=round_, kind=ATTACK)


def results_waiting(row) -> bool:
    """Whether the round of the kind's row (``frozen_at``, ``results_published``) waits for
    the organizers to publish its results (``results_wait``): what the consoles' panels say
    in place of "attack phase" once its attack phase has closed."""
    attack = attack_phase(row.round)
    return results_wait(row, attack_closed=attack is not None and attack.has_closed())


def attack_opens_later(row):
    """When the attack phase of the round of the kind's row opens, while its releases are
    frozen, its results not published and that phase not open yet (the round is between its
    phases: PWSCup 2026's "data hand-over"); else ``None``. What the consoles' panels say in
    place of "attack phase" then."""
    attack = attack_phase(row.round)
    if row.frozen_at is None or row.results_published or attack is None:
        return None
    return attack.opens_at if timezone.now() < attack.opens_at else None


def panel_state(row) -> dict:
    """What the consoles' panels' state line of the round of the kind's row reads, beside
    the row's own ``frozen_at`` and ``results_published``: ``results_wait``
    (``results_waiting``), ``attack_opens_at`` (``attack_opens_later``) and
    ``release_closed``: the release phase closed, the releases not frozen yet (the panel said
    "release phase" until the freeze)."""
    release = release_phase(row.round)
    return {
        "results_wait": results_waiting(row),
        "attack_opens_at": attack_opens_later(row),
        "release_closed": row.frozen_at is None and release is not None and release.has_closed(),
    }


def named_phases(round_) -> list[tuple[Phase | None, str]]:
    """The round's two phases with their names, in order (``None``: a phase not set), as the
    consoles' panels list them."""
    return [
        (phase_of(round=round_, kind=key), label) for key, label in TWO_SIDED_PHASE_LABELS.items()
    ]
