"""Round configuration: column roles and domains (metrics.md "Round configuration")."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from scoring.bounded_json import loads_bounded
from scoring.columns import Table, as_table
from scoring.errors import ConfigError
from scoring.indicator_config import IndicatorConfig, load_indicators
from scoring.messages import clip, quoted

ORIGINAL_VALUES = "original-values"
NUMBER = "number"
DOMAIN_KINDS = (ORIGINAL_VALUES, NUMBER)

_REQUIRED_KEYS = ("qi", "sa", "cross", "e2_column", "e4_column")
_OPTIONAL_KEYS = ("match_qi", "euc_sa", "domains", "columns", "integer_columns", "indicators")


@dataclass(frozen=True)
class RoundConfig:
    """Column roles of one round, checked against its original table.

    Build it with :func:`load_config`; ``to_dict()`` round-trips through it.

    ``integer_columns`` are the value-compared columns (``qi`` and ``original-values``)
    whose original values are all integers: there ``39``, ``39.0`` and ``+39`` are the
    same value (metrics.md, "Data and roles"). It is decided once, on the original
    table of the round (the master table in the per-team mode), and carried by the
    configuration to validation, every metric and the built-in attacks, so that a
    sample or a candidate table with other values cannot change it.
    """

    columns: tuple[str, ...]
    qi: tuple[str, ...]
    sa: tuple[str, ...]
    cross: tuple[str, ...]
    e2_column: str
    e4_column: str
    match_qi: tuple[str, ...]
    euc_sa: tuple[str, ...]
    domains: Mapping[str, str] = field(default_factory=dict)
    integer_columns: tuple[str, ...] = ()
    indicators: IndicatorConfig | None = None

    def __reduce__(self):
        """Pickle ``domains`` as a plain dict (a read-only view cannot be pickled): worker
        hosts keep prepared originals, with their configuration, on disk."""
        state = {item.name: getattr(self, item.name) for item in fields(self)}
        return _round_config, ({**state, "domains": dict(self.domains)},)

    def to_dict(self) -> dict:
        """Return the configuration as a JSON-serialisable dict."""
        extra = {} if self.indicators is None else {"indicators": self.indicators.to_dict()}
        return extra | {
            "columns": list(self.columns),
            "qi": list(self.qi),
            "sa": list(self.sa),
            "cross": list(self.cross),
            "e2_column": self.e2_column,
            "e4_column": self.e4_column,
            "match_qi": list(self.match_qi),
            "euc_sa": list(self.euc_sa),
            "domains": {column: self.domains[column] for column in self.columns},
            "integer_columns": list(self.integer_columns),
        }


def _round_config(state: dict) -> RoundConfig:
    """A pickled :class:`RoundConfig` again, its ``domains`` read-only as built."""
    return RoundConfig(**{**state, "domains": MappingProxyType(state["domains"])})


def value_columns(config: RoundConfig) -> tuple[str, ...]:
    """Columns compared as values (not as numbers): every ``qi`` and ``original-values`` one."""
    return tuple(
        c for c in config.columns if c in config.qi or config.domains[c] == ORIGINAL_VALUES
    )


def integer_valued_columns(original: Table | pd.DataFrame, config: RoundConfig) -> tuple[str, ...]:
    """The value-compared columns of ``original`` whose values are all integers.

    Examples
    --------
    >>> x = pd.DataFrame({"q": ["1", "2.0"], "t": ["a", "b"], "s": ["5", "7.5"]})
    >>> config = load_config({"qi": ["q", "t"], "sa": ["s"], "cross": [],
    ...                       "e2_column": "s", "e4_column": "s"}, x)
    >>> integer_valued_columns(x, config)
    ('q',)
    """
    table = as_table(original)
    return tuple(c for c in value_columns(config) if table.column(c).is_integral())


def _parse_raw(raw: Any) -> dict:
    if isinstance(raw, Mapping):
        return dict(raw)
    if isinstance(raw, bytes | bytearray):
        text = bytes(raw).decode("utf-8-sig", errors="replace")
    elif isinstance(raw, str) and raw.lstrip().startswith("{"):
        text = raw
    elif isinstance(raw, str | os.PathLike):
        try:
            with open(raw, encoding="utf-8-sig") as handle:
                text = handle.read()
        except OSError as exc:
            raise ConfigError(f"Cannot read the configuration file: {exc}") from exc
    else:
        raise ConfigError(f"A configuration must be a JSON object, not {type(raw).__name__}.")
    parsed = loads_bounded(text)
    if not isinstance(parsed, dict):
        raise ConfigError("The configuration must be a JSON object.")
    return parsed


def _column_list(value: Any, key: str, columns: tuple[str, ...], *, allow_empty: bool) -> tuple:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ConfigError("config.not_column_list", key=key)
    if not value and not allow_empty:
        raise ConfigError("config.no_column", key=key)
    duplicates = sorted({v for v in value if list(value).count(v) > 1})
    if duplicates:
        raise ConfigError("config.duplicate_columns", key=key, columns=quoted(duplicates))
    unknown = [v for v in value if v not in columns]
    if unknown:
        raise ConfigError("config.unknown_columns", key=key, columns=quoted(unknown))
    return tuple(value)


def _column_name(value: Any, key: str, allowed: tuple[str, ...], role: str) -> str:
    if not isinstance(value, str):
        raise ConfigError("config.not_column_name", key=key)
    if value not in allowed:
        raise ConfigError("config.not_in_role", key=key, role=role, value=clip(value))
    return value


def _subset(values: tuple, key: str, allowed: tuple, role: str) -> tuple:
    outside = [v for v in values if v not in allowed]
    if outside:
        raise ConfigError("config.not_subset", key=key, role=role, columns=quoted(outside))
    return values


def _check_numeric(original: Table, sa: tuple[str, ...], domains: dict) -> None:
    numeric = list(sa) + [c for c, kind in domains.items() if kind == NUMBER and c not in sa]
    for column in numeric:
        key = "sa" if column in sa else f"domains.{column}"
        bad = np.flatnonzero(~np.isfinite(original.column(column).numbers()))
        if bad.size:
            row = int(bad[0])
            raise ConfigError(
                "config.not_numeric",
                key=key,
                column=clip(column),
                row=row + 1,
                value=clip(original.column(column).values(bad[:1])[0]),
                total=int(bad.size),
            )


def decide_integer_columns(config: RoundConfig, original: Table | pd.DataFrame) -> RoundConfig:
    """``config`` with ``integer_columns`` decided on ``original``, whatever it said before.

    The platform calls it once per round, on the round's original (the master table in
    the per-team mode), and stores the result with the round.

    Examples
    --------
    >>> x = pd.DataFrame({"q": ["1", "2"], "s": ["5", "7"]})
    >>> raw = {"qi": ["q"], "sa": ["s"], "cross": [], "e2_column": "s", "e4_column": "s",
    ...        "integer_columns": []}
    >>> decide_integer_columns(load_config(raw, x), x).integer_columns
    ('q',)
    """
    return replace(config, integer_columns=integer_valued_columns(original, config))


def load_config(raw: Any, original: Table | pd.DataFrame) -> RoundConfig:
    """Parse and check a round configuration against its original table.

    Parameters
    ----------
    raw : dict, JSON str, bytes or path
        The configuration (metrics.md "Round configuration"). An ``integer_columns``
        list, when present, is the round's decision made on its original (as
        ``to_dict()`` writes it) and is kept as is; when absent it is decided on
        ``original``.
    original : pandas.DataFrame
        The original table X as returned by :func:`scoring.read_table`.

    Returns
    -------
    RoundConfig

    Raises
    ------
    ConfigError
        One message naming the offending key.

    Examples
    --------
    >>> x = pd.DataFrame({"q": ["1", "2"], "s": ["5", "7"]})
    >>> load_config({"qi": ["q"], "sa": ["s"], "cross": ["q"],
    ...              "e2_column": "s", "e4_column": "s"}, x).match_qi
    ('q',)
    """
    config = _parse_raw(raw)
    original = as_table(original)
    columns = tuple(str(c) for c in original.columns)
    unknown = [key for key in config if key not in _REQUIRED_KEYS + _OPTIONAL_KEYS]
    if unknown:
        raise ConfigError(f"Unknown configuration key(s): {', '.join(map(repr, unknown))}.")
    for key in _REQUIRED_KEYS:
        if key not in config:
            raise ConfigError("config.missing_key", key=key)
    if config.get("columns") is not None and list(config["columns"]) != list(columns):
        raise ConfigError('"columns" does not match the header of the original table.')
    qi = _column_list(config["qi"], "qi", columns, allow_empty=False)
    sa = _column_list(config["sa"], "sa", columns, allow_empty=False)
    overlap = [c for c in qi if c in sa]
    if overlap:
        raise ConfigError("config.overlap", key="sa", columns=quoted(overlap))
    cross = _subset(
        _column_list(config["cross"], "cross", columns, allow_empty=True), "cross", qi, "qi"
    )
    e2_column = _column_name(config["e2_column"], "e2_column", sa, "sa")
    e4_column = _column_name(config["e4_column"], "e4_column", sa, "sa")
    match_qi = config.get("match_qi")
    match_qi = (
        qi
        if match_qi is None
        else _subset(
            _column_list(match_qi, "match_qi", columns, allow_empty=False), "match_qi", qi, "qi"
        )
    )
    euc_sa = config.get("euc_sa")
    euc_sa = (
        sa
        if euc_sa is None
        else _subset(_column_list(euc_sa, "euc_sa", columns, allow_empty=False), "euc_sa", sa, "sa")
    )
    domains = _domains(config.get("domains"), columns, qi, sa)
    _check_numeric(original, sa, domains)
    checked = RoundConfig(
        columns=columns,
        qi=qi,
        sa=sa,
        cross=cross,
        e2_column=e2_column,
        e4_column=e4_column,
        match_qi=match_qi,
        euc_sa=euc_sa,
        domains=MappingProxyType(domains),
        indicators=load_indicators(config.get("indicators"), original, qi=qi),
    )
    given = config.get("integer_columns")
    if given is None:
        return decide_integer_columns(checked, original)
    return replace(checked, integer_columns=_integer_columns(given, original, checked))


def _integer_columns(given: Any, original: Table, config: RoundConfig) -> tuple:
    """A decision made on the round's original, taken as is for the table at hand.

    The table may be a sample or a candidate table of the round's original: a column
    left out stays compared as text even if this table happens to hold only integers,
    and a listed column stays compared as integers even if a decoy holds ``39.5`` (that
    value simply matches no integer). A listed column must hold numbers only.
    """
    allowed = value_columns(config)
    listed = _column_list(given, "integer_columns", config.columns, allow_empty=True)
    outside = [c for c in listed if c not in allowed]
    if outside:
        raise ConfigError(
            '"integer_columns" may only name "qi" or "original-values" columns; '
            f"not one of them: {', '.join(outside)}."
        )
    for column in listed:
        bad = np.flatnonzero(~np.isfinite(original.column(column).numbers()))
        if bad.size:
            value = original.column(column).values(bad[:1])[0]
            raise ConfigError(
                f'"integer_columns": column {column!r} holds a value that is not a number: '
                f"row {int(bad[0]) + 1} holds {str(value)[:80]!r}. "
                'Leave "integer_columns" out to decide it from the original table.'
            )
    return tuple(c for c in allowed if c in listed)


def _domains(raw: Any, columns: tuple, qi: tuple, sa: tuple) -> dict[str, str]:
    domains = {c: (NUMBER if c in sa else ORIGINAL_VALUES) for c in columns}
    if raw is None:
        return domains
    if not isinstance(raw, Mapping):
        raise ConfigError('"domains" must be an object mapping column names to a domain.')
    for column, kind in raw.items():
        if column not in columns:
            raise ConfigError(f'"domains" names a column not in the original table: {column!r}.')
        if kind not in DOMAIN_KINDS:
            raise ConfigError(
                f'"domains.{column}" must be "original-values" or "number", got {kind!r}.'
            )
        domains[column] = kind
    return domains
