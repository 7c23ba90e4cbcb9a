"""The ε ledger's arithmetic (spec dp-round.md §3.8): exact, strict, sequential composition.

One ledger per (team, level) holds the budget B and its charges. A request ``e`` is
accepted iff ``e > 0`` and ``spent + e ≤ B`` (and the level's charge limit is not
reached); otherwise nothing changes and the refusal names the numbers. The database
side (atomicity, ``request_id`` replay) lives in the platform; this module is the rule.

Examples
--------
>>> state = LedgerState(budget=Fraction(1))
>>> for asked in ("0.25", "0.25", "1/3"):
...     state = ledger_charge(state, parse_epsilon(asked))
>>> exact_text(state.spent), exact_text(state.remaining), state.charges
('5/6', '1/6', 3)
>>> ledger_charge(state, parse_epsilon("0.2"))
Traceback (most recent call last):
...
scoring.dp.errors.DPError: refused: query 4 asks epsilon 0.2 but only 1/6 (= 0.166667) of the level's budget 1 is left (spent 5/6 (= 0.833333) in 3 earlier charges); nothing was charged
>>> state = ledger_charge(state, parse_epsilon("1/6"))
>>> exact_text(state.remaining)
'0'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

from scoring.dp.errors import DPError
from scoring.dp.exact import exact_text, format_epsilon, parse_epsilon

__all__ = ["LedgerState", "ledger_charge", "check_request_id", "parse_epsilon", "exact_text"]

_PRINTABLE = re.compile(r"^[\x20-\x7e]{1,100}$")


@dataclass(frozen=True)
class LedgerState:
    """A ledger's totals: budget B, the exact sum spent, and the number of charges."""

    budget: Fraction
    spent: Fraction = Fraction(0)
    charges: int = 0

    @property
    def remaining(self) -> Fraction:
        """``B − spent`` (exact)."""
        return self.budget - self.spent


def ledger_charge(
    state: LedgerState,
    epsilon: Fraction,
    *,
    what: str = "query",
    max_charges: int | None = None,
    level_id: str = "",
) -> LedgerState:
    """The state after charging ``epsilon``, or :class:`DPError` (nothing charged).

    Parameters
    ----------
    state : LedgerState
        The ledger before the request.
    epsilon : Fraction
        The request's ε (from :func:`scoring.dp.exact.parse_epsilon` or a plan's charge).
    what : {"query", "release"}, keyword-only
        How the refusal names the request.
    max_charges : int, optional
        The level's ``max_charges_per_level``.
    level_id : str
        For the charge-limit message.
    """
    epsilon = Fraction(epsilon)
    if epsilon <= 0:
        raise DPError("dp.epsilon.not_positive", value=exact_text(epsilon))
    if max_charges is not None and state.charges >= max_charges:
        raise DPError("dp.ledger.too_many_charges", level=level_id, limit=max_charges)
    if state.spent + epsilon > state.budget:
        raise DPError(
            "dp.ledger.refused",
            what=what,
            number=state.charges + 1,
            asked=format_epsilon(epsilon),
            remaining=format_epsilon(state.remaining),
            budget=format_epsilon(state.budget),
            spent=format_epsilon(state.spent),
            earlier=state.charges,
            charges="charge" if state.charges == 1 else "charges",
        )
    return replace(state, spent=state.spent + epsilon, charges=state.charges + 1)


def check_request_id(value) -> str:
    """A valid ``request_id`` (≤ 100 printable ASCII characters) or :class:`DPError`."""
    if not isinstance(value, str) or not _PRINTABLE.match(value):
        raise DPError("dp.request_id.invalid")
    return value
