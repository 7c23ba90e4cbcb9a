"""The synthetic round's settings (spec synthetic-round.md §1–§5) and their one check.

Every free choice of the spec marked **[chosen]** is a key here with the spec's value as
its default, so an organizer can change it per round:

``columns``      ``{column: "numeric" | "categorical"}``, every column of the original
                 table in its order (required);
``label``        the categorical column the utility task predicts (required);
``n_holdout``    rows of the holdout ``H`` (5,000);
``n_train``      members ``T_X`` per team (2,000);
``n_challenge``  rows of a challenge set ``C_X``, half members, half not; a multiple of 4 so
                 that the dev and final halves hold as many members as non-members (400);
``n_aux``        rows of the auxiliary table ``A`` (2,000);
``max_rows``     the most rows a release may hold (3 × ``n_train``);
``min_rows``     the fewest rows a release may hold (1; PWSCup 2020 asked 1,000 to 100,000),
                 at most ``max_rows``;
``fpr_levels``   the false-positive levels of ``TPR@FPR``, the first one the headline ([0.1]);
``gates``        ``{"u_ml_min": 0.8, "u_1_max": 0.1, "r_copy_excess_max": 0.1}``: a release
                 failing ``u_ml_min`` (a number ≥ 0; 0: no gate) or ``u_1_max`` (a share,
                 0–1) is ranked last; one whose ``R_copy`` exceeds
                 its ``R_copy`` against as many holdout rows (what chance copies) by more than
                 ``r_copy_excess_max`` (a share, 0–1) is kept and scored but never becomes the
                 team's final release nor is published at the freeze (it would hand the
                 members' rows to every team). ``r_copy_max``, the key of rounds stored before
                 (an absolute limit on ``R_copy``), is read as ``r_copy_excess_max``: the excess
                 is never above ``R_copy``, so no release that passed it fails now;
``density_bandwidth``  the Gaussian kernel's bandwidth of the built-in density attack, in the
                 DCR embedding (0.1; rev. 2 of the spec: Scott's rule, ≈ 0.93 in Adult's
                 embedding, is wider than a categorical mismatch and stayed at chance).

Examples
--------
>>> config = parse_config({"columns": {"age": "numeric", "y": "categorical"}, "label": "y"})
>>> config.n_train, config.min_rows, config.max_rows, config.fpr_levels, config.headline
(2000, 1, 6000, (0.1,), 'tpr@0.1')
>>> config.density_bandwidth, config.r_copy_excess_max
(0.1, 0.1)
>>> parse_config({"columns": {"age": "numeric"}, "label": "age"})
Traceback (most recent call last):
...
scoring.synthetic.errors.SynthError: The label 'age' must be a categorical column of the table
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import ConfigChecks
from scoring.messages import clip, expect
from scoring.synthetic.errors import SynthError, SynthErrors

ROLES = ("numeric", "categorical")
DEFAULTS: dict[str, Any] = {
    "n_holdout": 5000,
    "n_train": 2000,
    "n_challenge": 400,
    "n_aux": 2000,
    "fpr_levels": [0.1],
    # r_copy_excess_max 0.1 (R_copy against 2,000 members less R_copy against 2,000 holdout
    # rows; Adult, spec sizes, 20 seeds; docs/synthetic.md "Gates"): a verbatim copy +1.00
    # with every column, +0.97 without fnlwgt, +0.48–0.51 on the categorical columns alone;
    # honest releases (a fresh sample of P, the kit's independent marginals) −0.022…+0.018 on
    # each, although a fresh sample's R_copy is 0.49–0.53 on the categorical columns alone.
    "gates": {"u_ml_min": 0.8, "u_1_max": 0.1, "r_copy_excess_max": 0.1},
    "density_bandwidth": 0.1,
}
KEYS = ("columns", "label", "max_rows", "min_rows", *DEFAULTS)
GATE_KEYS = ("u_ml_min", "u_1_max", "r_copy_excess_max")
# A gate's key in rounds stored before it was renamed -> its key now.
LEGACY_GATE_KEYS = {"r_copy_max": "r_copy_excess_max"}


@dataclass(frozen=True)
class SynthConfig:
    """A checked configuration; see the module's docstring for each field."""

    columns: tuple[str, ...]
    roles: Mapping[str, str]
    label: str
    n_holdout: int
    n_train: int
    n_challenge: int
    n_aux: int
    max_rows: int
    min_rows: int
    fpr_levels: tuple[float, ...]
    u_ml_min: float
    u_1_max: float
    r_copy_excess_max: float
    density_bandwidth: float

    @property
    def numeric(self) -> tuple[str, ...]:
        return tuple(c for c in self.columns if self.roles[c] == "numeric")

    @property
    def categorical(self) -> tuple[str, ...]:
        return tuple(c for c in self.columns if self.roles[c] == "categorical")

    @property
    def features(self) -> tuple[str, ...]:
        """The columns the utility model learns from: all but the label."""
        return tuple(c for c in self.columns if c != self.label)

    @property
    def headline(self) -> str:
        """The matrix's and rankings' number: ``TPR@FPR`` at the first level."""
        return tpr_key(self.fpr_levels[0])

    def as_dict(self) -> dict[str, Any]:
        """The configuration as JSON data that :func:`parse_config` reads back."""
        return {
            "columns": {c: self.roles[c] for c in self.columns},
            "label": self.label,
            "n_holdout": self.n_holdout,
            "n_train": self.n_train,
            "n_challenge": self.n_challenge,
            "n_aux": self.n_aux,
            "max_rows": self.max_rows,
            # Only when set: a toolkit made before the key refuses it in config.json and
            # population.json, and a round without a least number reads as it did then.
            **({"min_rows": self.min_rows} if self.min_rows != 1 else {}),
            "fpr_levels": list(self.fpr_levels),
            "gates": {
                "u_ml_min": self.u_ml_min,
                "u_1_max": self.u_1_max,
                "r_copy_excess_max": self.r_copy_excess_max,
            },
            "density_bandwidth": self.density_bandwidth,
        }


def tpr_key(level: float) -> str:
    """The score's name of ``TPR@FPR`` at ``level``: ``tpr@0.1``."""
    return f"tpr@{level:g}"


def bad_value(key: str, expected: dict, value: Any) -> SynthError:
    """``key`` holds ``value`` where ``expected`` (an ``expect.*`` message) was wanted."""
    return SynthError("syn.config.bad_value", key=key, expected=expected, value=value)


def _integer(data: Mapping[str, Any], key: str, *, low: int) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise bad_value(
            key,
            expect("integer_at_least", low=low),
            clip(value),
        )
    return value


def _fraction(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise bad_value(key, expect("number"), clip(value))
    return float(value)


def parse_config(data: Any, header: Sequence[str] | None = None) -> SynthConfig:
    """Check a round's settings (and, given ``header``, that they fit the original table).

    Raises
    ------
    SynthError
        Naming the key and the value at fault: every one found (a ``SynthErrors`` when there
        are several).
    """
    data = _known_keys(data)
    # Each key is checked on its own, in this order, and every error found is reported at
    # once (a ``SynthErrors`` when there are several); a check that needs another key's
    # value (the challenge set's size against the training table's) waits until it is right.
    checks = ConfigChecks(SynthError, SynthErrors)
    names, roles, label = checks.run(_columns, data, header, default=((), {}, ""))
    n_holdout = checks.run(_integer, data, "n_holdout", low=1)
    n_train = checks.run(_integer, data, "n_train", low=2)
    n_challenge = checks.run(_integer, data, "n_challenge", low=4)
    if n_train is not None and n_challenge is not None:
        checks.run(_challenge_fits, n_challenge, n_train)
    n_aux = checks.run(_integer, data, "n_aux", low=1)
    if "max_rows" not in data and n_train is not None:
        data["max_rows"] = 3 * n_train
    max_rows = checks.run(_integer, data, "max_rows", low=1) if "max_rows" in data else None
    min_rows = checks.run(_min_rows, data.get("min_rows", 1), max_rows) if max_rows else None
    fpr_levels = checks.run(_fpr_levels, data["fpr_levels"])
    gates = _gate_values(data["gates"], checks)
    density_bandwidth = checks.run(_bandwidth, data["density_bandwidth"])
    checks.raise_found()
    return SynthConfig(
        columns=names,
        roles=roles,
        label=label,
        n_holdout=n_holdout,
        n_train=n_train,
        n_challenge=n_challenge,
        n_aux=n_aux,
        max_rows=max_rows,
        min_rows=min_rows,
        fpr_levels=fpr_levels,
        u_ml_min=gates["u_ml_min"],
        u_1_max=gates["u_1_max"],
        r_copy_excess_max=gates["r_copy_excess_max"],
        density_bandwidth=density_bandwidth,
    )


def _challenge_fits(n_challenge: int, n_train: int) -> None:
    """The challenge set: a multiple of 4, half of it members, so at most 2 × ``n_train``."""
    if n_challenge % 4 or n_challenge // 2 > n_train:
        raise bad_value(
            "n_challenge", expect("challenge_size_train", most=2 * n_train), n_challenge
        )


def _min_rows(value: Any, max_rows: int) -> int:
    """The fewest rows of a release: from 1 to ``max_rows``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= max_rows:
        raise bad_value("min_rows", expect("integer_range", low=1, high=max_rows), clip(value))
    return value


def _bandwidth(value: Any) -> float:
    bandwidth = _fraction(value, "density_bandwidth")
    if bandwidth <= 0:
        raise bad_value(
            "density_bandwidth",
            expect("positive_number"),
            clip(value),
        )
    return bandwidth


def _gate_values(raw: Any, checks: ConfigChecks) -> dict[str, float | None]:
    """The three gates as numbers (the copy gate under its current name), each checked on
    its own: a gate at fault is ``None``, its error kept in ``checks``, and hides no other.
    ``U_1`` and the copy excess are shares, so their bounds are too: a ``u_1_max`` below 0
    would rank no release. ``U_ML`` is never below 0: a ``u_ml_min`` below 0 would say a
    gate and gate nothing (0 is the bound that gates nothing)."""
    gates, copy_key = checks.run(_gates, raw, default=(None, None))
    if gates is None:
        return dict.fromkeys(GATE_KEYS)
    return {
        "u_ml_min": checks.run(_non_negative, gates["u_ml_min"], "gates.u_ml_min"),
        "u_1_max": checks.run(_share, gates["u_1_max"], "gates.u_1_max"),
        "r_copy_excess_max": checks.run(_share, gates[copy_key], f"gates.{copy_key}"),
    }


def _non_negative(value: Any, key: str) -> float:
    number = _fraction(value, key)
    if number < 0:
        raise bad_value(key, expect("non_negative_number"), clip(value))
    return number


def _share(value: Any, key: str) -> float:
    share = _fraction(value, key)
    if not 0 <= share <= 1:
        raise bad_value(key, expect("share"), clip(value))
    return share


def _known_keys(data: Any) -> dict:
    """The settings object, only known keys, ``columns`` and ``label`` given; the defaults
    filled in."""
    if not isinstance(data, Mapping):
        raise SynthError("syn.config.not_object")
    for key in data:
        if key not in KEYS:
            raise SynthError("syn.config.unknown_key", key=clip(key), known=", ".join(KEYS))
    for key in ("columns", "label"):
        if key not in data:
            raise SynthError("syn.config.missing_key", key=key)
    return {**DEFAULTS, **data}


def _columns(data: dict, header: Sequence[str] | None) -> tuple[tuple[str, ...], dict, str]:
    """The columns' names (the original's header, in order), their roles, and the label: a
    categorical column."""
    columns = data["columns"]
    if not isinstance(columns, Mapping) or not columns:
        raise bad_value(
            "columns",
            expect("column_roles"),
            clip(columns),
        )
    for column, role in columns.items():
        if not isinstance(role, str) or role not in ROLES:  # a list or an object: no role
            raise SynthError("syn.config.role", column=clip(column), value=clip(role))
    names = tuple(str(c) for c in columns)
    if header is not None and list(names) != list(header):
        raise SynthError(
            "syn.config.columns", configured=", ".join(names), header=", ".join(header)
        )
    label = data["label"]
    if not isinstance(label, str) or label not in columns or columns[label] != "categorical":
        raise SynthError("syn.config.label", label=clip(label))
    return names, {str(c): r for c, r in columns.items()}, str(label)


def _fpr_levels(levels: Any) -> tuple[float, ...]:
    """The false-positive rates the attacks' TPR is read at: distinct, between 0 and 1."""
    if not isinstance(levels, list) or not levels:
        raise bad_value(
            "fpr_levels",
            expect("numbers"),
            clip(levels),
        )
    fpr_levels = tuple(_fraction(level, "fpr_levels") for level in levels)
    if any(not 0 < level < 1 for level in fpr_levels) or len(set(fpr_levels)) < len(fpr_levels):
        raise bad_value(
            "fpr_levels",
            expect("distinct_rates"),
            clip(levels),
        )
    return fpr_levels


def _gates(gates: Any) -> tuple[dict, str]:
    """The utility and copy gates with their defaults, and the key the copy gate has (a
    round stored before the gate measured the excess has ``r_copy_max``)."""
    if not isinstance(gates, Mapping) or set(gates) - {*GATE_KEYS, *LEGACY_GATE_KEYS}:
        raise bad_value(
            "gates",
            expect("object_with", keys="u_ml_min, u_1_max, r_copy_excess_max"),
            clip(gates),
        )
    copy_key = "r_copy_excess_max"
    if copy_key not in gates and "r_copy_max" in gates:
        copy_key = "r_copy_max"
    return {**DEFAULTS["gates"], **gates}, copy_key
