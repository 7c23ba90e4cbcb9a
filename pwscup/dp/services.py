"""What the DP round writes: the round, charges (queries and releases), estimates, scores.

Every entry point (pages, API, console, admin, demo) calls these functions. The mathematics
is ``scoring.dp``, reached through ``pwscup.dp.engine``.
"""

import datetime as dt
import hashlib
import json

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from pwscup.competitions.models import Competition
from pwscup.competitions.services import round_of_kind_create
from pwscup.console.services import Action, audit_record
from pwscup.dp import engine
from pwscup.dp.ledger import (
    ChargeResult,
    LedgerRefusal,
    fraction_text,
    ledger_charge,
    ledger_get_or_create,
)
from pwscup.dp.models import Charge, DPRound, Estimate, Ledger
from scoring.dp.errors import DPError

__all__ = ["DPRequestError", "LedgerRefusal"]


class DPRequestError(Exception):
    """A request the round cannot take (HTTP 400): its message names what is wrong.

    ``error`` is the ``scoring.dp.DPError`` when there is one (rendered in the reader's
    language by the pages), else the message text."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


def dp_error_text(error) -> str:
    """A ``DPRequestError`` or ``LedgerRefusal`` (or a bare ``DPError``) as text in the
    reader's language: what the pages and the API both show."""
    inner = getattr(error, "error", error)
    if isinstance(inner, DPError):
        return inner.render(get_language())
    return str(inner)


# --- the round ----------------------------------------------------------------------------


def _dp_validation_error(field: str, error) -> ValidationError:
    text = error.render(get_language()) if hasattr(error, "render") else str(error)
    return ValidationError({field: text})


@transaction.atomic
def dp_round_create(
    *,
    competition: Competition,
    name: str,
    slug: str,
    table: bytes,
    table_filename: str,
    config_raw,
    opens_at,
    closes_at,
    timezone_name: str = "Asia/Tokyo",
    user=None,
) -> DPRound:
    """Create a DP round: the configuration checked (spec §12), the hidden table checked
    against it (kept as uploaded, never shown to teams), the release window set.

    ``config_raw`` is the configuration as a dict or as its JSON text (the admin and the
    console send the text). Raises ``ValidationError`` keyed by field (``config``, ``table``,
    ``slug``, ``timezone``, ``closes_at``) with the spec's messages."""
    if isinstance(config_raw, str):
        try:
            config_raw = json.loads(config_raw)
        except ValueError as error:
            raise ValidationError({"config": str(error)}) from None
    if closes_at <= opens_at:
        raise ValidationError({"closes_at": _("The release phase must close after it opens.")})
    try:
        config = engine.config_validate(config_raw)
    except engine.DPInputError as error:
        raise _dp_validation_error("config", error) from None
    try:
        rows = engine.table_check(table, config)
    except engine.DPInputError as error:
        raise _dp_validation_error("table", error) from None
    round_ = round_of_kind_create(
        competition=competition,
        kind="dp",
        name=name,
        slug=slug,
        config=config,
        timezone=timezone_name,
        original_file=ContentFile(table, name=table_filename or "hidden.csv"),
        original_sha256=hashlib.sha256(table).hexdigest(),
        original_rows=rows,
    )
    dp_round = DPRound.objects.create(
        round=round_,
        config_text=json.dumps(config, ensure_ascii=False),
        opens_at=opens_at,
        closes_at=closes_at,
    )
    if user is not None:
        audit_record(
            user=user,
            competition=competition,
            round=round_,
            action=Action.ROUND_CREATED,
            name=round_.name,
            rows=rows,
        )
    return dp_round


def dp_round_window_set(*, dp_round: DPRound, opens_at, closes_at) -> None:
    if closes_at <= opens_at:
        raise ValidationError({"closes_at": _("The release phase must close after it opens.")})
    DPRound.objects.filter(pk=dp_round.pk).update(opens_at=opens_at, closes_at=closes_at)
    dp_round.opens_at, dp_round.closes_at = opens_at, closes_at


# --- checks shared by queries, releases and estimates --------------------------------------


def _level_open(dp_round: DPRound, level: str, now=None) -> None:
    levels = dp_round.level_ids
    if level not in levels:
        raise DPRequestError(
            _("Level '%(level)s' does not exist; levels: %(levels)s")
            % {"level": level, "levels": ", ".join(levels)}
        )
    now = now or timezone.now()
    if now < dp_round.opens_at:
        raise DPRequestError(
            _("The release phase has not opened yet (opens %(when)s)")
            % {"when": _local(dp_round, dp_round.opens_at)}
        )
    if dp_round.has_closed(now):
        raise DPRequestError(
            _("The release phase is closed (ended %(when)s)")
            % {"when": _local(dp_round, dp_round.closes_at)}
        )


def _local(dp_round: DPRound, moment) -> str:
    import zoneinfo

    zone = zoneinfo.ZoneInfo(dp_round.round.timezone)
    local = moment.astimezone(zone)
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()}"


def _request_id(value) -> str:
    """``""`` (none given) or a valid request_id (≤ 100 printable characters)."""
    if value is None or value == "":
        return ""
    try:
        return engine.request_id_check(value)
    except engine.DPInputError as error:
        raise DPRequestError(error) from None


# --- interactive track ----------------------------------------------------------------------


def dp_query_answer(
    *, dp_round: DPRound, team, user, level: str, payload: dict, now=None
) -> ChargeResult:
    """Answer one histogram or count query (spec §7.2): checked, charged, noised, stored.

    Raises ``DPRequestError`` (bad request) or ``LedgerRefusal`` (budget: HTTP 409).
    """
    if not engine.interactive_enabled(dp_round.config):
        raise DPRequestError(_("This round has no interactive track"))
    if not isinstance(payload, dict):
        raise DPRequestError(_("The query must be a JSON object"))
    request_id = _request_id(payload.get("request_id"))
    _level_open(dp_round, level, now)
    ledger = ledger_get_or_create(dp_round=dp_round, team=team, level=level)
    # A replayed request_id is answered under the ledger's lock (ledger_charge), before the
    # budget is looked at: the stored answer, free.
    try:
        query = engine.query_check(dp_round.config, payload)
    except engine.DPInputError as error:
        raise DPRequestError(error) from None
    truth = engine.query_truth(dp_round.round, query)
    scale = query.scale

    def produce(number: int):
        reply = {
            "type": query.type,
            "attributes": list(query.attributes),
            "where": dict(query.where),
            "sensitivity": query.sensitivity,
            "lambda": scale,
            "cells": engine.query_cells(dp_round.config, query),
            "answer": engine.laplace_answer(truth, scale),
        }
        return reply, None

    request = {**query.as_dict(), "epsilon_as_sent": str(payload.get("epsilon"))}
    return ledger_charge(
        ledger=ledger,
        epsilon=query.epsilon,
        kind=Charge.Kind.QUERY,
        request=request,
        request_id=request_id,
        user=user,
        max_charges=dp_round.config.get("max_charges_per_level", 1000),
        produce=produce,
    )


# --- batch track ---------------------------------------------------------------------------


def dp_release_request(
    *, dp_round: DPRound, team, user, level: str, payload: dict, now=None
) -> ChargeResult:
    """Run a Pk-anonymized release of the hidden table for ``team`` (spec §7.3): ε from
    eq. (6), charged; the shuffled release.csv stored with the charge; ρ_g and k (eq. 7)."""
    if not isinstance(payload, dict):
        raise DPRequestError(_("The release request must be a JSON object"))
    request_id = _request_id(payload.get("request_id"))
    _level_open(dp_round, level, now)
    if not engine.batch_platform_enabled(dp_round.config):
        raise DPRequestError(_("This round has no platform-run batch releases"))
    ledger = ledger_get_or_create(dp_round=dp_round, team=team, level=level)
    if request_id:
        stored = ledger.charges.filter(request_id=request_id).first()
        if stored is not None:
            return ChargeResult(stored, replayed=True)
    try:
        declaration = engine.release_declaration(
            dp_round.config, payload, rows=dp_round.round.original_rows
        )
    except engine.DPInputError as error:
        raise DPRequestError(error) from None

    def produce(number: int):
        content = engine.release_run(dp_round.round, declaration, rng=engine.release_rng())
        reply = {
            "mechanism": "pk_anonymization",
            "groups": declaration.groups_json(),
            "epsilon_eq6": declaration.plan.epsilon,
            "k": declaration.k,
            "rows": dp_round.round.original_rows,
        }
        return reply, ContentFile(content)

    request = {"mechanism": "pk_anonymization", "groups": payload.get("groups")}
    return ledger_charge(
        ledger=ledger,
        epsilon=declaration.epsilon,
        kind=Charge.Kind.RELEASE,
        request=request,
        request_id=request_id,
        user=user,
        max_charges=dp_round.config.get("max_charges_per_level", 1000),
        produce=produce,
    )


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
    _level_open(dp_round, level, now)
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
# 100,000-cell target takes about a minute (README, scoring.dp); the Adult demo's six
# targets (60 cells) take 0.6 s in the request.
ESTIMATE_INLINE_CELLS = 20_000


def dp_estimate_from_release(
    *, dp_round: DPRound, team, user, level: str, charge_no: int, estimator: str, now=None
) -> Estimate:
    """The platform's BT, BR or BI estimate of every target from one of the team's
    releases (free post-processing, spec §7.3). Large workloads' BR/BI are QUEUED and built
    by the worker (``dp_estimate_build``)."""
    _level_open(dp_round, level, now)
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
        from pwscup.dp.tasks import build_dp_estimate

        build_dp_estimate.delay_on_commit(estimate.pk)
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
    _level_open(dp_round, level, now)
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
    _level_open(dp_round, level, now)
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
        truths = engine.round_truths(locked.round)
        for estimate in Estimate.objects.filter(dp_round=locked, status=Estimate.Status.VALID):
            Estimate.objects.filter(pk=estimate.pk).update(
                scores=engine.estimate_scores(estimate.counts, truths, locked.config)
            )
        baselines = engine.round_baselines(locked.round)
        now = now or timezone.now()
        DPRound.objects.filter(pk=locked.pk).update(scored_at=now, baselines=baselines)
        dp_round.scored_at, dp_round.baselines = now, baselines
        _notify_scored(locked.round)
    return True


def _notify_scored(round_) -> None:
    """Every participant of the competition is told, once, that the scores are out."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from pwscup.notifications.models import Notification
    from pwscup.notifications.services import notify

    kind = Notification.Kind.RESULTS_PUBLISHED
    notify(
        users=get_user_model().objects.filter(memberships__competition_id=round_.competition_id),
        kind=kind,
        event=f"{kind}:{round_.pk}",
        params={"round": round_.name},
        url=reverse(
            "dp:leaderboard",
            kwargs={"competition_slug": round_.competition.slug, "round_slug": round_.slug},
        ),
    )


def dp_round_score_by_id(*, dp_round_id: int) -> bool:
    dp_round = DPRound.objects.select_related("round").filter(pk=dp_round_id).first()
    return dp_round is not None and dp_round_score(dp_round=dp_round)


def dp_rounds_score_closed(*, now=None) -> list[int]:
    """The periodic tick: build estimates whose job was lost (queued over a minute ago),
    then score every DP round whose release phase has closed and is not scored yet."""
    now = now or timezone.now()
    dp_estimates_build_queued(older_than=now - dt.timedelta(minutes=1))
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
    from pwscup.dp.tasks import score_dp_round

    if dp_round.scored_at is None and dp_round.has_closed():
        score_dp_round.delay_on_commit(dp_round.pk)
