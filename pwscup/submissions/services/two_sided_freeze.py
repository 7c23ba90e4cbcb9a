"""The freeze of a two-sided round (``pwscup.submissions.services.two_sided``): each team's
final release published as a target, the release phase ended, and the organizer's way from
the release phase to the attack phase ahead of the schedule. A first freeze before the release
phase opens ends a window no team could use: it is done only when the organizer says so
(``early``, the core's ``window_end_check``)."""

import datetime as dt
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.models import AuditEntry, Phase
from pwscup.competitions.selectors import phase_of
from pwscup.competitions.services import round_audit_record, round_phase_open_now
from pwscup.core.errors import Refused
from pwscup.notifications.services import notify_round_frozen
from pwscup.submissions import broker
from pwscup.submissions.services.two_sided import ATTACK, RELEASE, two_sided_locked
from pwscup.submissions.services.windows import phase_window_end, window_end_check

Action = AuditEntry.Action


def two_sided_release_end(state):
    """The window a freeze of the round ends (``WindowEnd``): its release phase, until the
    first freeze (``None`` then: a freeze again ends nothing)."""
    if state is None or state.frozen_at is not None:
        return None
    return phase_window_end(phase_of(round=state.round, kind=RELEASE))


def release_end_check(state, *, now: dt.datetime, early: bool) -> dict:
    """``window_end_check`` on the release phase a first freeze ends (``state``: the kind's
    row, locked): the audit line's addition."""
    window = two_sided_release_end(state)
    return window_end_check(window=window, time_zone=state.round.timezone, now=now, early=early)


def two_sided_freeze(
    *,
    state,
    final_release: Callable,
    user=None,
    now: dt.datetime | None = None,
    target_defaults: dict | None = None,
    target_task: str | None = None,
    early: bool = False,
) -> list:
    """Publish the final release of every team of the competition (``final_release(state,
    team)``, the kind's rule; ``None``: the team has none), by team name, as a target, with
    ``target_defaults`` (the target's own fields) and its job ``target_task`` sent once
    committed, when the kind has one; releases are refused from ``now``. Freezing again
    republishes only the targets whose final release changed. The teams are told of the
    first freeze (even one publishing nothing: the attack phase has begun) and of a freeze
    again only when it republished a target (*Open the attack phase now* after *Freeze*
    tells them nothing new). A first freeze before the release phase opens is refused
    unless ``early`` (``window_end_check``). Returns the targets (re)published."""
    now = now or timezone.now()
    changed = []
    with transaction.atomic():
        state = two_sided_locked(state)
        first = state.frozen_at is None
        opening = release_end_check(state, now=now, early=early)
        teams = Team.objects.filter(competition_id=state.round.competition_id).order_by("name")
        for team in teams:
            release = final_release(state, team)
            if release is None:
                continue
            target = state.targets.filter(team=team).first()
            if target is not None and target.release_id == release.pk:
                continue
            target, _created = state.targets.update_or_create(
                team=team, defaults={"release": release, **(target_defaults or {})}
            )
            changed.append(target)
        type(state).objects.filter(pk=state.pk).update(frozen_at=now)
        round_audit_record(
            user=user,
            round=state.round,
            action=Action.ROUND_FROZEN,
            targets=len(changed),
            **opening,
        )
        if target_task is not None:
            transaction.on_commit(lambda: [broker.job_send(target_task, t.pk) for t in changed])
    if first or changed:
        notify_round_frozen(round=state.round, frozen_at=now)
    return changed


def two_sided_attack_phase_open_now(
    *, state, freeze: Callable, user=None, now: dt.datetime | None = None, early: bool = False
) -> tuple[list, Phase]:
    """From the release phase to the attack phase ahead of the schedule: the release phase
    closes now, the releases are frozen (``freeze(state, now)``, the kind's freeze) and the
    attack phase opens now (``round_phase_open_now``, the core's rule). Refused (409) once
    the results are published: a published ranking never changes, and (409) before the
    release phase opens unless ``early`` (``window_end_check``: it ends that phase). Returns
    the targets (re)published and the phase."""
    now = now or timezone.now()
    with transaction.atomic():
        state = two_sided_locked(state)
        if state.results_published:
            raise Refused(
                _("The results are published: the attack phase cannot open again."), status=409
            )
        opening = release_end_check(state, now=now, early=early)
        attack = round_phase_open_now(round=state.round, kind=ATTACK, now=now)
        round_audit_record(
            user=user,
            round=state.round,
            action=Action.ROUND_EDITED,
            attack_phase_opens=attack.opens_at.isoformat(),
            attack_phase_closes=attack.closes_at.isoformat(),
            **opening,
        )
        targets = freeze(state, now)
    return targets, attack
