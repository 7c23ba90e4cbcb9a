"""The settings of a round whose game is the organizer's scoring program, and their one check.

Every key is optional; :meth:`ScorerRoundConfig.as_dict` gives them all, normalized, for the
round to store (and :func:`parse_round_config` reads that back unchanged).

``release_columns``  the release's scores shown on the leaderboard, in order: a list of
                     ``{"key", "label", "label_ja", "higher_is_better"}`` (1–20, keys unique and
                     of ``[A-Za-z0-9_.@-]{1,64}``, labels of at most 60 characters; ``label``
                     defaults to the key, ``label_ja`` to ``label``, ``higher_is_better`` to
                     true). Default: one column ``score`` ("Score", "スコア", higher is better).
                     A key that is a name of the ranking program's numbers in a round total
                     (``ranked_release``, ``ranked_attack``) is refused when the settings are
                     saved (:func:`scoring.scorer.score_columns.reserved_keys_check`).
``release_primary``  the key of the release column that ranks releases (default: the first).
``public_columns``   the keys of the release columns every team sees of every team's counted
                     release while the phases run (the public board; PWSCup 2024's sample
                     anonymity), in the board's order, the first ranking it; each a release
                     column, at most once. Default none: a release's scores are its team's until
                     the results are published.
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
``unattacked``       the attack primary score a target not attacked counts as, for every other
                     team in the round, in the release's protection and in each attacker's power
                     (PWSCup 2019: 0, a privacy of 1); ``None`` (default): such a target is
                     missing, as the two rules above say.
``release_rank``     ``primary`` (default; the release primary score), ``protection``, or
                     ``rank_sum`` (the sum of both ranks, ties broken by the primary score).
``visibility``       what a team sees of its own attack scores while the attack phase runs:
                     ``exact`` (default), ``band`` (the band of ``bands`` it falls in) or
                     ``hidden``.
``bands``            1–9 strictly ascending thresholds ([0.25, 0.5, 0.75]).
``gates``            at most 10 ``{"key": release column, "min": number}`` or ``{"key": …,
                     "max": number}``: a release failing one is ranked after every release
                     passing them all (it is kept, not removed). Default none.
``attack_counts``    which of an attacker's scored uploads counts on a target: ``best`` (default;
                     its best primary score there), ``last`` (its newest upload scoring that
                     target) or ``chosen`` (the one the team selected, else its newest).
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
``attack_withdrawal``
                     ``off`` (default) or ``until_published``: a team may withdraw its own
                     attack uploads (they then count nowhere) until the round's results are
                     published (PWSCup 2017's re-identification files).
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

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from scoring.errors import ConfigChecks
from scoring.messages import clip, expect
from scoring.scorer.errors import ScorerError, ScorerErrors
from scoring.scorer.limits import SandboxLimits
from scoring.scorer.score_columns import DEFAULT_COLUMN as DEFAULT_COLUMN  # the form's
from scoring.scorer.score_columns import (
    MAX_COLUMNS,
    ScoreColumn,
    is_number,
    known_keys,
    read_columns,
    read_primary,
    refuse,
)
from scoring.scorer.upload_files import FileRule, parse_file_rule

KEYS = (
    "release_columns",
    "release_primary",
    "public_columns",
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
    "unattacked",
    "attack_counts",
    "attack_withdrawal",
)
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
    "attack_counts": ("best", "last", "chosen"),
    "attack_withdrawal": ("off", "until_published"),
}
DEFAULT_TOP_N = 5
DEFAULT_BANDS = (0.25, 0.5, 0.75)
# limit -> (low, high, default)
LIMITS: dict[str, tuple[int, int, int]] = {
    "timeout_seconds": (1, 86_400, 300),
    "memory_mb": (64, 262_144, 2_048),
    "processes": (8, 4_096, 256),
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
    unattacked: float | None = None
    public_columns: tuple[str, ...] = ()
    attack_counts: str = "best"
    attack_withdrawal: str = "off"

    @property
    def release_primary_column(self) -> ScoreColumn:
        return next(c for c in self.release_columns if c.key == self.release_primary)

    @property
    def public_release_columns(self) -> tuple[ScoreColumn, ...]:
        """The release columns of the public board, in its order (the first ranks it)."""
        by_key = {column.key: column for column in self.release_columns}
        return tuple(by_key[key] for key in self.public_columns)

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
            "public_columns": list(self.public_columns),
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
            "unattacked": self.unattacked,
            "attack_counts": self.attack_counts,
            "attack_withdrawal": self.attack_withdrawal,
        }


def parse_round_config(data: Mapping[str, Any]) -> ScorerRoundConfig:
    """Check a round's settings and fill in the defaults. Each key is checked on its own and
    every error found is raised at once; a check needing another key (a primary its
    columns, the gates the release columns) waits while that key is wrong.

    Raises
    ------
    ScorerError
        ``scorer.config.*``, naming the key and the value at fault (``ScorerErrors``: several,
        in the order checked).
    """
    if not isinstance(data, Mapping):
        raise ScorerError("scorer.config.not_object")
    checks = ConfigChecks(ScorerError, ScorerErrors)
    for key in data:
        checks.run(known_keys, {key: None}, KEYS, "")
    read = {}
    for side in ("release", "attack"):
        columns = read[f"{side}_columns"] = checks.run(read_columns, data, f"{side}_columns")
        if columns is not None:
            read[f"{side}_primary"] = checks.run(read_primary, data, f"{side}_primary", columns)
    read.update({key: checks.run(_choice, data, key) for key in CHOICES})
    read["top_n"] = checks.run(_top_n, data.get("top_n", DEFAULT_TOP_N))
    read["bands"] = checks.run(_bands, data.get("bands", list(DEFAULT_BANDS)))
    read["unattacked"] = checks.run(_unattacked, data.get("unattacked"))
    if read["release_columns"] is not None:
        read["gates"] = checks.run(_gates, data.get("gates", []), read["release_columns"])
        public = data.get("public_columns", [])
        read["public_columns"] = checks.run(_public_columns, public, read["release_columns"])
    read.update(_limits(checks, data.get("limits", {})))
    for key in ("release_files", "attack_files"):
        read[key] = checks.run(parse_file_rule, data.get(key, {}), key=key)
    checks.raise_found()
    return ScorerRoundConfig(**read)


def _public_columns(value: Any, columns: tuple[ScoreColumn, ...]) -> tuple[str, ...]:
    """The public board's release column keys: each a release column, at most once."""
    if (
        not isinstance(value, list)
        or len(value) > MAX_COLUMNS
        or not all(isinstance(key, str) for key in value)
    ):
        refuse("public_columns", value, expect("key_list", most=MAX_COLUMNS))
    for key in value:
        read_primary({"public_columns": key}, "public_columns", columns)
    for key in {key for key in value if value.count(key) > 1}:
        raise ScorerError("scorer.config.duplicate", key="public_columns", value=repr(key))
    return tuple(value)


def _top_n(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        refuse("top_n", value, expect("integer_range", low=1, high=1000))
    return value


def _unattacked(value: Any) -> float | None:
    if value is not None and not is_number(value):
        refuse("unattacked", value, expect("number"))
    return None if value is None else float(value)


def _limits(checks: ConfigChecks, limits: Any) -> dict[str, int | float]:
    """The sandbox's limits (``limits``), each checked on its own in ``checks``."""
    if not isinstance(limits, Mapping):
        checks.run(refuse, "limits", limits, expect("object_with", keys=", ".join(LIMITS)))
        return {}
    for key in limits:
        checks.run(known_keys, {key: None}, tuple(LIMITS), "limits.")
    return {
        key: checks.run(_limit, limits, key, integer=key != "timeout_seconds") for key in LIMITS
    }


def _choice(data: Mapping, key: str) -> str:
    allowed = CHOICES[key]
    value = data.get(key, allowed[0])
    if value not in allowed:
        refuse(key, value, expect("choice", choices=", ".join(allowed)))
    return value


def _bands(value: Any) -> tuple[float, ...]:
    expected = expect("ascending_numbers", most=MAX_BANDS)
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_BANDS:
        refuse("bands", value, expected)
    if not all(is_number(v) for v in value) or any(a >= b for a, b in pairwise(value)):
        refuse("bands", value, expected)
    return tuple(float(v) for v in value)


def _gates(value: Any, columns: tuple[ScoreColumn, ...]) -> tuple[Gate, ...]:
    """The gates; every faulty entry is refused at once, each named by its position."""
    if not isinstance(value, list) or len(value) > MAX_GATES:
        refuse("gates", value, expect("gate_list", most=MAX_GATES))
    checks = ConfigChecks(ScorerError, ScorerErrors)
    gates = [checks.run(_gate, entry, number, columns) for number, entry in enumerate(value, 1)]
    checks.raise_found()
    return tuple(gates)


def _gate(entry: Any, number: int, columns: tuple[ScoreColumn, ...]) -> Gate:
    where = f"gates[{number}]"
    bounds = [b for b in ("min", "max") if isinstance(entry, Mapping) and b in entry]
    if not isinstance(entry, Mapping) or "key" not in entry or len(bounds) != 1:
        refuse(where, entry, expect("gate"))
    known_keys(entry, ("key", bounds[0]), f"{where}.")
    if not any(column.key == entry["key"] for column in columns):
        raise ScorerError(
            "scorer.config.column",
            key=f"{where}.key",
            value=repr(clip(entry["key"])),
            columns=", ".join(column.key for column in columns),
        )
    bound = entry[bounds[0]]
    if not is_number(bound):
        refuse(f"{where}.{bounds[0]}", bound, expect("number"))
    return Gate(entry["key"], bounds[0], float(bound))


def _limit(limits: Mapping, key: str, *, integer: bool) -> int | float:
    low, high, default = LIMITS[key]
    value = limits.get(key, default)
    if not is_number(value) or (integer and not isinstance(value, int)) or not low <= value <= high:
        bounds = {"low": f"{low:,}", "high": f"{high:,}"}
        expected = (
            expect("integer_range", **bounds) if integer else expect("number_range", **bounds)
        )
        refuse(f"limits.{key}", value, expected)
    return value
