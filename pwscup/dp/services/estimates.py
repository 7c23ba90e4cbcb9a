"""A team's estimates: uploaded, built from a release or an answer, or declared (spec §7.4,
§8.2); VALID, QUEUED (built by the worker) or FAILED with the spec's message."""

from django.core.files.base import ContentFile
from django.utils.translation import gettext as _

from pwscup.dp import engine
from pwscup.dp.ledger import (
    fraction_text,
)
from pwscup.dp.models import Charge, DPRound, Estimate, Ledger
from pwscup.dp.services.common import BUILD_DP_ESTIMATE, DPRequestError, level_open
from pwscup.submissions.broker import job_send
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


def _estimate_kept(estimate: Estimate, content: bytes, *, default_name: str) -> Estimate:
    """Save ``estimate`` with the uploaded file kept as uploaded."""
    name = estimate.original_filename or default_name
    estimate.file.save(name, ContentFile(content), save=False)
    estimate.save()
    return estimate


def _estimate_failed(owner: dict, *, source, content, filename, message) -> Estimate:
    """A FAILED estimate of ``owner`` (dp_round, team, user, level) with the message, its
    upload kept as uploaded."""
    code, params = getattr(message, "code", ""), getattr(message, "params", {})
    estimate = Estimate(
        **owner,
        source=source,
        original_filename=filename,
        status=Estimate.Status.FAILED,
        message=str(message),
        message_code=code if isinstance(code, str) else "",
        message_params=params if isinstance(params, dict) else {},
    )
    return _estimate_kept(estimate, content, default_name="estimate.csv")


def dp_estimate_upload(
    *, dp_round: DPRound, team, user, level: str, content: bytes, filename: str, now=None
) -> Estimate:
    """Keep an uploaded estimate.csv (spec §7.4) as uploaded; VALID or FAILED with the
    spec's message. The last valid one counts. No score is computed before the close."""
    level_open(dp_round, level, now)
    owner = {"dp_round": dp_round, "team": team, "user": user, "level": level}
    upload = {"source": Estimate.Source.UPLOAD, "content": content, "filename": filename}
    if engine.declared_only(dp_round.config):
        return _estimate_failed(owner, **upload, message=DPError("dp.estimate.upload_mode"))
    try:
        counts = engine.estimate_read(content, dp_round.config)
    except engine.DPInputError as error:
        return _estimate_failed(owner, **upload, message=error)
    ledger = Ledger.objects.filter(dp_round=dp_round, team=team, level=level).first()
    estimate = Estimate(
        **owner,
        source=Estimate.Source.UPLOAD,
        original_filename=filename,
        counts=counts,
        method=_method_label(ledger, estimator="own"),
        status=Estimate.Status.VALID,
    )
    return _estimate_kept(estimate, content, default_name="estimate.csv")


# Above this many cells over the workload, BR and BI run on the worker: BR of one
# 100,000-cell target takes about a minute (docs/scoring.md, scoring.dp); the Adult demo's six
# targets (60 cells) take 0.6 s in the request.
ESTIMATE_INLINE_CELLS = 20_000


def dp_estimate_from_release(
    *, dp_round: DPRound, team, user, level: str, charge_no: int, estimator: str, now=None
) -> Estimate:
    """The platform's BT, BR or BI estimate of every target from one of the team's
    releases (free post-processing, spec §7.3). Large workloads' BR/BI are QUEUED and built
    by the worker (``dp_estimate_build``)."""
    level_open(dp_round, level, now)
    charge = _own_charge(dp_round, team, level, charge_no, Charge.Kind.RELEASE)
    if estimator not in ("BT", "BR", "BI"):
        raise DPRequestError(DPError("dp.estimator.unknown", estimator=str(estimator)[:40]))
    estimate = Estimate(
        dp_round=dp_round,
        team=team,
        user=user,
        level=level,
        source=Estimate.Source.RELEASE,
        estimator=estimator,
        declaration={"from_release": charge_no, "estimator": estimator},
        method=_method_label(charge.ledger, estimator=estimator),
        status=Estimate.Status.QUEUED,
    )
    if estimator != "BT" and engine.workload_cells(dp_round.config) > ESTIMATE_INLINE_CELLS:
        estimate.save()
        job_send(BUILD_DP_ESTIMATE, estimate.pk)
        return estimate
    try:
        estimate.counts = _release_estimate_counts(dp_round, charge, estimator)
    except engine.DPInputError as error:
        raise DPRequestError(error) from None
    estimate.status = Estimate.Status.VALID
    estimate.save()
    return estimate


def _release_estimate_counts(dp_round, charge, estimator) -> dict:
    return engine.estimate_from_release(
        engine.stored_bytes(charge.release_file),
        dp_round.config,
        estimator,
        groups=charge.request["groups"],
    )


def dp_estimate_build(*, estimate_id: int) -> bool:
    """Build a QUEUED estimate (the worker's job): VALID with its counts, or FAILED with the
    reason. One conditional UPDATE from QUEUED, so a job delivered twice does no harm."""
    estimate = (
        Estimate.objects.select_related("dp_round__round")
        .filter(pk=estimate_id, status=Estimate.Status.QUEUED)
        .first()
    )
    if estimate is None:
        return False
    dp_round = estimate.dp_round
    number = estimate.declaration["from_release"]
    charge = _own_charge(dp_round, estimate.team, estimate.level, number, Charge.Kind.RELEASE)
    try:
        values = {
            "counts": _release_estimate_counts(dp_round, charge, estimate.estimator),
            "status": Estimate.Status.VALID,
        }
    except engine.DPInputError as error:
        values = {
            "status": Estimate.Status.FAILED,
            "message": str(error),
            "message_code": getattr(error, "code", ""),
            "message_params": getattr(error, "params", {}),
        }
    return bool(
        Estimate.objects.filter(pk=estimate_id, status=Estimate.Status.QUEUED).update(**values)
    )


def dp_estimates_build_queued(*, dp_round: DPRound | None = None, older_than=None) -> int:
    """Build the QUEUED estimates (of one round, or those queued before ``older_than``):
    what the close does first, and what the periodic tick resends after a lost job."""
    queued = Estimate.objects.filter(status=Estimate.Status.QUEUED)
    if dp_round is not None:
        queued = queued.filter(dp_round=dp_round)
    if older_than is not None:
        queued = queued.filter(created_at__lt=older_than)
    return sum(dp_estimate_build(estimate_id=pk) for pk in queued.values_list("pk", flat=True))


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
    return Estimate.objects.create(
        dp_round=dp_round,
        team=team,
        user=user,
        level=level,
        source=Estimate.Source.ANSWER,
        declaration={"from_answer": charge_no},
        counts=counts,
        method=_method_label(charge.ledger),
        status=Estimate.Status.VALID,
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
            % {"level": level, "kind": Charge.Kind(kind).label.lower(), "n": charge_no}
        )
    return charge


def _current_estimate(dp_round, team, level) -> Estimate | None:
    return (
        Estimate.objects.filter(
            dp_round=dp_round, team=team, level=level, status=Estimate.Status.VALID
        )
        .order_by("-created_at", "-id")
        .first()
    )


# --- declared-upload mode (spec §8.2) --------------------------------------------------------


def dp_declared_upload(
    *,
    dp_round: DPRound,
    team,
    user,
    level: str,
    content: bytes,
    filename: str,
    declaration_raw,
    now=None,
) -> Estimate:
    """A team's own randomized table (or noisy counts) with its declared ε: checked,
    estimated by the platform, tested for plausibility (flagged, never rejected), ranked
    apart as "declared, unverified"."""
    level_open(dp_round, level, now)
    if not engine.declared_enabled(dp_round.config):
        raise DPRequestError(_("This round takes no declared uploads"))
    owner = {"dp_round": dp_round, "team": team, "user": user, "level": level}
    try:
        declared = engine.declared_check(
            content,
            declaration_raw,
            dp_round.config,
            budget=engine.level_budget(dp_round.config, level),
            rows=dp_round.round.original_rows,
        )
        plausibility = engine.declared_plausibility(dp_round.round, declared)
    except engine.DPInputError as error:
        return _estimate_failed(
            owner,
            source=Estimate.Source.DECLARED_TABLE,
            content=content,
            filename=filename,
            message=error,
        )
    estimate = Estimate(
        **owner,
        source=declared.source,
        original_filename=filename,
        declaration=declared.declaration,
        counts=declared.counts,
        method=declared.method,
        estimator=declared.estimator,
        declared=True,
        declared_epsilon=fraction_text(declared.epsilon),
        plausibility=plausibility,
        flagged=bool(plausibility.get("flagged")),
        status=Estimate.Status.VALID,
    )
    if engine.live_feedback(dp_round.config):
        # Allowed only in upload-only rounds (the team holds the table; spec §7.6).
        estimate.scores = engine.estimate_scores(
            estimate.counts, engine.round_truths(dp_round.round), dp_round.config
        )
    return _estimate_kept(estimate, content, default_name="release.csv")
