"""The DP round itself: creation, its release window, and the close (scores, baselines and
the participants' notification)."""

import json

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.competitions.dates import dates_check
from pwscup.competitions.models import AuditEntry
from pwscup.competitions.organizer_files import round_original_save
from pwscup.competitions.services import round_audit_record, round_of_kind_create
from pwscup.competitions.windows import window_dates_edit, window_move
from pwscup.core.errors import scoring_validation_errors
from pwscup.core.files import organizer_csv
from pwscup.core.json_input import json_input
from pwscup.dp import engine, estimation
from pwscup.dp.models import DPRound, Estimate
from pwscup.dp.services.common import RELEASE_PHASE_LABEL, SCORE_DP_ROUND
from pwscup.dp.services.estimates import dp_estimates_build_queued
from pwscup.kinds.actions import WindowEnd
from pwscup.kinds.round_basics import RoundBasics
from pwscup.notifications.models import Notification
from pwscup.notifications.services import notify_participants
from pwscup.submissions.broker import job_send
from pwscup.submissions.services.maintenance import uploads_in_flight
from pwscup.submissions.services.windows import window_end_check

Action = AuditEntry.Action

# --- the round ----------------------------------------------------------------------------


@transaction.atomic
def dp_round_create(
    *,
    basics: RoundBasics,
    table: bytes,
    table_filename: str,
    config_raw,
    opens_at,
    closes_at,
    daily_limit: int | None = None,
    total_limit: int | None = None,
    user=None,
) -> DPRound:
    """Create a DP round with its ``basics`` (``round_of_kind_create``'s): the configuration
    checked (spec §12), the hidden table checked against it (kept as uploaded, never shown
    to teams), the release window set.

    ``config_raw`` is the configuration as a dict or as its JSON text (the admin and the
    console send the text). Raises ``ValidationError`` keyed by field (``config``, ``table``,
    ``slug``, ``timezone``, ``closes_at``) with the spec's messages.
    ``daily_limit``, ``total_limit``: the estimates a team may upload per level, per day and
    in all (``None``: no limit)."""
    if isinstance(config_raw, str | bytes):
        config_raw = json_input(config_raw, field="config")
    dates_check({"opens_at": opens_at, "closes_at": closes_at}, time_zone=basics.time_zone())
    if closes_at <= opens_at:
        raise ValidationError({"closes_at": _("The release phase must close after it opens.")})
    try:
        config = engine.config_validate(config_raw)
    except engine.DPInputError as error:
        raise scoring_validation_errors(error, field="config") from None
    filename = table_filename or "hidden.csv"
    try:
        csv = organizer_csv(table, name=filename)
        rows = engine.table_check(csv.utf8, config)
    except engine.DPInputError as error:  # scoring.ValidationError: the encoding's too
        raise scoring_validation_errors(error, field="table") from None
    round_ = round_of_kind_create(basics=basics, kind="dp", config=config, original_rows=rows)
    round_original_save(round=round_, csv=csv, filename=filename)
    dp_round = DPRound.objects.create(
        round=round_,
        config_text=json.dumps(config, ensure_ascii=False),
        opens_at=opens_at,
        closes_at=closes_at,
        daily_limit=daily_limit,
        total_limit=total_limit,
    )
    round_audit_record(
        user=user, round=round_, action=Action.ROUND_CREATED, name=round_.name, rows=rows
    )
    return dp_round


def dp_round_window_set(*, dp_round: DPRound, opens_at, closes_at) -> None:
    """An organizer sets the release window (the admin calls it): its dates are checked by
    the platform's one date rule (``dates_check``) and, when they change, are the round's
    new plan (``window_dates_edit``). A scored round that the new close opens again is
    scored again at that close (nothing of the old scores is shown meanwhile)."""
    dates_check({"opens_at": opens_at, "closes_at": closes_at}, time_zone=dp_round.round.timezone)
    if closes_at < opens_at:
        raise ValidationError({"closes_at": _("The release phase must close after it opens.")})
    window_dates_edit(window=dp_round, opens_at=opens_at, closes_at=closes_at)
    if dp_round.scored_at is not None and not dp_round.has_closed():
        # Open again: the scores, the baselines' table and a published truth were of the
        # old close (the truth would answer every estimate still to come); the periodic
        # tick scores the round again at its new close.
        DPRound.objects.filter(pk=dp_round.pk).update(scored_at=None)
        dp_round.scored_at = None


# --- the close: scores and baselines -------------------------------------------------------


def dp_round_score(*, dp_round: DPRound, now=None, force: bool = False) -> bool:
    """Score every team's final estimate per level, and compute the baselines, once the
    release phase has closed (spec §7.5, §9). Idempotent: done once unless ``force``.
    Returns whether it scored now."""
    if not dp_round.has_closed(now):
        return False
    dp_estimates_build_queued(dp_round=dp_round)  # estimates asked for before the close
    with transaction.atomic():
        locked = DPRound.objects.select_for_update().select_related("round").get(pk=dp_round.pk)
        if locked.scored_at is not None and not force:
            return False
        # An estimate a worker is still checking counts too (spec §7.5): not scored yet,
        # the periodic tick or the leaderboard's next view asks again.
        estimates = Estimate.objects.filter(dp_round=locked)
        if uploads_in_flight(estimates, closed_at=locked.closes_at, now=now):
            return False
        truths = engine.round_truths(locked.round)
        for estimate in Estimate.objects.filter(dp_round=locked, status=Estimate.Status.FINISHED):
            Estimate.objects.filter(pk=estimate.pk).update(
                scores=estimation.estimate_scores(estimate.counts, truths, locked.config)
            )
        baselines = estimation.round_baselines(locked.round)
        now = now or timezone.now()
        DPRound.objects.filter(pk=locked.pk).update(scored_at=now, baselines=baselines)
        dp_round.scored_at, dp_round.baselines = now, baselines
        _notify_scored(locked.round)
    return True


def _notify_scored(round_) -> None:
    """Every participant of the competition is told, once, that the scores are out."""
    notify_participants(
        round=round_,
        kind=Notification.Kind.RESULTS_PUBLISHED,
        url=reverse(
            "dp:leaderboard",
            kwargs={"competition_slug": round_.competition.slug, "round_slug": round_.slug},
        ),
    )


def dp_round_score_by_id(*, dp_round_id: int) -> bool:
    dp_round = DPRound.objects.select_related("round").filter(pk=dp_round_id).first()
    return dp_round is not None and dp_round_score(dp_round=dp_round)


def dp_rounds_score_closed(*, now=None) -> list[int]:
    """The periodic tick: score every DP round whose release phase has closed and is not
    scored yet (an estimate's lost job is the reaper's, as for every kind)."""
    now = now or timezone.now()
    done = []
    for dp_round in DPRound.objects.filter(closes_at__lte=now, scored_at__isnull=True):
        if dp_round_score(dp_round=dp_round, now=now):
            done.append(dp_round.pk)
    return done


def dp_round_results_ready(*, dp_round: DPRound, now=None) -> bool:
    """Whether the scores may be shown: the release phase has closed and the round is
    scored. A closed round not scored yet is sent to the worker (and is not ready)."""
    if not dp_round.has_closed(now):
        return False
    if dp_round.scored_at is None:
        dp_round_score_request(dp_round=dp_round)
        return False
    return True


def dp_round_score_request(*, dp_round: DPRound) -> None:
    """Ask the worker to score a closed round (sent after the transaction commits)."""
    if dp_round.scored_at is None and dp_round.has_closed():
        job_send(SCORE_DP_ROUND, dp_round.pk)


def dp_round_window_end(*, dp_round: DPRound, now=None) -> WindowEnd | None:
    """The window *Close now* ends (``RoundAction.ends``): the release phase, until it has
    closed (at ``now``)."""
    if dp_round.has_closed(now or timezone.now()):
        return None
    return WindowEnd(label=str(RELEASE_PHASE_LABEL), opens_at=dp_round.opens_at)


def dp_round_close_now(*, dp_round: DPRound, now=None, early: bool = False) -> dict:
    """Close the release phase now (queries, releases and estimates are refused from
    ``now``) and send the scoring to the worker: the scores appear once it has run. Before
    the phase opens, refused (409) unless ``early`` (``window_end_check``). Returns what the
    action's audit line adds (the opening it cut short)."""
    now = now or timezone.now()
    window = dp_round_window_end(dp_round=dp_round, now=now)
    if window is None:
        return {}
    opening = window_end_check(
        window=window, time_zone=dp_round.round.timezone, now=now, early=early
    )
    # An action, not an edit: the planned window stays what a bundle exports (``window_move``).
    window_move(window=dp_round, opens_at=min(dp_round.opens_at, now), closes_at=now)
    dp_round_score_request(dp_round=dp_round)
    return opening


def dp_round_rescore(*, dp_round: DPRound) -> bool:
    """Score a closed round again (the scores and baselines are replaced when the worker
    has run). Returns False for a round still open: nothing is scored before the close."""
    if not dp_round.has_closed():
        return False
    DPRound.objects.filter(pk=dp_round.pk).update(scored_at=None)
    dp_round.scored_at = None
    dp_round_score_request(dp_round=dp_round)
    return True
