"""A two-sided round's two phases in a competition bundle (``pwscup.kinds.bundles``): the
release phase and the attack phase (``pwscup.submissions.services.two_sided``), exported and
read back alike for every two-sided kind; the kind declares only its phase labels."""

from pwscup.competitions.selectors import phase_of
from pwscup.kinds.bundles import setting_required, two_phases_arguments, two_phases_export
from pwscup.submissions.services.two_sided import ATTACK, FORMER_PHASE_KEYS, RELEASE


def two_sided_phases_export(round_, anchor) -> dict:
    """The round's release and attack phases as offsets from ``anchor``, with their
    limits: the bundle's ``phases`` setting."""
    phases = [phase_of(round=round_, kind=RELEASE), phase_of(round=round_, kind=ATTACK)]
    return two_phases_export(phases, anchor, attack=ATTACK)


def two_sided_windows(settings: dict, start, entry, *, labels: dict) -> dict:
    """The bundle's ``phases`` setting read back (each window ``start`` plus its offsets,
    a former bundle's phase keys accepted) as the keyword arguments of the kind's round
    creation service (``two_phases_arguments``); ``labels``: the kind's phase labels."""
    return two_phases_arguments(
        setting_required(settings, "phases", "settings"),
        start,
        entry,
        labels=labels,
        release=RELEASE,
        attack=ATTACK,
        former=FORMER_PHASE_KEYS,
    )
