"""A team's estimates: uploaded, built from a release or an answer, or declared (spec §7.4,
§8.2). Uploads enter through the core's upload pipeline (``upload_keep``) and are checked
by a worker (``dp_estimate_check``); every estimate ends FINISHED ("valid" on the pages), or FAILED with the spec's
message."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.core.row_locks import team_row_lock
from pwscup.dp import engine, estimation
from pwscup.dp.ledger import fraction_text
from pwscup.dp.models import Charge, DPRound, Estimate, Ledger
from pwscup.dp.services.common import CHECK_DP_ESTIMATE, DPRequestError, level_open
from pwscup.submissions.broker import job_send
from pwscup.submissions.services.jobs import job_execute
from pwscup.submissions.services.uploads import (
    UploadWindow,
    next_upload_number,
    upload_keep,
)
from pwscup.submissions.voids import counted
from scoring.dp.errors import DPError

# --- estimates -----------------------------------------------------------------------------


def _method_label(ledger: Ledger | None, *, estimator: str = "") -> str:
    """Spec §7.4's method label from what the ledger holds (``scoring.dp.method_label``)."""
    kinds = list(ledger.charges.values_list("kind", flat=True)) if ledger is not None else []
    return engine.method_label(
        queries=kinds.count(Charge.Kind.QUERY),
        releases=kinds.count(Charge.Kind.RELEASE),
        estimator=estimator or None,
    )


def _uploads_window(dp_round: DPRound, team, level: str) -> UploadWindow:
    """A level's estimates of the team: what an uploaded estimate is numbered after and
    counted against (the round's daily and total limits, per level)."""
    return UploadWindow.limited_by(
        dp_round,
        uploads=Estimate.objects.filter(dp_round=dp_round, team=team, level=level),
        total_message=_("Your team has used all %(limit)s estimates of level %(level)s.")
        % {"level": level, "limit": "%(limit)s"},
    )


def _estimate_upload_keep(
    *, dp_round: DPRound, team, user, level: str, uploaded_file, now, stored_name, **fields
) -> Estimate:
    """Keep an uploaded file as an estimate (QUEUED) through the core's upload pipeline, and
    send its check to a worker (``dp_estimate_check``)."""
    now = now or timezone.now()
    estimate = upload_keep(
        model=Estimate,
        window=_uploads_window(dp_round, team, level),
        team=team,
        uploaded_file=uploaded_file,
        stored_name=stored_name,
        now=now,
        check=lambda: level_open(dp_round, level, now),
        dp_round=dp_round,
        level=level,
        user=user,
        **fields,
    )
    job_send(CHECK_DP_ESTIMATE, estimate.pk)
    return estimate


def dp_estimate_upload(
    *, dp_round: DPRound, team, user, level: str, uploaded_file, now=None
) -> Estimate:
    """Keep an uploaded estimate.csv (spec §7.4) as uploaded; a worker checks it: FINISHED ("valid"), or
    FAILED with the spec's message. The last valid one counts. No score is computed before
    the close."""
    return _estimate_upload_keep(
        dp_round=dp_round,
        team=team,
        user=user,
        level=level,
        uploaded_file=uploaded_file,
        now=now,
        stored_name="estimate.csv",
        source=Estimate.Source.UPLOAD,
    )


# Above this many cells over the workload, BR and BI run on the worker: their cost grows with
# the cells (docs/scoring.md, scoring.dp), and a large workload's would hold a web worker for
# the whole request; below it (the demo rounds' workloads) they run in the request, so the
# team sees its estimate at once.
ESTIMATE_INLINE_CELLS = 20_000


def dp_estimate_from_release(
    *, dp_round: DPRound, team, user, level: str, charge_no: int, estimator: str, now=None
) -> Estimate:
    """The platform's BT, BR or BI estimate of every target from one of the team's
    releases (free post-processing, spec §7.3). Large workloads' BR/BI are QUEUED and built
    by the worker (``dp_estimate_check``)."""
    level_open(dp_round, level, now)
    charge = _own_charge(dp_round, team, level, charge_no, Charge.Kind.RELEASE)
    if estimator not in ("BT", "BR", "BI"):
        raise DPRequestError(DPError("dp.estimator.unknown", estimator=str(estimator)[:40]))
    estimate = Estimate(
        dp_round=dp_round,
        team=team,
        uploaded_by=user,
        level=level,
        source=Estimate.Source.RELEASE,
        estimator=estimator,
        declaration={"from_release": charge_no, "estimator": estimator},
        method=_method_label(charge.ledger, estimator=estimator),
        status=Estimate.Status.QUEUED,
    )
    if estimator != "BT" and engine.workload_cells(dp_round.config) > ESTIMATE_INLINE_CELLS:
        _numbered_save(estimate)
        job_send(CHECK_DP_ESTIMATE, estimate.pk)
        return estimate
    try:
        estimate.counts = _release_estimate_counts(dp_round, charge, estimator)
    except engine.DPInputError as error:
        raise DPRequestError(error) from None
    estimate.status = Estimate.Status.FINISHED
    _numbered_save(estimate)
    return estimate


def _numbered_save(estimate: Estimate) -> Estimate:
    """Save an estimate the platform builds, numbered with the team's uploads of its level
    (the one counter: ``uploads.next_upload_number``), under the team's row lock."""
    with transaction.atomic():
        team_row_lock(Team.objects.filter(pk=estimate.team_id))
        estimate.number = next_upload_number(
            _uploads_window(estimate.dp_round, estimate.team, estimate.level).uploads
        )
        estimate.save()
    return estimate


def _release_estimate_counts(dp_round, charge, estimator) -> dict:
    return estimation.estimate_from_release(
        engine.stored_bytes(charge.release_file),
        dp_round.config,
        estimator,
        groups=charge.request["groups"],
    )


def dp_estimate_check(*, estimate_id: int, task_id: str = "", worker: str = "") -> None:
    """The estimate's job (the core's state machine, ``jobs.py``: a job delivered twice does
    no harm, a run taken over after its worker died writes nothing): check an uploaded
    estimate or declared table, or build the platform's estimate from a release. FINISHED
    ("valid" in the pages) with its counts, or FAILED with the reason in the reader's
    language."""
    job_execute(
        model=Estimate, pk=estimate_id, compute=_estimate_values, task_id=task_id, worker=worker
    )


def _estimate_values(estimate: Estimate) -> dict:
    """What the check of ``estimate`` writes on it (raises the spec's error if invalid)."""
    dp_round = estimate.dp_round
    if estimate.source == Estimate.Source.RELEASE:
        number = estimate.declaration["from_release"]
        charge = _own_charge(dp_round, estimate.team, estimate.level, number, Charge.Kind.RELEASE)
        return {"counts": _release_estimate_counts(dp_round, charge, estimate.estimator)}
    content = engine.stored_bytes(estimate.file)
    if estimate.source == Estimate.Source.UPLOAD:
        if engine.declared_only(dp_round.config):
            raise DPError("dp.estimate.upload_mode")
        ledger = Ledger.objects.filter(
            dp_round=dp_round, team=estimate.team, level=estimate.level
        ).first()
        return {
            "counts": estimation.estimate_read(
                content, dp_round.config, name=estimate.original_filename
            ),
            "method": _method_label(ledger, estimator="own"),
        }
    return _declared_values(estimate, content)


def dp_estimates_build_queued(*, dp_round: DPRound | None = None) -> int:
    """Check or build the QUEUED estimates (of one round, or of every round) here: what the
    close does first, so that every estimate accepted before the close counts."""
    queued = Estimate.objects.filter(status=Estimate.Status.QUEUED)
    if dp_round is not None:
        queued = queued.filter(dp_round=dp_round)
    pks = list(queued.values_list("pk", flat=True))
    for pk in pks:
        dp_estimate_check(estimate_id=pk)
    return len(pks)


def dp_estimate_from_answer(
    *, dp_round: DPRound, team, user, level: str, charge_no: int, now=None
) -> Estimate:
    """Use a histogram answer whose attributes equal a target's as that target's estimate
    (spec §7.4); the other targets keep the team's last valid estimate, or N/V_S."""
    level_open(dp_round, level, now)
    charge = _own_charge(dp_round, team, level, charge_no, Charge.Kind.QUERY)
    target = engine.target_of_answer(dp_round.config, charge.reply)
    if target is None:
        raise DPRequestError(
            _("Answer %(n)s is not a histogram on a target's attributes") % {"n": charge_no}
        )
    previous = _current_estimate(dp_round, team, level)
    counts = engine.prior_counts(dp_round.config, rows=dp_round.round.original_rows)
    if previous is not None:
        counts.update(previous.counts)
    counts[target] = list(charge.reply["answer"])
    return _numbered_save(
        Estimate(
            dp_round=dp_round,
            team=team,
            uploaded_by=user,
            level=level,
            source=Estimate.Source.ANSWER,
            declaration={"from_answer": charge_no},
            counts=counts,
            method=_method_label(charge.ledger),
            status=Estimate.Status.FINISHED,
        )
    )


def _own_charge(dp_round, team, level, charge_no, kind) -> Charge:
    charge = (
        Charge.objects.select_related("ledger")
        .filter(
            ledger__dp_round=dp_round,
            ledger__team=team,
            ledger__level=level,
            number=charge_no,
            kind=kind,
        )
        .first()
    )
    if charge is None:
        raise DPRequestError(
            _("Level '%(level)s' has no %(kind)s number %(n)s in your ledger")
            % {"level": level, "kind": Charge.Kind(kind).label.lower(), "n": charge_no},
            status=404,
        )
    return charge


def _current_estimate(dp_round, team, level) -> Estimate | None:
    estimates = Estimate.objects.filter(
        dp_round=dp_round, team=team, level=level, status=Estimate.Status.FINISHED
    )
    return counted(estimates).order_by("-created_at", "-id").first()


# --- declared-upload mode (spec §8.2) --------------------------------------------------------


def dp_declared_upload(
    *,
    dp_round: DPRound,
    team,
    user,
    level: str,
    uploaded_file,
    declaration_raw,
    now=None,
) -> Estimate:
    """A team's own randomized table (or noisy counts) with its declared ε, kept as uploaded
    (QUEUED); a worker checks it, estimates the counts and tests their plausibility
    (flagged, never rejected). Ranked apart as "declared, unverified"."""
    if not engine.declared_enabled(dp_round.config):
        raise DPRequestError(_("This round takes no declared uploads"))
    return _estimate_upload_keep(
        dp_round=dp_round,
        team=team,
        user=user,
        level=level,
        uploaded_file=uploaded_file,
        now=now,
        stored_name="release.csv",
        source=Estimate.Source.DECLARED_TABLE,
        declared=True,
        # The declaration as sent (JSON text, or an object from the API), checked by the job.
        declaration={"raw": declaration_raw if isinstance(declaration_raw, str | dict) else ""},
    )


def _declared_values(estimate: Estimate, content: bytes) -> dict:
    """The check of a declared upload: its counts, method and plausibility (and its scores
    in a round with live feedback: allowed only in upload-only rounds, spec §7.6)."""
    dp_round = estimate.dp_round
    declared = estimation.declared_check(
        content,
        estimate.declaration.get("raw", ""),
        dp_round.config,
        budget=engine.level_budget(dp_round.config, estimate.level),
        rows=dp_round.round.original_rows,
        name=estimate.original_filename,
    )
    plausibility = estimation.declared_plausibility(dp_round.round, declared)
    values = {
        **estimation.declared_estimate(declared),
        "declared_epsilon": fraction_text(declared.epsilon),
        "plausibility": plausibility,
        "flagged": bool(plausibility.get("flagged")),
    }
    if engine.live_feedback(dp_round.config):
        values["scores"] = estimation.estimate_scores(
            values["counts"], engine.round_truths(dp_round.round), dp_round.config
        )
    return values
