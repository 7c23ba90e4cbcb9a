"""What the 2015 game's console writes (round creation, settings, lifecycle); every action
leaves an entry in the audit log."""

from django.db import transaction
from django.utils import timezone

from pwscup.competitions.models import AuditEntry, Phase, Round
from pwscup.competitions.organizer_files import ORIGINAL_FIELDS, round_original_store
from pwscup.competitions.phase_close import close_open_phases
from pwscup.competitions.selectors import phase_of
from pwscup.competitions.services import audit_record, phase_set, round_core_apply
from pwscup.kinds.actions import WindowEnd
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015.models import RoundOperation
from pwscup.pwscup2015.ranking_cache import ranking_invalidate
from pwscup.pwscup2015.services import round_assign_samples
from pwscup.pwscup2015.services.operations import (
    round_freeze_request,
    round_publish_request,
    round_rescore_request,
    round_results_set,
)
from pwscup.pwscup2015.services.rounds import (
    CheckedRoundData,
    round_create,
    round_phases_check,
    round_settings_check,
)
from pwscup.submissions.services.windows import phase_window_end, window_end_check

Action = AuditEntry.Action


def round_phases_set(*, round: Round, phases: dict) -> None:
    """``phases``: kind → dict of ``phase_set``'s keyword arguments (windows, limits, …)."""
    for kind, values in phases.items():
        phase_set(round=round, kind=kind, **values)


def _audit(*, user, round: Round, action, **detail) -> None:
    """The audit log's entry of an action on ``round``."""
    audit_record(user=user, competition=round.competition, round=round, action=action, **detail)


@transaction.atomic
def console_round_create(
    *,
    user,
    basics: RoundBasics,
    original: bytes,
    original_filename: str,
    config: dict,
    data: dict,
    phases: dict,
    rules: dict,
    allow_attack_before_close: bool = False,
) -> Round:
    """Create a round with its ``basics`` and both phases from the wizard's answers (checked
    once more here)."""
    round_settings_check(
        slug=basics.slug,
        competition=basics.competition,
        timezone=basics.time_zone(),
        utility_gates=rules["utility_gates"],
        value_ranges=rules.get("value_ranges", {}),
        published_rows=rules.get("published_rows"),
        tie_break_metric=rules["tie_break_metric"],
        data_mode=data["data_mode"],
        sample_size=data.get("sample_size"),
        phases={kind: (v["opens_at"], v["closes_at"]) for kind, v in phases.items()},
        allow_attack_before_close=allow_attack_before_close,
    )
    round_ = round_create(
        basics=basics,
        original=original,
        original_filename=original_filename,
        config_raw=config,
        **data,
        **rules,
    )
    round_phases_set(round=round_, phases=phases)
    round_assign_samples(round=round_)
    _audit(
        user=user,
        round=round_,
        action=Action.ROUND_CREATED,
        name=round_.name,
        rows=round_.original_rows,
    )
    return round_


@transaction.atomic
def console_round_update(
    *,
    user,
    round: Round,
    values: dict,
    phases: dict,
    config: dict | None = None,
    core: dict | None = None,
    original: tuple[CheckedRoundData, str] | None = None,
    allow_attack_before_close: bool = False,
) -> list[str]:
    """Apply an edit of a round (settings, phases, and the configuration when given).

    The round's phases as they will be (the stored ones with ``phases`` applied) are checked
    first (``round_phases_check``): the attack phase opens once the anonymization phase has
    closed, unless ``allow_attack_before_close`` (the console's and the admin's box).

    Returns the changed field names, recorded in the audit log in one line. ``config`` is
    the checked configuration (``round_data_check``): the caller offers "Rescore everything"
    then. The admin's page saves with it what every round has (``core``: the fields of
    ``round_core_apply``, which checks them) and a new original table (``original``:
    ``round_data_check``'s answer for it and the upload's name), recorded as
    ``original_file``.
    """
    _phases_after_check(
        round=round, phases=phases, allow_attack_before_close=allow_attack_before_close
    )
    game = round.pwscup2015
    changed = round_core_apply(round=round, **core) if core else []
    if original is not None:
        checked, filename = original
        round_original_store(round=round, csv=checked.csv, filename=filename)
        round.original_rows = checked.rows
        round.save(update_fields=[*ORIGINAL_FIELDS, "original_rows"])
        changed.append("original_file")
    for instance in (round, game):
        names = {field.name for field in instance._meta.concrete_fields}
        fields = [f for f, v in values.items() if f in names and getattr(instance, f) != v]
        for field in fields:
            setattr(instance, field, values[field])
        if instance is round and config is not None and config != round.config:
            round.config = config
            fields.append("config")
        if fields:
            instance.save(update_fields=fields)
        changed += fields
    for kind, wanted in phases.items():
        phase = round.phases.filter(kind=kind).first()
        if phase is None or any(getattr(phase, k) != v for k, v in wanted.items()):
            changed.append(f"{kind}_phase")
    round_phases_set(round=round, phases=phases)
    if changed:
        _audit(user=user, round=round, action=Action.ROUND_EDITED, fields=changed)
        ranking_invalidate(round_ids=[round.pk])
    return changed


def _phases_after_check(*, round: Round, phases: dict, allow_attack_before_close: bool) -> None:
    """``round_phases_check`` on the round's windows once ``phases`` are applied (none
    changed: nothing to check, as the edit leaves the phases as they are)."""
    if not phases:
        return
    windows = {phase.kind: (phase.opens_at, phase.closes_at) for phase in round.phases.all()}
    for kind, wanted in phases.items():
        opens_at, closes_at = windows.get(kind, (None, None))
        windows[kind] = (wanted.get("opens_at", opens_at), wanted.get("closes_at", closes_at))
    round_phases_check(
        phases=windows,
        allow_attack_before_close=allow_attack_before_close,
        time_zone=round.timezone,
    )


def _operation_request(*, user, round: Round, request, action, **detail) -> RoundOperation:
    """Ask for a background operation (``request(round=…, requested_by=…)``) and record it
    under ``action`` (with ``detail``); its progress shows on the control page."""
    operation = request(round=round, requested_by=user)
    _audit(user=user, round=round, action=action, operation=operation.pk, **detail)
    return operation


def freeze_window_end(*, round: Round) -> WindowEnd | None:
    """The window a freeze ends (``RoundAction.ends``): the anonymization phase, until the
    round is frozen (a freeze again ends nothing)."""
    if round.pwscup2015.frozen_at is not None:
        return None
    return phase_window_end(phase_of(round=round, kind=Phase.Kind.ANONYMIZATION))


def freeze_opening_check(*, round: Round, early: bool = False) -> dict:
    """``window_end_check`` on what a freeze of ``round`` ends now: refused (409) before the
    anonymization phase opens unless ``early``; the audit line's addition otherwise. The one
    check of the console's freeze and of ``manage.py freeze_round``."""
    return window_end_check(
        window=freeze_window_end(round=round),
        time_zone=round.timezone,
        now=timezone.now(),
        early=early,
    )


def console_round_freeze(*, user, round: Round, early: bool = False) -> RoundOperation:
    """Ask for a freeze (a background operation); its progress shows on the control page.
    Before the anonymization phase opens it would end that phase before any upload: refused
    (409) unless ``early`` (the confirmation's box; ``window_end_check``)."""
    opening = freeze_opening_check(round=round, early=early)
    return _operation_request(
        user=user,
        round=round,
        request=round_freeze_request,
        action=Action.ROUND_FROZEN,
        **opening,
    )


def console_round_rescore(*, user, round: Round) -> RoundOperation:
    return _operation_request(
        user=user, round=round, request=round_rescore_request, action=Action.ROUND_RESCORED
    )


def console_round_publish(*, user, round: Round) -> RoundOperation:
    return _operation_request(
        user=user, round=round, request=round_publish_request, action=Action.RESULTS_PUBLISHED
    )


@transaction.atomic
def console_round_phases_close(*, user, round: Round) -> str:
    """*Close the open phases now*: the phase open now closes, one not open yet keeps its
    dates, as on every kind that closes only the phase open now (``close_open_phases``, which
    records it in the audit log and says what it did)."""
    said = close_open_phases(user=user, round=round)
    ranking_invalidate(round_ids=[round.pk])
    return said


@transaction.atomic
def console_round_hide_results(*, user, round: Round) -> None:
    round_results_set(round=round, published=False)
    _audit(user=user, round=round, action=Action.RESULTS_HIDDEN)
    ranking_invalidate(round_ids=[round.pk])


def console_round_draw_samples(*, user, round: Round) -> int:
    created = round_assign_samples(round=round)
    _audit(user=user, round=round, action=Action.SAMPLES_DRAWN, samples=len(created))
    return len(created)


def archive_downloaded_record(*, user, round: Round) -> None:
    _audit(user=user, round=round, action=Action.ARCHIVE_DOWNLOADED)


# --- Teams -------------------------------------------------------------------------------
