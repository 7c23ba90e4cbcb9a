"""The two things a ledger charges: an interactive query (spec §7.2) and a platform-run
Pk-anonymized release (§7.3)."""

from django.core.files.base import ContentFile
from django.utils.translation import gettext as _

from pwscup.dp import engine, estimation
from pwscup.dp.ledger import (
    ChargeResult,
    ledger_charge,
    ledger_get_or_create,
    ledger_replayed,
)
from pwscup.dp.models import Charge, DPRound
from pwscup.dp.services.common import DPRequestError, level_open, request_id_of


def _charge(dp_round: DPRound, ledger, **charge) -> ChargeResult:
    """``ledger_charge`` under the round's limit on charges per level (1000 by default)."""
    return ledger_charge(
        ledger=ledger, max_charges=dp_round.config.get("max_charges_per_level", 1000), **charge
    )


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
    request_id = request_id_of(payload.get("request_id"))
    level_open(dp_round, level, now)
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
    return _charge(
        dp_round,
        ledger,
        epsilon=query.epsilon,
        kind=Charge.Kind.QUERY,
        request=request,
        request_id=request_id,
        user=user,
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
    request_id = request_id_of(payload.get("request_id"))
    level_open(dp_round, level, now)
    if not engine.batch_platform_enabled(dp_round.config):
        raise DPRequestError(_("This round has no platform-run batch releases"))
    ledger = ledger_get_or_create(dp_round=dp_round, team=team, level=level)
    if (replayed := ledger_replayed(ledger, request_id)) is not None:
        return replayed  # as stored, without checking its declaration again
    try:
        declaration = estimation.release_declaration(
            dp_round.config, payload, rows=dp_round.round.original_rows
        )
    except engine.DPInputError as error:
        raise DPRequestError(error) from None

    def produce(number: int):
        content = estimation.release_run(dp_round.round, declaration, rng=estimation.release_rng())
        reply = {
            "mechanism": "pk_anonymization",
            "groups": declaration.groups_json(),
            "epsilon_eq6": declaration.plan.epsilon,
            "k": declaration.k,
            "rows": dp_round.round.original_rows,
        }
        return reply, ContentFile(content)

    request = {"mechanism": "pk_anonymization", "groups": payload.get("groups")}
    return _charge(
        dp_round,
        ledger,
        epsilon=declaration.epsilon,
        kind=Charge.Kind.RELEASE,
        request=request,
        request_id=request_id,
        user=user,
        produce=produce,
    )
