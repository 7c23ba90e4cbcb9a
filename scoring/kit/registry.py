"""The kit's methods and attacks by name, with their parameters (for the CLI and recipes)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from scoring.kit import attacks, hierarchy, methods
from scoring.kit._common import KitError
from scoring.messages import render
from scoring.numbers import integer_of, number_of


# An entry's summary and a parameter's help are codes of the catalogue
# (scoring/catalogues/kit_help.py): ``--help`` lists them in the language asked for.
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


def _columns(help_text="help.param.columns", default=None, required=False):
    return Param("columns", "columns", default, required, help_text)


METHODS: dict[str, Entry] = {
    "generalize": Entry(
        hierarchy.generalize,
        "help.method.generalize",
        (
            Param("levels", "levels", required=True, help="help.param.levels"),
            Param("back_map", "str", "mode", help="help.param.back_map"),
            Param("median", "str", "low", help="help.param.median"),
        ),
        random=True,
        hierarchy=True,
    ),
    "k_anonymize": Entry(
        hierarchy.k_anonymize,
        "help.method.k_anonymize",
        (
            Param("k", "int", required=True),
            Param("budget", "int", 0, help="help.param.budget"),
            _columns("help.param.generalized"),
        ),
        hierarchy=True,
    ),
    "remove_record": Entry(
        methods.remove_record,
        "help.method.remove_record",
        (Param("k", "int", required=True), _columns("help.param.qi")),
    ),
    "delete_rows": Entry(
        methods.delete_rows,
        "help.method.delete_rows",
        (Param("rows", "rows", required=True, help="help.param.rows"),),
    ),
    "delete_random": Entry(
        methods.delete_random,
        "help.method.delete_random",
        (Param("d", "int", required=True),),
        random=True,
    ),
    "delete_outliers": Entry(
        methods.delete_outliers,
        "help.method.delete_outliers",
        (Param("d", "int", required=True), _columns("help.param.sa")),
    ),
    "top_bottom_coding": Entry(
        methods.top_bottom_coding,
        "help.method.top_bottom_coding",
        (
            Param("column", "str", required=True),
            Param("top", "number"),
            Param("bottom", "number"),
            Param("rep", "str", "value", help="help.param.rep"),
        ),
    ),
    "qi_unify": Entry(
        methods.qi_unify,
        "help.method.qi_unify",
        (_columns(required=True),),
    ),
    "laplace_ldp": Entry(
        methods.laplace_ldp,
        "help.method.laplace_ldp",
        (
            _columns(required=True),
            Param("epsilon", "float", required=True),
            Param("value_range", "floats", help="help.param.value_range"),
            Param("clip", "bool", False),
            Param("snap", "bool", False, help="help.param.snap"),
        ),
        random=True,
    ),
    "randomized_response": Entry(
        methods.randomized_response,
        "help.method.randomized_response",
        (_columns(required=True), Param("epsilon", "float", required=True)),
        random=True,
    ),
    "sa_noise": Entry(
        methods.sa_noise,
        "help.method.sa_noise",
        (Param("scale", "float", required=True), _columns("help.param.sa")),
        random=True,
    ),
    "sa_class_mean": Entry(
        methods.sa_class_mean,
        "help.method.sa_class_mean",
        (_columns("help.param.sa"),),
    ),
    "swap_in_class": Entry(
        methods.swap_in_class,
        "help.method.swap_in_class",
        (_columns("help.param.sa"),),
        random=True,
    ),
    "yamaoka": Entry(methods.yamaoka, "help.method.yamaoka"),
    "mdav": Entry(
        methods.mdav,
        "help.method.mdav",
        (Param("k", "int", required=True), _columns("help.param.sa")),
    ),
}

ATTACK_ENTRIES: dict[str, Entry] = {
    "lecture": Entry(
        attacks.lecture_answer,
        "help.attack.lecture",
        (Param("n", "int", 3),),
    ),
    "neighbor": Entry(
        attacks.neighbor_answer,
        "help.attack.neighbor",
        (
            _columns("help.param.euc_sa"),
            Param("n", "int", 3),
            Param("scale", "str", "range", help="help.param.scale"),
            Param("match", "bool", True, help="help.param.match"),
            Param("fallback", "bool", True, help="help.param.fallback"),
            Param("duplication", "bool", False, help="help.param.duplication"),
            Param("method", "str", "greedy", help="help.param.assignment"),
        ),
    ),
    "E1": Entry(attacks.ATTACKS["E1"], "help.attack.E1", random=True),
    "E2": Entry(attacks.ATTACKS["E2"], "help.attack.E2"),
    "E3": Entry(attacks.ATTACKS["E3"], "help.attack.E3"),
    "E4": Entry(attacks.ATTACKS["E4"], "help.attack.E4"),
    "EUC1": Entry(attacks.ATTACKS["EUC1"], "help.attack.EUC1"),
    "EUC2": Entry(attacks.ATTACKS["EUC2"], "help.attack.EUC2"),
    "reference": Entry(
        attacks.ATTACKS["reference"],
        "help.attack.reference",
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


def describe(registry: Mapping[str, Entry], lang: str = "en") -> str:
    """One paragraph per method: name, summary, parameters with defaults (for ``--help``),
    in ``lang``."""

    def said(code: str, **params) -> str:
        return render(code, params, lang)

    lines = []
    for name, entry in registry.items():
        flags = said("help.kit.random") if entry.random else ""
        flags += said("help.kit.hierarchy") if entry.hierarchy else ""
        lines.append(f"  {name}: {said(entry.summary)}{flags}")
        for p in entry.params:
            extra = (
                said("help.kit.required")
                if p.required
                else said("help.kit.default", value=p.default)
                if p.default is not None
                else said("help.kit.optional")
            )
            note = f"; {said(p.help)}" if p.help else ""
            lines.append(f"      {p.name} ({p.kind}, {extra}{note})")
    return "\n".join(lines)
