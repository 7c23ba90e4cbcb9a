"""A two-sided round (a release phase, then an attack phase on the frozen releases), for the
kinds that play one (synthetic data, the organizer's own program): the phases' names and
their settings, the checks of an upload's window (on the core's ``window_check``), the
team's final release and the publication (the freeze and opening the attack phase now:
``two_sided_freeze``).

The kind keeps its own row of the round (``state``: ``round``, ``frozen_at``,
``results_published``), with its releases as ``state.releases`` and its targets as
``state.targets``; what differs between the kinds (the final releases, a target's own job)
is passed in by the kind's services, which keep their names and signatures."""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.accounts.models import Team
from pwscup.competitions.models import AuditEntry, Round
from pwscup.competitions.selectors import phase_of
from pwscup.competitions.services import (
    phase_set,
    round_audit_record,
    round_phases_close,
)
from pwscup.competitions.windows import same_minute
from pwscup.core.errors import Refused
from pwscup.core.row_locks import team_row_lock
from pwscup.kinds.phases_edit import PhasesEdit
from pwscup.kinds.registry import kind_of
from pwscup.submissions import broker
from pwscup.submissions.models import Status
from pwscup.submissions.services.publication import results_shown
from pwscup.submissions.services.uploads import UploadWindow, upload_keep
from pwscup.submissions.services.windows import phase_window_check

Action = AuditEntry.Action
# A two-sided round's phases by their keys (``Phase.kind``) and their names, which its pages,
# schedule, bundle and refusals say: the kinds declare them (``RoundKind.phase_labels``).
RELEASE = "release"
ATTACK = "attack"
TWO_SIDED_PHASE_LABELS = {
    RELEASE: gettext_lazy("Release phase"),
    ATTACK: gettext_lazy("Attack phase"),
}
TWO_SIDED_PHASE_MISSING = {
    RELEASE: gettext_lazy("This round has no release phase."),
    ATTACK: gettext_lazy("This round has no attack phase."),
}
# The release phase's key in a bundle exported before a phase had its game's own key.
FORMER_PHASE_KEYS = {"anonymization": RELEASE}


def two_sided_phase_check(*, round: Round, kind: str, now: dt.datetime) -> None:
    """Refuse (403) an upload to a two-sided round's phase ``kind`` at ``now`` unless it is
    open (until its real close: the freeze ends the release phase): ``phase_window_check``
    under the game's name of the phase; a round without that phase is refused too."""
    phase = phase_of(round=round, kind=kind)
    if phase is None:
        raise Refused(str(TWO_SIDED_PHASE_MISSING[kind]), status=403)
    phase_window_check(phase=phase, now=now)


@dataclass(frozen=True)
class TwoSidedWindows:
    """A new two-sided round's phases as every two-sided kind's creation service takes them
    (``windows``), from the console's form (``TwoSidedRoundForm.windows``), a bundle
    (``two_phases_arguments``) or a demo: the release phase ``release`` = (opens, closes)
    and the attack phase ``attack``, each with its (daily, total) upload limits, the
    attack phase's limit of the uploads on one target (``None``: no limit), and whether the
    releases are frozen automatically at the release phase's close."""

    release: tuple
    attack: tuple
    release_limits: tuple = (None, None)
    attack_limits: tuple = (None, None)
    attack_target_limit: int | None = None
    # The releases frozen at the release phase's close by the platform (``AutoFreezeRow``).
    auto_freeze: bool = False


def two_sided_demo_windows(
    now: dt.datetime,
    *,
    release_days: int = 7,
    attack_days: int = 7,
    release_daily: int | None = 10,
    attack_daily: int | None = 20,
) -> TwoSidedWindows:
    """A demo round's phases, open as soon as it is made: the release phase from an hour
    before ``now`` (to the minute) for ``release_days`` days, the attack phase the
    ``attack_days`` after it, each with a daily upload limit and no total. A week each by
    default: the round stays playable on the days after the load (``scripts/demo`` keeps the
    class's data), and *Open the attack phase now* brings the attack phase to the session."""
    now = now.replace(second=0, microsecond=0)
    release_closes = now + dt.timedelta(days=release_days)
    return TwoSidedWindows(
        release=(now - dt.timedelta(hours=1), release_closes),
        attack=(release_closes, release_closes + dt.timedelta(days=attack_days)),
        release_limits=(release_daily, None),
        attack_limits=(attack_daily, None),
    )


def two_sided_windows_errors(*, windows: TwoSidedWindows) -> dict[str, str]:
    """Every error of a new round's windows, keyed by the creation form's field: each phase
    closes after it opens (``<phase>_closes_at``), the attack phase opens once the release
    phase has closed (``attack_opens_at``). Empty: all pass."""
    errors = {}
    for phase, (opens_at, closes_at) in (("release", windows.release), ("attack", windows.attack)):
        if closes_at <= opens_at:
            errors[f"{phase}_closes_at"] = _("A phase must close after it opens.")
    if windows.attack[0] < windows.release[1]:
        errors["attack_opens_at"] = _("The attack phase opens once the release phase has closed.")
    return errors


def two_sided_windows_check(*, windows: TwoSidedWindows) -> None:
    """``two_sided_windows_errors`` raised as one ``ValidationError``, when there are any."""
    if errors := two_sided_windows_errors(windows=windows):
        raise ValidationError(errors)


def two_sided_phases_edit(state: Callable) -> PhasesEdit:
    """What a two-sided kind declares for the console's page *Dates and limits*
    (``RoundKind.phases_edit``; ``state(round)``: the kind's row of the round, with
    ``frozen_at`` and ``results_published``): the creation's order rule
    (``two_sided_windows_errors``), and no move of the release phase once the releases are
    frozen (the freeze ended it; reopening it would let a team change a published target),
    nor of any phase once the results are published (a published ranking never changes)."""

    def errors(*, round: Round, phases: dict) -> dict[str, str]:
        found = two_sided_windows_errors(
            windows=TwoSidedWindows(
                release=(phases[RELEASE].opens_at, phases[RELEASE].closes_at),
                attack=(phases[ATTACK].opens_at, phases[ATTACK].closes_at),
            )
        )
        row = state(round)
        fixed = {}
        if row is not None and row.results_published:
            fixed = dict.fromkeys(
                phases,
                _(
                    "The results are published: the phases stay closed and their dates cannot "
                    "change (hide the results first)."
                ),
            )
        elif row is not None and row.frozen_at is not None:
            fixed = {
                RELEASE: _(
                    "The releases are frozen: the release phase is over and its dates cannot "
                    "change (the attack phase's can)."
                )
            }
        for key, message in fixed.items():
            stored = phase_of(round=round, kind=key)
            for end in ("opens_at", "closes_at"):
                if not same_minute(getattr(stored, end), getattr(phases[key], end)):
                    found[f"{key}_{end}"] = message
        return found

    return PhasesEdit(errors=errors, target_limit_phases=(ATTACK,))


def two_sided_round_created(*, round: Round, windows: TwoSidedWindows, user=None, **detail) -> None:
    """What every new two-sided round ends with once the kind's own row is made: its two
    phases (``windows``), its automatic freeze (``windows.auto_freeze``, on the kind's row:
    ``RoundKind.auto_freeze``) and its creation in the audit log (``detail``: the kind's)."""
    for kind, (opens_at, closes_at), (daily, total) in (
        (RELEASE, windows.release, windows.release_limits),
        (ATTACK, windows.attack, windows.attack_limits),
    ):
        phase_set(
            round=round,
            kind=kind,
            opens_at=opens_at,
            closes_at=closes_at,
            daily_limit=daily,
            total_limit=total,
            target_limit=windows.attack_target_limit if kind == ATTACK else None,
        )
    if windows.auto_freeze:
        kind_of(round).auto_freeze.model.objects.filter(round=round).update(auto_freeze=True)
    round_audit_record(
        user=user, round=round, action=Action.ROUND_CREATED, name=round.name, **detail
    )


def two_sided_upload_window(*, round: Round, kind: str, uploads, target_uploads=None):
    """The ``UploadWindow`` of an upload to the phase ``kind``: the phase's limits on the
    team's ``uploads`` (and, per target, ``target_uploads``: the team's uploads on the same
    target); a round without that phase counts none (its check refuses the upload)."""
    phase = phase_of(round=round, kind=kind)
    if phase is None:
        return UploadWindow(round=round, uploads=uploads.none())
    return UploadWindow.limited_by(
        phase, round=round, uploads=uploads, target_uploads=target_uploads
    )


def two_sided_upload_keep(
    *,
    state,
    kind: str,
    model,
    uploads,
    task: str | None,
    target_uploads=None,
    check=None,
    **keep,
):
    """Keep a team's upload to the phase ``kind`` through the core's pipeline
    (``upload_keep``, with ``keep``: the team, the file, its name, ``now`` and the row's own
    fields, a ``target`` among them for an attack on one), counted in the phase's window on
    the team's ``uploads`` (``two_sided_upload_window``), and send its job ``task``
    (``None``: the kind decides, e.g. an upload refused as kept). ``check``: the kind's
    refusals under the team's lock; by default the phase's own (``two_sided_release_open``,
    ``two_sided_attack_open``)."""

    def phase_open() -> None:
        if kind == RELEASE:
            two_sided_release_open(state=state, now=keep["now"])
        else:
            target = keep.get("target")
            two_sided_attack_open(state=state, team=keep["team"], target=target, now=keep["now"])

    upload = upload_keep(
        model=model,
        window=two_sided_upload_window(
            round=state.round, kind=kind, uploads=uploads, target_uploads=target_uploads
        ),
        check=check or phase_open,
        **keep,
    )
    if task is not None:
        upload.dispatch = broker.job_send(task, upload.pk)
    return upload


def two_sided_release_open(*, state, now: dt.datetime) -> None:
    """Refuse (403) a release once the round is frozen or outside the release phase. Run
    under the team's row lock (``upload_keep``'s check): a freeze is seen before or after,
    never half."""
    state.refresh_from_db(fields=["frozen_at"])
    if state.frozen_at is not None:
        raise Refused(_("The releases are frozen: the release phase is over."), status=403)
    two_sided_phase_check(round=state.round, kind=RELEASE, now=now)


def two_sided_attack_open(*, state, team: Team, target, now: dt.datetime) -> None:
    """Refuse (403) an attack outside the attack phase, before the freeze, after the
    publication, or on the team's own release (``target``; ``None``: every target)."""
    two_sided_phase_check(round=state.round, kind=ATTACK, now=now)
    state.refresh_from_db(fields=["frozen_at", "results_published"])
    if state.frozen_at is None:
        raise Refused(_("The releases are not frozen yet: there is nothing to attack."), status=403)
    if state.results_published:
        raise Refused(_("The results are published: the attack phase is over."), status=403)
    if target is not None and target.team_id == team.pk:
        raise Refused(_("A team does not attack its own release."), status=403)


def two_sided_release_select(
    *, state, release, now: dt.datetime | None = None, check: Callable | None = None
) -> None:
    """Make a scored release the team's final one (the freeze publishes it); refused once
    the round is frozen or the release phase has closed, and by ``check(release)`` (the
    kind's own rule), which raises ``Refused``."""
    now = now or timezone.now()
    with transaction.atomic():
        team_row_lock(Team.objects.filter(pk=release.team_id))
        state.refresh_from_db(fields=["frozen_at"])
        if state.frozen_at is not None:
            raise Refused(
                _("The releases are frozen: the final release cannot change."), status=403
            )
        two_sided_phase_check(round=state.round, kind=RELEASE, now=now)
        if release.status != Status.FINISHED:
            raise Refused(_("Only a scored release can be your final one."))
        if getattr(release, "voided_at", None) is not None:
            raise Refused(_("A voided release cannot be your final one."), status=409)
        if check is not None:
            check(release)
        state.releases.filter(team_id=release.team_id).update(selected=False)
        type(release).objects.filter(pk=release.pk).update(selected=True)
        release.selected = True


def two_sided_locked(state):
    """The kind's row of the round, locked until the transaction ends (what changes the
    round's teams, its freeze or its publication takes it, so two of them never
    interleave)."""
    return type(state).objects.select_for_update().select_related("round").get(pk=state.pk)


def two_sided_results_publish(*, state, user=None) -> None:
    """Close every open phase (a published ranking never changes), show the results to
    everyone and tell the participants. Refused (409) before the freeze: the results are
    computed on the frozen releases, so there is nothing to publish yet."""
    state.refresh_from_db(fields=["frozen_at"])
    if state.frozen_at is None:
        raise Refused(_("Freeze the releases first: there is nothing to publish yet."), status=409)
    round_phases_close(round=state.round)
    results_shown(state=state, published=True, user=user)


def two_sided_results_hide(*, state, user=None) -> None:
    """The results become organizer-only again."""
    results_shown(state=state, published=False, user=user)
