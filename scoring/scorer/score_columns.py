"""The score columns of a scorer round's settings (``release_columns``, ``attack_columns`` and
their primaries) and the refusals every check of the settings words alike
(:mod:`scoring.scorer.round_config` reads the whole settings with them)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import ConfigChecks
from scoring.messages import clip, expect
from scoring.scorer.errors import ScorerError, ScorerErrors

COLUMN_KEYS = ("key", "label", "label_ja", "higher_is_better")
COLUMN_KEY = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")
MAX_COLUMNS = 20
MAX_LABEL_CHARS = 60
DEFAULT_COLUMN = {"key": "score", "label": "Score", "label_ja": "スコア", "higher_is_better": True}
# The names a round total's formula gives the ranking program's two numbers per team (its
# ``release`` and ``attack`` under ``targets``), by the program's key: no release column may
# take one (``reserved_keys_check``), so a formula's name means one number.
PROGRAM_NAMES = {"release": "ranked_release", "attack": "ranked_attack"}


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


def refuse(key: str, value: Any, expected: dict):
    """Refuse ``key``'s ``value``; ``expected`` is what it should be, an ``expect(...)``."""
    raise ScorerError("scorer.config.value", key=key, value=repr(clip(value)), expected=expected)


def known_keys(data: Mapping, keys: tuple[str, ...], prefix: str) -> None:
    for key in data:
        if key not in keys:
            raise ScorerError(
                "scorer.config.unknown", key=repr(clip(f"{prefix}{key}")), known=", ".join(keys)
            )


def is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def read_columns(data: Mapping, key: str) -> tuple[ScoreColumn, ...]:
    """The columns of ``key`` (one ``score`` column by default). Each entry is checked on
    its own: every faulty entry is refused at once (``ScorerErrors``), each named by its
    position from 1 (its first fault)."""
    entries = data.get(key, [DEFAULT_COLUMN])
    if not isinstance(entries, list) or not 1 <= len(entries) <= MAX_COLUMNS:
        refuse(key, entries, expect("column_list", most=MAX_COLUMNS))
    checks = ConfigChecks(ScorerError, ScorerErrors)
    columns: list[ScoreColumn] = []
    for number, entry in enumerate(entries, start=1):
        column = checks.run(_column, entry, f"{key}[{number}]")
        if column is not None and any(known.key == column.key for known in columns):
            checks.run(_duplicate, key, column.key)
        elif column is not None:
            columns.append(column)
    checks.raise_found()
    return tuple(columns)


def _column(entry: Any, where: str) -> ScoreColumn:
    """One score column, ``where`` (``release_columns[2]``) in its messages."""
    if not isinstance(entry, Mapping) or "key" not in entry:
        refuse(where, entry, expect("score_column"))
    known_keys(entry, COLUMN_KEYS, f"{where}.")
    name = entry["key"]
    if not isinstance(name, str) or not COLUMN_KEY.match(name):
        refuse(f"{where}.key", name, expect("column_key", most=64))
    label = _label(entry.get("label", name), f"{where}.label")
    label_ja = _label(entry.get("label_ja", label), f"{where}.label_ja")
    higher = entry.get("higher_is_better", True)
    if not isinstance(higher, bool):
        refuse(f"{where}.higher_is_better", higher, expect("boolean"))
    return ScoreColumn(name, label, label_ja, higher)


def _duplicate(key: str, name: str):
    raise ScorerError("scorer.config.duplicate", key=key, value=repr(name))


def reserved_keys_check(columns: tuple[ScoreColumn, ...], key: str) -> None:
    """Refuse a column of ``key`` (``release_columns``) keyed by one of ``PROGRAM_NAMES``:
    checked when the settings are saved, not when stored settings are read back.

    Examples
    --------
    >>> reserved_keys_check((ScoreColumn("U", "U", "U", True),), "release_columns")
    >>> reserved_keys_check((ScoreColumn("ranked_release", "R", "R", True),), "release_columns")
    Traceback (most recent call last):
    ...
    scoring.scorer.errors.ScorerError: The round's setting release_columns[1].key is 'ranked_release': that name is the ranking program's release number in a round total's formula; choose another key.
    """
    codes = {
        PROGRAM_NAMES["release"]: "scorer.config.reserved_release",
        PROGRAM_NAMES["attack"]: "scorer.config.reserved_attack",
    }
    for number, column in enumerate(columns, start=1):
        if column.key in codes:
            raise ScorerError(codes[column.key], key=f"{key}[{number}].key", value=repr(column.key))


def _label(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_LABEL_CHARS:
        refuse(key, value, expect("text_length", most=MAX_LABEL_CHARS))
    return value.strip()


def read_primary(data: Mapping, key: str, columns: tuple[ScoreColumn, ...]) -> str:
    """The primary ``key``: one of ``columns`` (the first by default)."""
    value = data.get(key, columns[0].key)
    if not any(column.key == value for column in columns):
        raise ScorerError(
            "scorer.config.column",
            key=key,
            value=repr(clip(value)),
            columns=", ".join(column.key for column in columns),
        )
    return value
