"""The settings of a round whose game is the organizer's scoring program, and their one check.

Every key is optional; :meth:`ScorerRoundConfig.as_dict` gives them all, normalized, for the
round to store (and :func:`parse_round_config` reads that back unchanged).

``release_columns``  the release's scores shown on the leaderboard, in order: a list of
                     ``{"key", "label", "label_ja", "higher_is_better"}`` (1–20, keys unique and
                     of ``[A-Za-z0-9_.@-]{1,64}``, labels of at most 60 characters; ``label``
                     defaults to the key, ``label_ja`` to ``label``, ``higher_is_better`` to
                     true). Default: one column ``score`` ("Score", "スコア", higher is better).
``release_primary``  the key of the release column that ranks releases (default: the first).
``attack_columns``, ``attack_primary``
                     the same for an attack's scores. The attack primary is the attacker's
                     success: higher is better for the attacker when its column says so.
``attack_mode``      ``per_target`` (one upload per target; default) or ``all_targets`` (one
                     upload covers every target; its ``scores.json`` carries ``targets``).
``protection_rule``  a release's protection from the attacks on it: ``worst`` (default; the
                     attackers' best primary score against it) or ``mean`` (over the attackers
                     who attacked it). A release nobody attacked has none.
``power_rule``       an attacker's power: ``mean`` (default; its mean primary score over the
                     targets it attacked: a target it did not attack is missing, neither a zero
                     nor the worst value) or ``top_n`` (the same mean over the ``top_n`` best
                     releases by the release primary only).
``top_n``            N of ``top_n`` (5; 1–1000).
``release_rank``     ``primary`` (default; the release primary score), ``protection``, or
                     ``rank_sum`` (the sum of both ranks, ties broken by the primary score).
``visibility``       what a team sees of its own attack scores while the attack phase runs:
                     ``exact`` (default), ``band`` (the band of ``bands`` it falls in) or
                     ``hidden``.
``bands``            1–9 strictly ascending thresholds ([0.25, 0.5, 0.75]).
``gates``            at most 10 ``{"key": release column, "min": number}`` or ``{"key": …,
                     "max": number}``: a release failing one is ranked after every release
                     passing them all (it is kept, not removed). Default none.
``ranking``          who ranks: ``rules`` (default; the rules above) or ``program`` (the
                     program's ``ranking_command``, run on request with every frozen release's
                     scores and the matrix, gives each team its ``release`` and ``attack``
                     score, ranked in the primary columns' directions).
``release_files``    the files a release must hold: ``{"required": [names or glob patterns],
                     "only_required": false}`` (0–20 patterns, each a relative path in the
                     upload: ``release.csv``, ``*.csv``, ``data/*.json``; ``only_required``:
                     no other file is accepted). Checked when a team uploads, by
                     :func:`scoring.scorer.upload_files.files_check`. Default: none required.
``attack_files``     the same for an attack.
``limits``           the sandbox's ``{"timeout_seconds": 1–86400 (300), "memory_mb": 64–262144
                     (2048), "processes": 8–4096 (256)}``.

Examples
--------
>>> config = parse_round_config({"release_columns": [
...     {"key": "utility", "label": "Utility", "label_ja": "有用性", "higher_is_better": True}]})
>>> config.release_primary, config.attack_primary, config.power_rule, config.bands
('utility', 'score', 'mean', (0.25, 0.5, 0.75))
>>> config.sandbox_limits().memory_bytes == 2048 * 1024**2
True
>>> parse_round_config(config.as_dict()) == config
True
>>> parse_round_config({"protection_rule": "median"})
Traceback (most recent call last):
...
scoring.scorer.errors.ScorerError: The round's setting protection_rule is 'median'; expected one of worst, mean.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from scoring.messages import clip, expect
from scoring.scorer.errors import ScorerError
from scoring.scorer.limits import SandboxLimits
from scoring.scorer.upload_files import FileRule, parse_file_rule

KEYS = (
    "release_columns",
    "release_primary",
    "attack_columns",
    "attack_primary",
    "attack_mode",
    "protection_rule",
    "power_rule",
    "top_n",
    "release_rank",
    "visibility",
    "bands",
    "gates",
    "limits",
    "ranking",
    "release_files",
    "attack_files",
)
COLUMN_KEYS = ("key", "label", "label_ja", "higher_is_better")
COLUMN_KEY = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
MAX_COLUMNS = 20
MAX_LABEL_CHARS = 60
MAX_GATES = 10
MAX_BANDS = 9
# key -> (the allowed values, the first being the default)
CHOICES = {
    "attack_mode": ("per_target", "all_targets"),
    "protection_rule": ("worst", "mean"),
    "power_rule": ("mean", "top_n"),
    "release_rank": ("primary", "protection", "rank_sum"),
    "visibility": ("exact", "band", "hidden"),
    "ranking": ("rules", "program"),
}
DEFAULT_COLUMN = {"key": "score", "label": "Score", "label_ja": "スコア", "higher_is_better": True}
DEFAULT_TOP_N = 5
DEFAULT_BANDS = (0.25, 0.5, 0.75)
# limit -> (low, high, default)
LIMITS: dict[str, tuple[int, int, int]] = {
    "timeout_seconds": (1, 86_400, 300),
    "memory_mb": (64, 262_144, 2_048),
    "processes": (8, 4_096, 256),
}


@dataclass(frozen=True)
class ScoreColumn:
    """One score shown on a leaderboard."""

    key: str
    label: str
    label_ja: str
    higher_is_better: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "label_ja": self.label_ja,
            "higher_is_better": self.higher_is_better,
        }


@dataclass(frozen=True)
class Gate:
    """A bound on a release score: ``min`` (the score must be ≥) or ``max`` (≤)."""

    key: str
    bound: str  # "min" or "max"
    value: float

    def passes(self, scores: Mapping[str, float]) -> bool:
        """Whether ``scores`` meet the bound (a missing score does not).

        Examples
        --------
        >>> Gate("utility", "min", 50.0).passes({"utility": 50.0})
        True
        >>> Gate("utility", "max", 50.0).passes({"other": 1.0})
        False
        """
        score = scores.get(self.key)
        if score is None:
            return False
        return score >= self.value if self.bound == "min" else score <= self.value

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, self.bound: self.value}


@dataclass(frozen=True)
class ScorerRoundConfig:
    """A checked configuration; see the module's docstring for each field."""

    release_columns: tuple[ScoreColumn, ...]
    release_primary: str
    attack_columns: tuple[ScoreColumn, ...]
    attack_primary: str
    attack_mode: str
    protection_rule: str
    power_rule: str
    top_n: int
    release_rank: str
    visibility: str
    ranking: str
    bands: tuple[float, ...]
    gates: tuple[Gate, ...]
    timeout_seconds: int | float
    memory_mb: int
    processes: int
    release_files: FileRule = FileRule()
    attack_files: FileRule = FileRule()

    @property
    def release_primary_column(self) -> ScoreColumn:
        return next(c for c in self.release_columns if c.key == self.release_primary)

    @property
    def attack_primary_column(self) -> ScoreColumn:
        return next(c for c in self.attack_columns if c.key == self.attack_primary)

    def failed_gates(self, scores: Mapping[str, float]) -> tuple[Gate, ...]:
        """The gates a release of ``scores`` fails (none: it is ranked with the others)."""
        return tuple(gate for gate in self.gates if not gate.passes(scores))

    def files_rule(self, kind: str) -> FileRule:
        """The files an upload of ``kind`` (``release`` or ``attack``) must hold."""
        return self.attack_files if kind == "attack" else self.release_files

    def sandbox_limits(self) -> SandboxLimits:
        """The sandbox's limits of every run of the round (the others at their defaults)."""
        return SandboxLimits(
            timeout_seconds=float(self.timeout_seconds),
            memory_bytes=self.memory_mb * 1024**2,
            processes=self.processes,
        )

    def as_dict(self) -> dict[str, Any]:
        """Every key with its value, as JSON data that :func:`parse_round_config` reads back."""
        return {
            "release_columns": [c.as_dict() for c in self.release_columns],
            "release_primary": self.release_primary,
            "attack_columns": [c.as_dict() for c in self.attack_columns],
            "attack_primary": self.attack_primary,
            "attack_mode": self.attack_mode,
            "protection_rule": self.protection_rule,
            "power_rule": self.power_rule,
            "top_n": self.top_n,
            "release_rank": self.release_rank,
            "visibility": self.visibility,
            "ranking": self.ranking,
            "bands": list(self.bands),
            "gates": [gate.as_dict() for gate in self.gates],
            "limits": {
                "timeout_seconds": self.timeout_seconds,
                "memory_mb": self.memory_mb,
                "processes": self.processes,
            },
            "release_files": self.release_files.as_dict(),
            "attack_files": self.attack_files.as_dict(),
        }


def parse_round_config(data: Mapping[str, Any]) -> ScorerRoundConfig:
    """Check a round's settings and fill in the defaults.

    Raises
    ------
    ScorerError
        ``scorer.config.*``, naming the key and the value at fault.
    """
    if not isinstance(data, Mapping):
        raise ScorerError("scorer.config.not_object")
    _known(data, KEYS, "")
    release_columns = _columns(data, "release_columns")
    attack_columns = _columns(data, "attack_columns")
    release_primary = _primary(data, "release_primary", release_columns)
    attack_primary = _primary(data, "attack_primary", attack_columns)
    choices = {key: _choice(data, key) for key in CHOICES}
    top_n = data.get("top_n", DEFAULT_TOP_N)
    if isinstance(top_n, bool) or not isinstance(top_n, int) or not 1 <= top_n <= 1000:
        _refuse("top_n", top_n, expect("integer_range", low=1, high=1000))
    limits = data.get("limits", {})
    if not isinstance(limits, Mapping):
        _refuse("limits", limits, expect("object_with", keys=", ".join(LIMITS)))
    _known(limits, tuple(LIMITS), "limits.")
    return ScorerRoundConfig(
        release_columns=release_columns,
        release_primary=release_primary,
        attack_columns=attack_columns,
        attack_primary=attack_primary,
        top_n=top_n,
        bands=_bands(data.get("bands", list(DEFAULT_BANDS))),
        gates=_gates(data.get("gates", []), release_columns),
        timeout_seconds=_limit(limits, "timeout_seconds", integer=False),
        memory_mb=_limit(limits, "memory_mb", integer=True),
        processes=_limit(limits, "processes", integer=True),
        release_files=parse_file_rule(data.get("release_files", {}), key="release_files"),
        attack_files=parse_file_rule(data.get("attack_files", {}), key="attack_files"),
        **choices,
    )


def _refuse(key: str, value: Any, expected: dict):
    """Refuse ``key``'s ``value``; ``expected`` is what it should be, an ``expect(...)``."""
    raise ScorerError("scorer.config.value", key=key, value=repr(clip(value)), expected=expected)


def _known(data: Mapping, keys: tuple[str, ...], prefix: str) -> None:
    for key in data:
        if key not in keys:
            raise ScorerError(
                "scorer.config.unknown", key=repr(clip(f"{prefix}{key}")), known=", ".join(keys)
            )


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _columns(data: Mapping, key: str) -> tuple[ScoreColumn, ...]:
    entries = data.get(key, [DEFAULT_COLUMN])
    if not isinstance(entries, list) or not 1 <= len(entries) <= MAX_COLUMNS:
        _refuse(key, entries, expect("column_list", most=MAX_COLUMNS))
    columns: list[ScoreColumn] = []
    for number, entry in enumerate(entries, start=1):
        where = f"{key}[{number}]"
        if not isinstance(entry, Mapping) or "key" not in entry:
            _refuse(where, entry, expect("score_column"))
        _known(entry, COLUMN_KEYS, f"{where}.")
        name = entry["key"]
        if not isinstance(name, str) or not COLUMN_KEY.match(name):
            _refuse(f"{where}.key", name, expect("column_key", most=64))
        if any(column.key == name for column in columns):
            raise ScorerError("scorer.config.duplicate", key=key, value=repr(name))
        label = _label(entry.get("label", name), f"{where}.label")
        label_ja = _label(entry.get("label_ja", label), f"{where}.label_ja")
        higher = entry.get("higher_is_better", True)
        if not isinstance(higher, bool):
            _refuse(f"{where}.higher_is_better", higher, expect("boolean"))
        columns.append(ScoreColumn(name, label, label_ja, higher))
    return tuple(columns)


def _label(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_LABEL_CHARS:
        _refuse(key, value, expect("text_length", most=MAX_LABEL_CHARS))
    return value.strip()


def _primary(data: Mapping, key: str, columns: tuple[ScoreColumn, ...]) -> str:
    value = data.get(key, columns[0].key)
    if not any(column.key == value for column in columns):
        raise ScorerError(
            "scorer.config.column",
            key=key,
            value=repr(clip(value)),
            columns=", ".join(column.key for column in columns),
        )
    return value


def _choice(data: Mapping, key: str) -> str:
    allowed = CHOICES[key]
    value = data.get(key, allowed[0])
    if value not in allowed:
        _refuse(key, value, expect("choice", choices=", ".join(allowed)))
    return value


def _bands(value: Any) -> tuple[float, ...]:
    expected = expect("ascending_numbers", most=MAX_BANDS)
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_BANDS:
        _refuse("bands", value, expected)
    if not all(_is_number(v) for v in value) or any(a >= b for a, b in pairwise(value)):
        _refuse("bands", value, expected)
    return tuple(float(v) for v in value)


def _gates(value: Any, columns: tuple[ScoreColumn, ...]) -> tuple[Gate, ...]:
    if not isinstance(value, list) or len(value) > MAX_GATES:
        _refuse("gates", value, expect("gate_list", most=MAX_GATES))
    gates = []
    for number, entry in enumerate(value, start=1):
        where = f"gates[{number}]"
        bounds = [b for b in ("min", "max") if isinstance(entry, Mapping) and b in entry]
        if not isinstance(entry, Mapping) or "key" not in entry or len(bounds) != 1:
            _refuse(where, entry, expect("gate"))
        _known(entry, ("key", bounds[0]), f"{where}.")
        if not any(column.key == entry["key"] for column in columns):
            raise ScorerError(
                "scorer.config.column",
                key=f"{where}.key",
                value=repr(clip(entry["key"])),
                columns=", ".join(column.key for column in columns),
            )
        bound = entry[bounds[0]]
        if not _is_number(bound):
            _refuse(f"{where}.{bounds[0]}", bound, expect("number"))
        gates.append(Gate(entry["key"], bounds[0], float(bound)))
    return tuple(gates)


def _limit(limits: Mapping, key: str, *, integer: bool) -> int | float:
    low, high, default = LIMITS[key]
    value = limits.get(key, default)
    if (
        not _is_number(value)
        or (integer and not isinstance(value, int))
        or not low <= value <= high
    ):
        bounds = {"low": f"{low:,}", "high": f"{high:,}"}
        expected = (
            expect("integer_range", **bounds) if integer else expect("number_range", **bounds)
        )
        _refuse(f"limits.{key}", value, expected)
    return value
