"""Exact ε amounts: parsing decimals and fractions, printing them, rounding charges up.

ε amounts are :class:`fractions.Fraction` everywhere in the DP round (spec §3.8): a
decimal string ``"0.1"`` is exactly 1/10, ``"1/3"`` is 1/3, and a JSON number is read as
written (``0.1`` → 1/10). Floats are never summed.

Examples
--------
>>> parse_epsilon("0.25") + parse_epsilon("1/3")
Fraction(7, 12)
>>> parse_epsilon(0.1)
Fraction(1, 10)
>>> format_epsilon(Fraction(1, 6)), format_epsilon(Fraction(3, 4)), format_epsilon(Fraction(2))
('1/6 (= 0.166667)', '0.75', '2')
>>> exact_text(ceil_nano(math.log(12)))
'2.48490665'
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from scoring.dp.errors import DPError
from scoring.messages import clip
from scoring.numbers import fold_full_width

MAX_DECIMALS = 12
# The grammar's bounds: a literal of at most 32 characters (enough for "p/q" with 15-digit
# parts; a 5,000-digit literal would hit Python's integer-conversion limit) and, for a
# non-zero amount, at least 10⁻¹², the smallest decimal the 12-decimal grammar can write —
# fractions and JSON numbers (``5e-324``) obey the same floor.
MAX_EPSILON_CHARS = 32
MIN_EPSILON = Fraction(1, 10**MAX_DECIMALS)
NANO = Fraction(1, 10**9)

# ASCII digits (after the full-width fold of scoring.numbers): ``\d`` matches any script's.
_DECIMAL = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$")
_FRACTION = re.compile(r"^([0-9]+)\s*/\s*([0-9]+)$")


def parse_epsilon(value: Any, *, positive: bool = True) -> Fraction:
    """Parse an ε amount exactly: a decimal (≤ 12 decimals), ``"p/q"`` or a JSON number.

    The literal (a string, or a number's ``repr``) has at most :data:`MAX_EPSILON_CHARS`
    characters, and a non-zero amount is at least :data:`MIN_EPSILON` (10⁻¹²).

    Parameters
    ----------
    value : str, int, float or Fraction
        The amount as written.
    positive : bool, keyword-only
        Require ``value > 0`` (the default); otherwise ``value >= 0`` is accepted.

    Raises
    ------
    DPError
        ``dp.epsilon.missing`` (``None``: absent, or JSON ``null``), ``dp.epsilon.syntax``,
        ``dp.epsilon.decimals`` (more than 12 decimals), ``dp.epsilon.too_long``,
        ``dp.epsilon.not_positive`` or ``dp.epsilon.too_small``.

    Examples
    --------
    >>> parse_epsilon("1/14") * 14
    Fraction(1, 1)
    >>> parse_epsilon("1e-3x")
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: epsilon '1e-3x' is not a decimal number or a fraction p/q
    >>> parse_epsilon(None)
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: epsilon is missing (absent or null): write a decimal number or a fraction p/q
    >>> parse_epsilon("0.0000000000001")
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: epsilon '0.0000000000001' has 13 decimals; at most 12 are allowed
    >>> parse_epsilon("0")
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: epsilon must be > 0 (got 0)
    >>> parse_epsilon(5e-324)
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: epsilon 5e-324 is too small: the smallest amount is 0.000000000001 (10⁻¹²)
    """
    if value is None:
        raise DPError("dp.epsilon.missing")  # absent, or JSON null
    if isinstance(value, bool):
        raise DPError("dp.epsilon.syntax", value=clip(value))
    if isinstance(value, str):
        literal = value.strip()
    elif isinstance(value, int) and value.bit_length() > 4 * MAX_EPSILON_CHARS:
        literal = "9" * (MAX_EPSILON_CHARS + 1)  # repr() of a huge int may itself fail
    else:
        literal = repr(value)
    if isinstance(value, str | int | float) and len(literal) > MAX_EPSILON_CHARS:
        raise DPError(
            "dp.epsilon.too_long",
            value=clip(literal, 24),
            length=len(literal),
            limit=MAX_EPSILON_CHARS,
        )
    if isinstance(value, Fraction):
        amount = value
    elif isinstance(value, int):
        amount = Fraction(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise DPError("dp.epsilon.syntax", value=clip(value))
        amount = Fraction(repr(value))  # as written in the JSON text, not the binary float
    elif isinstance(value, str):
        text = fold_full_width(value.strip())
        fraction = _FRACTION.match(text)
        if fraction:
            p, q = int(fraction.group(1)), int(fraction.group(2))
            if q == 0:
                raise DPError("dp.epsilon.syntax", value=clip(value))
            amount = Fraction(p, q)
        elif _DECIMAL.match(text):
            decimals = len(text.partition(".")[2])
            if decimals > MAX_DECIMALS:
                raise DPError(
                    "dp.epsilon.decimals", value=clip(text), decimals=decimals, limit=MAX_DECIMALS
                )
            amount = Fraction(text)
        else:
            raise DPError("dp.epsilon.syntax", value=clip(value))
    else:
        raise DPError("dp.epsilon.syntax", value=clip(value))
    if amount < 0 or (positive and amount == 0):
        raise DPError(
            "dp.epsilon.not_positive", value=clip(value if isinstance(value, str) else amount)
        )
    if 0 < amount < MIN_EPSILON:
        raise DPError("dp.epsilon.too_small", value=clip(literal), minimum=exact_text(MIN_EPSILON))
    return amount


def format_epsilon(amount: Fraction) -> str:
    """An exact amount as people read it: a terminating decimal as is, else ``p/q (= 0.xxxxxx)``."""
    amount = Fraction(amount)
    q = amount.denominator
    while q % 2 == 0:
        q //= 2
    while q % 5 == 0:
        q //= 5
    if q == 1:
        return exact_text(amount)
    return f"{amount.numerator}/{amount.denominator} (= {float(amount):.6f})"


def exact_text(amount: Fraction) -> str:
    """The shortest exact text of an amount: ``"0.2"``, ``"1"``, or ``"1/6"`` (no float).

    Examples
    --------
    >>> exact_text(Fraction(1, 5)), exact_text(Fraction(5, 6)), exact_text(Fraction(3))
    ('0.2', '5/6', '3')
    """
    amount = Fraction(amount)
    if amount.denominator == 1:
        return str(amount.numerator)
    q, twos, fives = amount.denominator, 0, 0
    while q % 2 == 0:
        q, twos = q // 2, twos + 1
    while q % 5 == 0:
        q, fives = q // 5, fives + 1
    if q != 1:
        return f"{amount.numerator}/{amount.denominator}"
    digits = max(twos, fives)
    scaled = abs(amount) * 10**digits
    whole, frac = divmod(int(scaled), 10**digits)
    sign = "-" if amount < 0 else ""
    return f"{sign}{whole}.{frac:0{digits}d}".rstrip("0").rstrip(".")


def ceil_nano(value: float) -> Fraction:
    """``value`` rounded **up** to a multiple of 10⁻⁹, exactly (the charge of a ρ-form release)."""
    scaled = Fraction(value) / NANO
    return Fraction(math.ceil(scaled)) * NANO
