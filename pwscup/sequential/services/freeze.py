"""Freezing a release step, by an organizer or on schedule: each team's newest valid release
of the step that still fits its frozen releases (a voided one never:
``pwscup.submissions.voids``) becomes final, its sequence is scored over the frozen prefix,
the participants are told, and after the last step of a round with an attack phase the
targets are published. Auto-freeze waits for releases still being checked."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from pwscup.accounts.models import Team
from pwscup.core.errors import Refused
from pwscup.core.stored import stored_bytes
from pwscup.kinds.tabs import DATA, RESULTS, SUBMIT, tab_url
from pwscup.notifications.models import Notification
from pwscup.notifications.services import notify_participants
from pwscup.sequential import engine, selectors
from pwscup.sequential.models import Release, SequenceScore, SequentialRound
from pwscup.sequential.services.attacks import targets_publish
from pwscup.sequential.services.common import audit
from pwscup.sequential.services.masters import master_frame
from pwscup.submissions.services.maintenance import uploads_in_flight
from pwscup.submissions.services.windows import window_freeze_check
from pwscup.submissions.voids import counted


@transaction.atomic
def step_freeze(
    *,
    sequential: SequentialRound,
    user=None,
    now=None,
    step: int | None = None,
    early: bool = False,
) -> int | None:
    """Freeze the next step: each team's latest valid release of it that still fits its
    frozen releases becomes final, and each sequence is scored over the frozen prefix. After
    the last step, with the attack phase, the targets are published. Returns the step frozen.

    "Still fits": in batch mode a team may replace release j−1 after uploading release j,
    so release j is checked again with the frozen prefix (its ``last`` column, for one);
    the newest that passes is frozen. In online mode the prefix never changes under it.

    With ``step``, freeze that step only if it is the next one, else return None (so the
    automatic freeze of a step happens once, however many ticks ask for it at once).

    A release that has not opened yet (``release_opens_at``) is refused (``Refused``, 409:
    the core's ``window_freeze_check``) unless ``early``: the organizer ends it explicitly
    before it opens.
    """
    sequential = SequentialRound.objects.select_for_update().get(pk=sequential.pk)
    if step is not None and step != sequential.frozen_steps + 1:
        return None  # ``step`` was frozen meanwhile (the automatic freeze, twice at once)
    step = sequential.frozen_steps + 1
    if step > sequential.n_releases:
        raise Refused(_("Every release of this round is frozen already."))
    window_freeze_check(
        label=selectors.release_label(step),
        opens_at=selectors.release_opens_at(sequential, step, now),
        time_zone=sequential.round.timezone,
        now=now or timezone.now(),
        early=early,
    )
    teams = Team.objects.filter(competition=sequential.round.competition).order_by("pk")
    scores = {}
    for team in teams:
        chosen, outcome = _release_to_freeze(sequential=sequential, team=team, step=step)
        if chosen is not None:
            Release.objects.filter(pk=chosen.pk).update(is_frozen=True)
        scores[team.pk] = outcome
    sequential.frozen_steps = step
    sequential.save(update_fields=["frozen_steps"])
    for team in teams:
        if selectors.team_master(sequential=sequential, team=team) is None:
            continue
        outcome = scores[team.pk]
        SequenceScore.objects.update_or_create(
            sequential=sequential,
            team=team,
            step=step,
            defaults={
                "complete": outcome is not None,
                "results": outcome.results if outcome else {},
                "per_person": outcome.per_person_csv if outcome else "",
            },
        )
    if sequential.attack_phase_begun:
        targets_publish(sequential=sequential)
    _notify_frozen(sequential=sequential, step=step)
    return step


def steps_auto_freeze(*, now=None) -> list[tuple[int, int]]:
    """Freeze every release step whose close has passed, in rounds that ask for it (the
    periodic task's work; ``(round id, step)`` of each freeze). Releases uploaded before the
    close and still being checked are waited for (the core's ``uploads_in_flight``), so the
    freeze sees them. Idempotent and safe when run twice at once (``step_freeze``)."""
    now = now or timezone.now()
    frozen = []
    due = SequentialRound.objects.filter(auto_freeze=True).exclude(step_closes=[])
    for sequential in due.select_related("round__competition").order_by("pk"):
        while not sequential.all_frozen:
            step = sequential.frozen_steps + 1
            closes_at = sequential.close_of(step)
            if closes_at is None or closes_at > now:
                break
            accepted = counted(
                Release.objects.filter(sequential=sequential, step=step, created_at__lt=closes_at)
            )
            if uploads_in_flight(accepted, closed_at=closes_at, now=now):
                break
            if step_freeze(sequential=sequential, now=now, step=step) is None:
                break
            sequential.refresh_from_db()
            audit(user=None, sequential=sequential, action="freeze", automatic=True)
            frozen.append((sequential.round_id, step))
    return frozen


def _release_to_freeze(*, sequential: SequentialRound, team: Team, step: int):
    """(release, its scores over the frozen prefix) or (None, None): the team's newest valid
    release of ``step`` that validates after its frozen releases 1 … step−1."""
    master = selectors.team_master(sequential=sequential, team=team)
    if master is None:
        return None, None
    prefix = selectors.team_sequence(sequential=sequential, team=team, upto=step - 1, frozen=True)
    if any(release is None for release in prefix):
        return None, None  # incomplete already
    frame = master_frame(master=master)
    frozen_bytes = [stored_bytes(release.file) for release in prefix]
    candidates = counted(
        Release.objects.filter(
            sequential=sequential, team=team, step=step, status=Release.Status.FINISHED
        )
    ).order_by("-created_at", "-id")
    for release in candidates:
        try:
            outcome = engine.sequence_check(
                frame, [*frozen_bytes, stored_bytes(release.file)], sequential.config, current=step
            )
        except scoring.ScoringError:
            continue  # checked against releases that were since replaced
        return release, outcome
    return None, None


def _notify_frozen(*, sequential: SequentialRound, step: int) -> None:
    """Every participant is told once that ``step`` is frozen: in online mode, before the
    last step, that the next release is open; else that their sequence is scored. After the
    last freeze of a round with an attack phase, they are also told the targets are out."""
    round_ = sequential.round
    next_open = selectors.is_online(sequential) and step < sequential.n_releases
    notify_participants(
        round=round_,
        kind=Notification.Kind.RELEASE_FROZEN if next_open else Notification.Kind.SEQUENCE_SCORED,
        event_suffix=f":step{step}",
        # The next release's data (and sample) on the Data tab, else the scores on Results.
        url=tab_url(round_, DATA if next_open else RESULTS),
        params={"step": step, "next": step + 1} if next_open else {"step": step},
    )
    if not sequential.attack_phase_begun:
        return
    notify_participants(
        round=round_,
        kind=Notification.Kind.ROUND_FROZEN,
        event_suffix=f":seq{step}",
        url=tab_url(round_, SUBMIT) + "#attack",
    )
