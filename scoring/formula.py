"""A round's total from its named scores: a small, safe expression language.

An organizer writes a formula over the scores a round shows (``U``, ``A``, ``utility``,
``protection``...), e.g. PWSCup 2024's total
``max(0, A + U - 2*(50-A)*(A<50) - 2*(50-U)*(U<50))``. The formula is read by Python's own
parser, every node is checked against a short list (numbers, the given names, ``+ - * / **``,
comparisons, ``and``/``or``/``not``, ``x if c else y``, ``min``/``max``/``abs``), and it is
evaluated by the maintained library simpleeval, never by ``eval``. A comparison counts as 1
or 0 (``(A<50)`` above). Every failure is a :class:`FormulaError` with a ``formula.*`` code
of :mod:`scoring.messages`.

Examples
--------
>>> formula_value("max(0, A + U - 2*(50-A)*(A<50))", {"A": 40.0, "U": 70.0})
90.0
>>> formula_value("A / U", {"A": 1.0, "U": 0.0})
Traceback (most recent call last):
...
scoring.formula.FormulaError: The formula divides by zero (A / U).
>>> formula_check("utility + B", ["utility", "A"])
Traceback (most recent call last):
...
scoring.formula.FormulaError: The formula names B, which is not a score of the round (its scores: utility, A).
>>> formula_names("max(0, A + U) - A")
['A', 'U']
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterable, Mapping

from scoring.errors import ScoringError
from scoring.extras import optional
from scoring.messages import clip

MAX_LENGTH = 500
MAX_EXPONENT = 100
FUNCTIONS: dict[str, Callable[..., float]] = {"min": min, "max": max, "abs": abs}

_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd, ast.Not)
_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_NODES = (
    ast.Expression,
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.IfExp,
    ast.Call,
    ast.Name,
    ast.Constant,
    ast.Load,
    ast.And,
    ast.Or,
    *_OPERATORS,
    *_COMPARISONS,
)


class FormulaError(ScoringError):
    """A formula that cannot be a round's total; the message says why."""


def _power(base: float, exponent: float) -> float:
    if abs(exponent) > MAX_EXPONENT:
        raise FormulaError("formula.power_too_large", limit=MAX_EXPONENT)
    try:
        return float(base) ** float(exponent)
    except OverflowError:
        raise FormulaError("formula.not_finite", detail=f"{base} ** {exponent}") from None


_EVAL_OPERATORS: dict[type, Callable[..., object]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: _power,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Not: operator.not_,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def _parse(text: str) -> ast.Expression:
    """The formula's tree, once every node is one the language allows."""
    if not text.strip():
        raise FormulaError("formula.empty")
    if len(text) > MAX_LENGTH:
        raise FormulaError("formula.too_long", limit=MAX_LENGTH)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError) as error:
        raise _syntax_error(text.strip(), error) from None
    for node in ast.walk(tree):
        _check_operators(node)
        if not isinstance(node, _NODES):
            raise FormulaError("formula.not_allowed", what=_describe(node))
        if isinstance(node, ast.Constant) and not _is_number(node.value):
            raise FormulaError("formula.not_allowed", what=clip(repr(node.value)))
        if isinstance(node, ast.Call):
            _check_call(node)
    return tree


def _syntax_error(text: str, error: Exception) -> FormulaError:
    """Where the formula cannot be read, in the library's own words (Python's message is
    English and speaks of Python): an unbalanced bracket, or the character where reading
    stopped (``SyntaxError.offset``, 1-based) with the text near it, or the formula's end.

    >>> print(_syntax_error("1 + (", SyntaxError()).render("en"))
    The bracket at character 5 is never closed (near '1 + (').
    >>> error = _syntax_error("a b", SyntaxError("", ("", 1, 3, "a b", 1, 4)))
    >>> error.code, error.params
    ('formula.syntax_at', {'column': 3, 'near': "'a b'"})
    """
    bracket = _unbalanced_bracket(text)
    if bracket is not None:
        code, position = bracket
        return FormulaError(code, column=position, near=_near(text, position))
    position = _error_position(text, error)
    if position is None or position > len(text):
        return FormulaError("formula.syntax_end", near=_near(text, len(text)))
    return FormulaError("formula.syntax_at", column=position, near=_near(text, position))


def _unbalanced_bracket(text: str) -> tuple[str, int] | None:
    """``("formula.bracket_unmatched", position)`` for a ``)`` with no ``(`` before it,
    ``("formula.bracket_unclosed", position)`` for a ``(`` never closed; ``None`` if they
    pair up. Positions are 1-based."""
    opened: list[int] = []
    for index, character in enumerate(text, start=1):
        if character == "(":
            opened.append(index)
        elif character == ")":
            if not opened:
                return "formula.bracket_unmatched", index
            opened.pop()
    return ("formula.bracket_unclosed", opened[-1]) if opened else None


def _error_position(text: str, error: Exception) -> int | None:
    """The 1-based character of ``text`` where Python stopped reading, counting the lines
    before it; ``None`` when Python does not say (``0`` means at the end)."""
    if "\0" in text:
        return text.index("\0") + 1
    line, offset = getattr(error, "lineno", None), getattr(error, "offset", None)
    if not line or not offset:
        return None
    before = text.split("\n")[: line - 1]
    return sum(len(part) + 1 for part in before) + offset


def _near(text: str, position: int, reach: int = 10) -> str:
    """The formula around the 1-based ``position``, quoted, printable."""
    start = max(0, position - 1 - reach)
    part = text[start : position + reach]
    part = "".join(c if c.isprintable() else " " for c in part)
    return repr(clip(("…" if start else "") + part + ("…" if position + reach < len(text) else "")))


def _is_number(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _check_operators(node: ast.AST) -> None:
    """Refuse an operator outside the language by the expression it is in (``A // 2``), not
    by the name Python's tree gives it (``FloorDiv``)."""
    if isinstance(node, ast.BinOp | ast.UnaryOp):
        allowed = isinstance(node.op, _OPERATORS)
    elif isinstance(node, ast.Compare):
        allowed = all(isinstance(op, _COMPARISONS) for op in node.ops)
    else:
        return
    if not allowed:
        raise FormulaError("formula.not_allowed", what=_describe(node))


def _check_call(node: ast.Call) -> None:
    if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
        raise FormulaError("formula.not_allowed", what=clip(ast.unparse(node.func)))
    arity_ok = len(node.args) == 1 if node.func.id == "abs" else len(node.args) >= 2
    if node.keywords or not arity_ok or any(isinstance(a, ast.Starred) for a in node.args):
        raise FormulaError("formula.not_allowed", what=clip(ast.unparse(node)))


def _describe(node: ast.AST) -> str:
    try:
        return clip(ast.unparse(node)) or type(node).__name__
    except Exception:  # an operator node has no source of its own
        return type(node).__name__


def _used_names(tree: ast.Expression) -> list[str]:
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called]
    return list(dict.fromkeys(names))


def formula_names(text: str) -> list[str]:
    """The score names the formula uses, in the order they first appear."""
    return _used_names(_parse(text))


def formula_comparison(text: str) -> str:
    """The formula's first comparison as written (``A < 50``: 1 when true, 0 when false), for
    the sentence that explains comparisons with the round's own names; ``""`` without one.

    >>> formula_comparison("A + 2*(50-A)*(A<50)"), formula_comparison("max(A, U) - 1")
    ('A<50', '')
    """
    source = text.strip()
    tree = _parse(text)
    compares = [node for node in ast.walk(tree) if isinstance(node, ast.Compare)]
    if not compares:
        return ""
    first = min(compares, key=lambda node: (node.lineno, node.col_offset))
    return ast.get_source_segment(source, first) or ""


def formula_check(text: str, names: Iterable[str]) -> None:
    """Raise :class:`FormulaError` unless ``text`` is a formula over ``names`` only.

    Its syntax and every node are checked, then every name; then it is evaluated with every
    score 1, so that a result that is not a finite number (``1e300 * 1e300 * A``) or a power
    too large is refused. A division by zero depends on the scores (:func:`formula_value`
    finds it on each team's), unless the formula divides by zero whatever they are
    (``1/0``, ``A/(B-B)``): then it is refused, since no team would ever have a total. That
    is judged on a few sets of scores (``PROBES``): a formula dividing by zero on each.

    >>> formula_check("max(0, A + U - 2*(50-A)*(A<50) - 2*(50-U)*(U<50))", ["A", "U"])
    >>> formula_check("A.__class__", ["A"])
    Traceback (most recent call last):
    ...
    scoring.formula.FormulaError: The formula uses A.__class__, which is not allowed: only numbers, the round's score names, + - * / **, comparisons, and/or/not, x if c else y, min, max and abs.
    """
    known = list(dict.fromkeys(names))
    tree = _parse(text)
    for name in _used_names(tree):
        if name not in known:
            raise FormulaError(
                "formula.unknown_name", name=clip(name), known=", ".join(known) or "—"
            )
    for number, probe in enumerate(_probes(known)):
        try:
            _evaluate(text, tree, probe)
            return
        except FormulaError as error:
            if number == 0 and error.code != "formula.division_by_zero":
                raise  # every score 1: a formula that cannot be a number at all
            if error.code != "formula.division_by_zero":
                return  # not always a division by zero: the teams' scores decide
    raise FormulaError("formula.division_by_zero", detail=clip(text.strip()))


# How many sets of scores ``formula_check`` tries before it calls a division by zero certain.
PROBES = 4


def _probes(names: list[str]) -> list[dict[str, float]]:
    """Every score 1, then sets whose scores differ from each other and from one set to the
    next (a difference of two names is zero in none of them, nor is a name minus a small
    whole number)."""
    sets = [dict.fromkeys(names, 1.0)]
    for step in range(1, PROBES):
        sets.append({name: 0.5 + step * 0.731 + index * 1.379 for index, name in enumerate(names)})
    return sets


def formula_value(text: str, values: Mapping[str, float]) -> float:
    """The formula's value on one team's scores (``values``: name -> number).

    >>> formula_value("A if A > U else U", {"A": 2.0, "U": 3.0})
    3.0
    >>> formula_value("2 ** 101", {})
    Traceback (most recent call last):
    ...
    scoring.formula.FormulaError: The formula raises a number to a power larger than 100.
    """
    tree = _parse(text)
    for name in _used_names(tree):
        if name not in values:
            raise FormulaError(
                "formula.unknown_name", name=clip(name), known=", ".join(values) or "—"
            )
    return _evaluate(text, tree, {k: float(v) for k, v in values.items()})


def _evaluate(text: str, tree: ast.Expression, values: dict[str, float]) -> float:
    # The platform evaluates totals; the participants' toolkit needs simpleeval only with its
    # ``formula`` extra (pwscup/core/toolkit.py).
    simpleeval = optional("simpleeval", extra="formula")
    evaluator = simpleeval.SimpleEval(
        operators=_EVAL_OPERATORS, functions=dict(FUNCTIONS), names=values
    )
    try:
        result = evaluator.eval(text.strip(), previously_parsed=tree.body)
    except ZeroDivisionError:
        raise FormulaError("formula.division_by_zero", detail=clip(text.strip())) from None
    except OverflowError:
        raise FormulaError("formula.not_finite", detail=clip(text.strip())) from None
    except (TypeError, ValueError):
        raise FormulaError("formula.syntax", detail=clip(text.strip())) from None
    except simpleeval.InvalidExpression:  # its message is English; the formula says what
        raise FormulaError("formula.not_allowed", what=clip(text.strip())) from None
    try:
        number = float(result)
    except (TypeError, ValueError, OverflowError):
        raise FormulaError("formula.not_finite", detail=clip(repr(result))) from None
    if not math.isfinite(number):
        raise FormulaError("formula.not_finite", detail=clip(repr(number)))
    return number
