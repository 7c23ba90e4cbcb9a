"""An organizer's edit of a round's phases (their dates and upload limits) on the console's
page *Dates and limits*, for a kind that declares it (``RoundKind.phases_edit``): the core
checks and saves, the kind says what its game refuses."""

from dataclasses import asdict, replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions.models import AuditEntry, Phase, Round
from pwscup.competitions.services import phase_set, ranking_version_bump, round_audit_record
from pwscup.competitions.windows import same_minute
from pwscup.core.errors import Refused
from pwscup.kinds import kind_of
from pwscup.kinds.phases_edit import PhaseValues

LIMITS = ("daily_limit", "total_limit", "target_limit")


def phases_edit_values(*, round: Round) -> dict[str, PhaseValues | None]:
    """Every phase the round's kind names (``PhasesEdit.phase_labels``), in its order, as
    stored (``None``: the round lacks it; the page then makes it); the kind's own reading
    for windows of its own row (``PhasesEdit.stored``)."""
    kind = kind_of(round)
    if kind.phases_edit.stored is not None:
        return kind.phases_edit.stored(round=round)
    stored = {phase.kind: phase for phase in Phase.objects.filter(round=round)}
    values = {}
    for key in kind.phases_edit.phase_labels(kind):
        phase = stored.get(key)
        values[key] = phase and PhaseValues(
            opens_at=phase.opens_at,
            closes_at=phase.closes_at,
            **{name: getattr(phase, name) for name in LIMITS},
        )
    return values


def phases_edit_changes(*, stored: dict, phases: dict) -> list[str]:
    """The page's fields whose value ``phases`` changes (dates to the minute, as typed)."""
    changed = []
    for key, wanted in phases.items():
        before = stored.get(key)
        for name in ("opens_at", "closes_at", *LIMITS):
            old, new = getattr(before, name, None), getattr(wanted, name)
            same = same_minute(old, new) if name.endswith("_at") else old == new
            if before is None or not same:
                changed.append(f"{key}_{name}")
    return changed


def auto_freeze_setting(*, round: Round) -> bool | None:
    """Whether the round freezes automatically at its release phase's close (``None``: its
    kind has no such freeze, ``RoundKind.auto_freeze``)."""
    declared = kind_of(round).auto_freeze
    if declared is None:
        return None
    return declared.model.objects.filter(round=round, auto_freeze=True).exists()


def round_phases_edit(
    *, user, round: Round, phases: dict[str, PhaseValues], auto_freeze: bool | None = None
) -> list[str]:
    """Save an organizer's dates and limits of every phase of ``round`` (``phases``: the
    kind's keys to ``PhaseValues``) in one transaction, each through ``phase_set`` (an edit
    of dates is the phase's new plan), or the kind's ``PhasesEdit.save``. Refused (404) for
    a kind that declares no such edit; ``auto_freeze``, when given, is the round's automatic
    freeze at the release phase's close (``RoundKind.auto_freeze``). Raises
    ``ValidationError`` keyed by the page's fields with every error the kind's game finds
    (``PhasesEdit.errors``). Records the changed
    fields as the round's edit and bumps its ranking version (its pages show the phases).
    Returns the changed fields."""
    edit = kind_of(round).phases_edit
    if edit is None:
        raise Refused(_("This round's dates are edited on its own page."), status=404)
    with transaction.atomic():
        stored = phases_edit_values(round=round)
        if errors := edit.errors(round=round, phases=phases):
            raise ValidationError(errors)
        changed = phases_edit_changes(stored=stored, phases=phases)
        phases_changed = bool(changed)
        if auto_freeze is not None and auto_freeze != auto_freeze_setting(round=round):
            # A change of the setting clears a refusal said before: the next beat tries again.
            declared = kind_of(round).auto_freeze
            declared.model.objects.filter(round=round).update(
                auto_freeze=auto_freeze, auto_freeze_refusal=""
            )
            changed.append("auto_freeze")
        if not changed:
            return []
        ranking_version_bump(round_ids=[round.pk])
        if phases_changed and edit.save is not None:
            edit.save(round=round, phases=phases)
        elif phases_changed:
            phases_save(round=round, phases=phases, edit=edit)
        round_audit_record(
            user=user, round=round, action=AuditEntry.Action.ROUND_EDITED, fields=changed
        )
    return changed


def phases_save(*, round: Round, phases: dict[str, PhaseValues], edit) -> None:
    """Every phase through ``phase_set`` (an edit of dates is the phase's new plan), its
    leaderboard's visibility kept."""
    kept = {p.kind: p.leaderboard_public for p in Phase.objects.filter(round=round)}
    for key, values in phases.items():
        if key not in edit.target_limit_phases:
            values = replace(values, target_limit=None)
        phase_set(round=round, kind=key, leaderboard_public=kept.get(key, False), **asdict(values))
