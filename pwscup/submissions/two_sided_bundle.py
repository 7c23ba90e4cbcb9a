"""A two-sided round's two phases in a competition bundle (``pwscup.kinds.bundles``): the
release phase and the attack phase (``pwscup.submissions.services.two_sided``), exported and
read back alike for every two-sided kind; the kind declares only its phase labels."""

import datetime as dt
from dataclasses import replace

from pwscup.competitions.phases_edit import auto_freeze_setting
from pwscup.competitions.selectors import phase_of
from pwscup.kinds.bundle_limits import (
    LIMIT_KEYS,
    TARGET_LIMIT_KEY,
    limits_export,
    window_limits_read,
)
from pwscup.kinds.bundles import (
    BundleChecks,
    RoundEntry,
    flag_check,
    schedule_offsets,
    service_checked,
    setting_required,
    settings_known,
    settings_object,
    window_at_offsets,
)
from pwscup.submissions.services.two_sided import (
    ATTACK,
    FORMER_PHASE_KEYS,
    RELEASE,
    TWO_SIDED_PHASE_LABELS,
    TwoSidedWindows,
    two_sided_windows_check,
)

# The release phase's automatic freeze at its close in a bundle (``RoundKind.auto_freeze``).
AUTO_FREEZE_KEY = "auto_freeze"
# Where a two-sided round's creation service's window errors (``two_sided_windows_errors``)
# point in a bundle's settings.
WINDOW_ERROR_PATHS = {
    "release_closes_at": f"phases.{RELEASE}.closes_at",
    "attack_opens_at": f"phases.{ATTACK}.opens_at",
    "attack_closes_at": f"phases.{ATTACK}.closes_at",
}


def two_sided_phases_export(round_, anchor) -> dict:
    """The round's release and attack phases as offsets from ``anchor``, with their
    limits, the release phase with its automatic freeze at the close (``auto_freeze``): the
    bundle's ``phases`` setting."""
    phases = [phase_of(round=round_, kind=RELEASE), phase_of(round=round_, kind=ATTACK)]
    exported = two_phases_export(phases, anchor, attack=ATTACK)
    if RELEASE in exported:
        exported[RELEASE][AUTO_FREEZE_KEY] = bool(auto_freeze_setting(round=round_))
    return exported


def two_sided_windows(
    settings: dict, start, entry, *, labels: dict = TWO_SIDED_PHASE_LABELS
) -> dict:
    """The bundle's ``phases`` setting read back (each window ``start`` plus its offsets,
    a former bundle's phase keys accepted) as the keyword arguments of the kind's round
    creation service (``two_phases_arguments``); ``labels``: the kind's phase labels (by
    default a two-sided round's); the release phase's ``auto_freeze`` is the windows'."""
    raw, auto_freeze = _auto_freeze_read(setting_required(settings, "phases", "settings"))
    arguments = two_phases_arguments(
        raw,
        start,
        entry,
        labels=labels,
        release=RELEASE,
        attack=ATTACK,
        former=FORMER_PHASE_KEYS,
    )
    return {"windows": replace(arguments["windows"], auto_freeze=auto_freeze)}


def _auto_freeze_read(raw) -> tuple:
    """The ``phases`` setting without the release phase's ``auto_freeze`` (under the phase's
    key, or its former one), and its value: a bundle exported before the setting existed
    leaves it out (then off)."""
    keys = (RELEASE, *(old for old, new in FORMER_PHASE_KEYS.items() if new == RELEASE))
    for key in keys:
        release = raw.get(key) if isinstance(raw, dict) else None
        if isinstance(release, dict) and AUTO_FREEZE_KEY in release:
            value = release[AUTO_FREEZE_KEY]
            flag_check(value, path=f"phases.{key}.{AUTO_FREEZE_KEY}")
            kept = {name: item for name, item in release.items() if name != AUTO_FREEZE_KEY}
            return {**raw, key: kept}, value
    return raw, False


PHASE_KEYS = ("opens_at", "closes_at", *LIMIT_KEYS)


def two_phases_export(phases, anchor: dt.datetime, *, attack: str) -> dict:
    """A release phase and an attack phase (``competitions.Phase`` s, ``None`` for one the
    round lacks) as a bundle writes those the round has: each as planned
    (``planned_window``: not cut short by *Close now*, *Open the attack phase now* or the
    publication; one closed before it opened with no plan kept gets a length,
    ``schedule_offsets``) as offsets from ``anchor``, its daily and total limits, and the
    attack phase's (its kind ``attack``) limit per target."""
    phases = [phase for phase in phases if phase is not None]
    windows = schedule_offsets([phase.planned_window() for phase in phases], anchor)
    return {
        phase.kind: {
            "opens_at": opens,
            "closes_at": closes,
            **limits_export(phase, target=phase.kind == attack),
        }
        for phase, (opens, closes) in zip(phases, windows, strict=True)
    }


def two_phases_read(
    raw, start: dt.datetime, entry: str, *, labels: dict, attack: str, former: dict | None = None
) -> dict:
    """``two_phases_export``'s object read back: ``{kind: {"window": (opens_at, closes_at),
    "limits": (daily, total)}}`` for both phases (the attack phase with its
    ``target_limit``), each refusal keyed by its path; ``labels``: each phase kind's name in
    the messages, in order; ``attack``: the attack phase's kind; ``former``: a phase's
    earlier key in older bundles, read as its key today (``{"anonymization": "release"}``)."""
    phases = settings_object(raw, "phases")
    renamed = {
        old: new for old, new in (former or {}).items() if old in phases and new not in phases
    }
    if renamed:
        phases = {renamed.get(key, key): value for key, value in phases.items()}
    kinds = tuple(labels)
    checks = BundleChecks()  # every phase read, each refusal kept
    checks.run(settings_known, phases, kinds, "phases")
    out = {
        kind: checks.run(
            _phase_read, phases, kind, start, entry, label=labels[kind], is_attack=kind == attack
        )
        for kind in kinds
    }
    checks.done()
    return out


def _phase_read(phases: dict, kind: str, start, entry, *, label, is_attack: bool) -> dict:
    """One phase of ``two_phases_read``: its keys, its window and its limits each checked,
    every refusal kept."""
    path = f"phases.{kind}"
    phase = settings_object(setting_required(phases, kind, "phases"), path)
    checks = BundleChecks()
    checks.run(
        settings_known, phase, (*PHASE_KEYS, TARGET_LIMIT_KEY) if is_attack else PHASE_KEYS, path
    )
    window = checks.run(window_at_offsets, phase, start, path=path, entry=entry, phase=label)
    limits = checks.run(window_limits_read, phase, field=path, target=is_attack)
    checks.done()
    read = {"window": window, "limits": (limits["daily_limit"], limits["total_limit"])}
    if is_attack:
        read["target_limit"] = limits[TARGET_LIMIT_KEY]
    return read


def two_phases_arguments(
    raw,
    start: dt.datetime,
    entry: RoundEntry,
    *,
    labels: dict,
    release: str,
    attack: str,
    former: dict | None = None,
) -> dict:
    """The phases ``two_phases_read`` reads (``release`` and ``attack``: their kinds) as the
    keyword argument of a two-sided kind's round creation service, as its console form
    gives it: ``windows``, a ``TwoSidedWindows``."""
    phases = two_phases_read(raw, start, entry, labels=labels, attack=attack, former=former)
    windows = TwoSidedWindows(
        release=phases[release]["window"],
        attack=phases[attack]["window"],
        release_limits=phases[release]["limits"],
        attack_limits=phases[attack]["limits"],
        attack_target_limit=phases[attack]["target_limit"],
    )
    # The phases' order, checked here with the windows (the service checks it again), so
    # that it is reported with the settings' other errors.
    service_checked(
        lambda windows: two_sided_windows_check(windows=windows),
        windows,
        {"attack_opens_at": f"phases.{attack}.opens_at"},
    )
    return {"windows": windows}
