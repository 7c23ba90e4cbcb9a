"""The ε ledger (spec §3.8) in the database: exact, atomic, idempotent per ``request_id``.

The rule (accept iff ``spent + e ≤ B``, the refusal's message) is ``scoring.dp.ledger``;
``ledger_charge`` here is the one way ε is spent. Under the ledger's row lock it replays a known
``request_id``, refuses a charge past the budget (nothing changes, no noise is drawn), or runs
``produce`` — which draws the noise or the release — and stores its reply with the charge, in
one transaction: an exception in ``produce`` rolls the charge back (not charged).
"""

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from django.db import IntegrityError, transaction

from pwscup.dp.models import Charge, DPRound, Ledger
from scoring.dp.errors import DPError
from scoring.dp.exact import exact_text
from scoring.dp.ledger import LedgerState
from scoring.dp.ledger import ledger_charge as scoring_ledger_charge


class LedgerRefusal(Exception):
    """A charge the ledger refuses (HTTP 409): past the budget or the level's charge limit.

    ``error`` is the ``scoring.dp.DPError`` (English text; ``render(lang)`` for Japanese)."""

    def __init__(self, error: DPError):
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True)
class ChargeResult:
    charge: Charge
    replayed: bool


def fraction_text(value: Fraction) -> str:
    """Exact text of an amount: "0.2", "1/6", "2" (what the ledger stores and shows)."""
    return exact_text(value)


def level_budget(dp_round: DPRound, level: str) -> Fraction:
    for item in dp_round.config["levels"]:
        if item["id"] == level:
            return Fraction(item["epsilon"])
    raise KeyError(level)


def ledger_get_or_create(*, dp_round: DPRound, team, level: str) -> Ledger:
    budget = level_budget(dp_round, level)
    try:
        ledger, _created = Ledger.objects.get_or_create(
            dp_round=dp_round, team=team, level=level, defaults={"budget": fraction_text(budget)}
        )
    except IntegrityError:  # a concurrent request created it first
        ledger = Ledger.objects.get(dp_round=dp_round, team=team, level=level)
    return ledger


def ledger_replayed(ledger: Ledger, request_id: str) -> ChargeResult | None:
    """The charge already stored for ``request_id`` on ``ledger``, as a replay (free), or
    ``None``: none, or no ``request_id``."""
    if not request_id:
        return None
    stored = ledger.charges.filter(request_id=request_id).first()
    return None if stored is None else ChargeResult(stored, replayed=True)


def ledger_charge(
    *,
    ledger: Ledger,
    epsilon: Fraction,
    kind: str,
    request: dict,
    request_id: str,
    user,
    max_charges: int,
    produce: Callable[[int], tuple[dict, object]],
) -> ChargeResult:
    """Charge ``epsilon`` to ``ledger`` and store what ``produce(charge_no)`` returns.

    ``produce`` returns ``(reply, release_file_or_None)``; it runs under the row lock, after
    the budget check, so refused requests draw no noise.
    """
    with transaction.atomic():
        locked = Ledger.objects.select_for_update().get(pk=ledger.pk)
        if (replayed := ledger_replayed(locked, request_id)) is not None:
            return replayed
        before = LedgerState(
            budget=Fraction(locked.budget),
            spent=Fraction(locked.spent),
            charges=locked.charges_count,
        )
        try:
            after = scoring_ledger_charge(
                before, epsilon, what=kind, max_charges=max_charges, level_id=locked.level
            )
        except DPError as error:
            raise LedgerRefusal(error) from None
        number = after.charges
        reply, release_file = produce(number)
        spent_after = after.spent
        charge = Charge(
            ledger=locked,
            number=number,
            kind=kind,
            request_id=request_id,
            epsilon=fraction_text(epsilon),
            spent_after=fraction_text(spent_after),
            request=request,
            reply=reply,
            user=user if getattr(user, "is_authenticated", False) else None,
        )
        if release_file is not None:
            charge.release_file.save("release.csv", release_file, save=False)
        charge.save()
        Ledger.objects.filter(pk=locked.pk).update(
            spent=fraction_text(spent_after), charges_count=number
        )
        return ChargeResult(charge, replayed=False)
