"""The kit's methods and attacks by name, with their parameters (for the CLI and recipes)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from scoring.kit import attacks, hierarchy, methods
from scoring.kit._common import KitError
from scoring.numbers import integer_of, number_of


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # int, float, bool, str, number, columns, rows, levels, floats
    default: object = None
    required: bool = False
    help: str = ""


@dataclass(frozen=True)
class Entry:
    function: Callable
    summary: str
    params: tuple[Param, ...] = ()
    random: bool = False
    hierarchy: bool = False
    extra: dict = field(default_factory=dict)


def _columns(help_text="columns, comma-separated", default=None, required=False):
    return Param("columns", "columns", default, required, help_text)


METHODS: dict[str, Entry] = {
    "generalize": Entry(
        hierarchy.generalize,
        "hierarchy generalization per attr_depth.json, mapped back to first-level values (B.1.1)",
        (
            Param("levels", "levels", required=True, help="column:level,... e.g. age:1,pref:2"),
            Param("back_map", "str", "mode", help="mode | random"),
            Param("median", "str", "low", help="low | pandas (number columns)"),
        ),
        random=True,
        hierarchy=True,
    ),
    "k_anonymize": Entry(
        hierarchy.k_anonymize,
        "DA: lowest generalization levels leaving <= budget rows in classes < k, then removal",
        (
            Param("k", "int", required=True),
            Param("budget", "int", 0, help="rows allowed in classes smaller than k"),
            _columns("columns generalized (default: qi columns of attr_depth.json)"),
        ),
        hierarchy=True,
    ),
    "remove_record": Entry(
        methods.remove_record,
        "blank rows whose combination of columns occurs fewer than k times (B.1.2)",
        (Param("k", "int", required=True), _columns("default: qi")),
    ),
    "delete_rows": Entry(
        methods.delete_rows,
        "DH: blank the given rows",
        (Param("rows", "rows", required=True, help="1-based, comma-separated"),),
    ),
    "delete_random": Entry(
        methods.delete_random,
        "DH: blank d random rows",
        (Param("d", "int", required=True),),
        random=True,
    ),
    "delete_outliers": Entry(
        methods.delete_outliers,
        "record suppression: blank the d rows with the largest z-score norm",
        (Param("d", "int", required=True), _columns("default: sa")),
    ),
    "top_bottom_coding": Entry(
        methods.top_bottom_coding,
        "v > top -> top, v < bottom -> bottom (codes must be values of the column)",
        (
            Param("column", "str", required=True),
            Param("top", "number"),
            Param("bottom", "number"),
            Param("rep", "str", "value", help="value | mean (number columns)"),
        ),
    ),
    "qi_unify": Entry(
        methods.qi_unify,
        "DD/DE: set columns to their most frequent value",
        (_columns(required=True),),
    ),
    "laplace_ldp": Entry(
        methods.laplace_ldp,
        "Laplace mechanism, local DP: y = x + Lap((max-min)/epsilon) (B.1.3)",
        (
            _columns(required=True),
            Param("epsilon", "float", required=True),
            Param("value_range", "floats", help="max,min (default: the column's range)"),
            Param("clip", "bool", False),
            Param("snap", "bool", False, help="round to the nearest original value"),
        ),
        random=True,
    ),
    "randomized_response": Entry(
        methods.randomized_response,
        "generalized randomized response: keep with e^eps/(K-1+e^eps) (B.1.4)",
        (_columns(required=True), Param("epsilon", "float", required=True)),
        random=True,
    ),
    "sa_noise": Entry(
        methods.sa_noise,
        "DB: Laplace noise of scale b on sa columns",
        (Param("scale", "float", required=True), _columns("default: sa")),
        random=True,
    ),
    "sa_class_mean": Entry(
        methods.sa_class_mean,
        "DF: sa values become their full-QI class mean",
        (_columns("default: sa"),),
    ),
    "swap_in_class": Entry(
        methods.swap_in_class,
        "DG: random permutation of each sa column inside full-QI classes",
        (_columns("default: sa"),),
        random=True,
    ),
    "yamaoka": Entry(
        methods.yamaoka, "DC (YA): each row takes the next record of its full-QI class"
    ),
    "mdav": Entry(
        methods.mdav,
        "micro-aggregation by MDAV on z-scores, values -> group means",
        (Param("k", "int", required=True), _columns("default: sa")),
    ),
}

ATTACK_ENTRIES: dict[str, Entry] = {
    "lecture": Entry(
        attacks.lecture_answer,
        "top-n Euclidean over euc_sa in the match_qi class, greedy 1:1 (the built-in 'kit' attacker)",
        (Param("n", "int", 3),),
    ),
    "neighbor": Entry(
        attacks.neighbor_answer,
        "Neighbor_att + Attack_id with every option",
        (
            _columns("default: euc_sa"),
            Param("n", "int", 3),
            Param("scale", "str", "range", help="range | none"),
            Param("match", "bool", True, help="candidates inside the match_qi class"),
            Param("fallback", "bool", True, help="all rows when the class is empty"),
            Param("duplication", "bool", False, help="true: nearest candidate, duplicates allowed"),
            Param("method", "str", "greedy", help="greedy | lsap"),
        ),
    ),
    "E1": Entry(attacks.ATTACKS["E1"], "random row of the same match_qi class", random=True),
    "E2": Entry(attacks.ATTACKS["E2"], "nearest e2_column value in the class (all rows if empty)"),
    "E3": Entry(attacks.ATTACKS["E3"], "rank of the sa sums"),
    "E4": Entry(attacks.ATTACKS["E4"], "nearest e4_column value among all rows"),
    "EUC1": Entry(attacks.ATTACKS["EUC1"], "nearest euc_sa vector in the class, none if empty"),
    "EUC2": Entry(attacks.ATTACKS["EUC2"], "as EUC1, all rows if the class is empty"),
    "reference": Entry(
        attacks.ATTACKS["reference"],
        "reference linkage attack: block on categorical QIs, nearest range-scaled numeric "
        "row, mismatch penalty when the block is empty",
    ),
}


def _integer(value) -> int:
    """A JSON number as it is; text by the number rule of the tables (``int()`` would read
    ``1_000``, ``٣``)."""
    return integer_of(value) if isinstance(value, str) else int(value)


def _float(value) -> float:
    return number_of(value) if isinstance(value, str) else float(value)


def _number(value):
    number = _float(value)
    return int(number) if number.is_integer() else number


def parse_value(param: Param, raw, *, method: str):
    """A parameter from the command line (text) or a recipe (JSON value)."""
    try:
        if not isinstance(raw, str):
            if param.kind == "levels" and isinstance(raw, Mapping):
                return {str(k): _integer(v) for k, v in raw.items()}
            if param.kind in ("columns",) and isinstance(raw, list):
                return [str(v) for v in raw]
            if param.kind in ("rows", "floats") and isinstance(raw, list):
                return [(_integer if param.kind == "rows" else _float)(v) for v in raw]
            raw = json.dumps(raw) if not isinstance(raw, int | float | bool) else str(raw).lower()
        text = raw.strip()
        if param.kind == "int":
            return _integer(text)
        if param.kind == "float":
            return _float(text)
        if param.kind == "number":
            return _number(text)
        if param.kind == "bool":
            if text.lower() in ("true", "1", "yes"):
                return True
            if text.lower() in ("false", "0", "no"):
                return False
            raise ValueError
        if param.kind == "str":
            return text
        if param.kind == "columns":
            return [c.strip() for c in text.split(",") if c.strip()]
        if param.kind == "rows":
            return [_integer(v) for v in text.split(",") if v.strip()]
        if param.kind == "floats":
            return [_float(v) for v in text.split(",") if v.strip()]
        if param.kind == "levels":
            if text.startswith("{"):
                return {str(k): _integer(v) for k, v in json.loads(text).items()}
            pairs = [item.rsplit(":", 1) for item in text.split(",") if item.strip()]
            return {name.strip(): _integer(level) for name, level in pairs}
    except (ValueError, TypeError, json.JSONDecodeError):
        pass
    raise KitError(
        "kit.bad_parameter",
        method=method,
        name=param.name,
        reason=f"cannot read {raw!r} as {param.kind}",
    )


def bind(
    registry: Mapping[str, Entry], name: str, given: Mapping[str, object]
) -> tuple[Entry, dict]:
    """The entry of ``name`` and its keyword arguments (defaults filled, names checked)."""
    if name not in registry:
        raise KitError("kit.unknown_method", name=name, names=", ".join(registry))
    entry = registry[name]
    known = {p.name: p for p in entry.params}
    kwargs = {}
    for key, raw in given.items():
        if key not in known:
            raise KitError(
                "kit.bad_parameter",
                method=name,
                name=key,
                reason="unknown; parameters: " + (", ".join(known) or "none"),
            )
        kwargs[key] = parse_value(known[key], raw, method=name)
    for param in entry.params:
        if param.name not in kwargs:
            if param.required:
                raise KitError("kit.bad_parameter", method=name, name=param.name, reason="required")
            if param.default is not None:
                kwargs[param.name] = param.default
    return entry, kwargs


def describe(registry: Mapping[str, Entry]) -> str:
    """One paragraph per method: name, summary, parameters with defaults (for ``--help``)."""
    lines = []
    for name, entry in registry.items():
        flags = " [random: uses --seed]" if entry.random else ""
        flags += " [needs --attr-depth]" if entry.hierarchy else ""
        lines.append(f"  {name}: {entry.summary}{flags}")
        for p in entry.params:
            extra = (
                "required"
                if p.required
                else f"default {p.default}"
                if p.default is not None
                else "optional"
            )
            note = f"; {p.help}" if p.help else ""
            lines.append(f"      {p.name} ({p.kind}, {extra}{note})")
    return "\n".join(lines)
