"""Round configuration: column roles and domains (metrics.md "Round configuration")."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from scoring.bounded_json import load_json_file, loads_bounded
from scoring.columns import Table, as_table
from scoring.errors import ConfigChecks, ConfigError
from scoring.indicator_config import IndicatorConfig, load_indicators
from scoring.messages import ECHO_LIMIT, clip, quoted, quoted_value

ORIGINAL_VALUES = "original-values"
NUMBER = "number"
DOMAIN_KINDS = (ORIGINAL_VALUES, NUMBER)

_REQUIRED_KEYS = ("qi", "sa", "cross", "e2_column", "e4_column")
_OPTIONAL_KEYS = ("match_qi", "euc_sa", "domains", "columns", "integer_columns", "indicators")
# A list of columns echoed in a message is clipped to this many characters.
_LIST_LIMIT = 4 * ECHO_LIMIT


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
        parsed = loads_bounded(bytes(raw).decode("utf-8-sig", errors="replace"))
    elif isinstance(raw, str) and raw.lstrip().startswith("{"):
        parsed = loads_bounded(raw)
    elif isinstance(raw, str | os.PathLike):
        try:  # read as bytes: a file that is not UTF-8 is refused by the JSON reader
            parsed = load_json_file(raw)
        except OSError as exc:
            reason = clip(exc.strerror or exc)
            raise ConfigError(
                "config.unreadable", path=clip(os.fspath(raw)), reason=reason
            ) from exc
    else:
        raise ConfigError("config.not_object", got=quoted_value(raw))
    if not isinstance(parsed, dict):
        raise ConfigError("config.not_object", got=quoted_value(parsed))
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


def _column_name(value: Any, key: str, allowed: tuple[str, ...] | None, role: str) -> str:
    """A column of the role ``role`` (``allowed``; ``None`` while the role is wrong: then
    only the type is checked)."""
    if not isinstance(value, str):
        raise ConfigError("config.not_column_name", key=key)
    if allowed is not None and value not in allowed:
        raise ConfigError("config.not_in_role", key=key, role=role, value=clip(value))
    return value


def _subset(values: tuple, key: str, allowed: tuple, role: str) -> tuple:
    outside = [v for v in values if v not in allowed]
    if outside:
        raise ConfigError("config.not_subset", key=key, role=role, columns=quoted(outside))
    return values


def _header(given: Any, columns: tuple[str, ...]) -> None:
    """``columns``, when given (``to_dict`` writes it), is the original's header."""
    if not isinstance(given, list | tuple) or not all(isinstance(v, str) for v in given):
        raise ConfigError("config.not_column_list", key="columns")
    if list(given) != list(columns):
        raise ConfigError(
            "config.columns_header",
            key="columns",
            given=clip(quoted(given), _LIST_LIMIT),
            header=clip(quoted(columns), _LIST_LIMIT),
        )


def _numeric(original: Table, column: str, key: str) -> None:
    """A column compared as numbers (``sa``, a ``number`` domain) holds numbers only."""
    bad = np.flatnonzero(~np.isfinite(original.column(column).numbers()))
    if bad.size:
        raise ConfigError(
            "config.not_numeric",
            key=key,
            column=clip(column),
            row=int(bad[0]) + 1,
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
        Every error found, each naming the offending key (``params["key"]``): the keys are
        checked one by one and all their errors reported at once (a
        :class:`~scoring.errors.ConfigErrors` when there are several, in the order of the
        checks); a check that needs another key (``cross`` needs ``qi``, ``e2_column``
        needs ``sa``...) waits while that key is wrong.

    Examples
    --------
    >>> x = pd.DataFrame({"q": ["1", "2"], "s": ["5", "7"]})
    >>> load_config({"qi": ["q"], "sa": ["s"], "cross": ["q"],
    ...              "e2_column": "s", "e4_column": "s"}, x).match_qi
    ('q',)
    >>> load_config({"qi": ["q"], "sa": ["x"], "e2_column": "s"}, x)
    Traceback (most recent call last):
    ...
    scoring.errors.ConfigErrors: Missing configuration key "cross".
    Missing configuration key "e4_column".
    "sa" names column(s) not in the original table: 'x'.
    """
    config = _parse_raw(raw)
    original = as_table(original)
    columns = tuple(str(c) for c in original.columns)
    checks = ConfigChecks()
    roles = _roles(config, columns, checks)
    qi, sa = roles["qi"], roles["sa"]
    domains = _domains(config.get("domains"), columns, sa or (), checks)
    # The SA columns hold numbers (once ``sa`` is right), and so do the columns of a
    # ``number`` domain (once ``domains`` is right too).
    if sa is not None:
        numbers = [c for c, kind in (domains or {}).items() if kind == NUMBER and c not in sa]
        for column in (*sa, *numbers):
            key = "sa" if column in sa else f"domains.{column}"
            checks.run(_numeric, original, column, key)
    # The check of an indicator column against the QI waits for a valid ``qi``.
    indicators = checks.run(load_indicators, config.get("indicators"), original, qi=qi or ())
    given = config.get("integer_columns")
    integer_columns = None
    if given is not None:
        listed = checks.run(_column_list, given, "integer_columns", columns, allow_empty=True)
        if None not in (listed, qi, sa, domains):
            allowed = tuple(c for c in columns if c in qi or domains[c] == ORIGINAL_VALUES)
            integer_columns = _integer_columns(listed, original, allowed, checks)
    checks.raise_found()
    checked = RoundConfig(
        columns=columns, **roles, domains=MappingProxyType(domains), indicators=indicators
    )
    if given is None:
        return decide_integer_columns(checked, original)
    return replace(checked, integer_columns=integer_columns)


def _roles(config: dict, columns: tuple[str, ...], checks: ConfigChecks) -> dict:
    """The keys and column roles of ``config`` checked (errors kept in ``checks``): the
    roles' values, ``None`` for a role whose check failed (its dependants wait)."""
    known = _REQUIRED_KEYS + _OPTIONAL_KEYS
    unknown = [key for key in config if key not in known]
    if unknown:
        checks.errors.append(
            ConfigError(
                "config.unknown_keys",
                keys=clip(quoted(unknown), _LIST_LIMIT),
                known=", ".join(known),
            )
        )
    for key in _REQUIRED_KEYS:
        if key not in config:
            checks.errors.append(ConfigError("config.missing_key", key=key))
    if config.get("columns") is not None:
        checks.run(_header, config["columns"], columns)

    def listed(key: str, within: tuple | None, role: str, *, allow_empty: bool):
        """The column list ``key``, within the role's columns (when that role is valid)."""
        value = checks.run(_column_list, config[key], key, columns, allow_empty=allow_empty)
        if value is not None and within is not None:
            return checks.run(_subset, value, key, within, role)
        return value

    qi = listed("qi", None, "", allow_empty=False) if "qi" in config else None
    sa = listed("sa", None, "", allow_empty=False) if "sa" in config else None
    if qi is not None and sa is not None:
        overlap = [c for c in qi if c in sa]
        if overlap:
            checks.errors.append(ConfigError("config.overlap", key="sa", columns=quoted(overlap)))
    roles = {"qi": qi, "sa": sa}
    roles["cross"] = listed("cross", qi, "qi", allow_empty=True) if "cross" in config else None
    for key in ("e2_column", "e4_column"):
        roles[key] = checks.run(_column_name, config[key], key, sa, "sa") if key in config else None
    for key, role, value in (("match_qi", "qi", qi), ("euc_sa", "sa", sa)):
        given = config.get(key)
        roles[key] = value if given is None else listed(key, value, role, allow_empty=False)
    return roles


def _integer_columns(
    listed: tuple, original: Table, allowed: tuple[str, ...], checks: ConfigChecks
) -> tuple:
    """A decision made on the round's original, taken as is for the table at hand.

    The table may be a sample or a candidate table of the round's original: a column
    left out stays compared as text even if this table happens to hold only integers,
    and a listed column stays compared as integers even if a decoy holds ``39.5`` (that
    value simply matches no integer). A listed column must be compared as values
    (``allowed``: ``qi`` and ``original-values``) and hold numbers only.
    """
    key = "integer_columns"
    outside = [c for c in listed if c not in allowed]
    if outside:
        checks.errors.append(
            ConfigError("config.integer_not_value_column", key=key, columns=quoted(outside))
        )
    for column in listed:
        bad = np.flatnonzero(~np.isfinite(original.column(column).numbers()))
        if bad.size:
            value = original.column(column).values(bad[:1])[0]
            checks.errors.append(
                ConfigError(
                    "config.integer_not_number",
                    key=key,
                    column=clip(column),
                    row=int(bad[0]) + 1,
                    value=clip(value),
                )
            )
    return tuple(c for c in allowed if c in listed)


def _domains(raw: Any, columns: tuple, sa: tuple, checks: ConfigChecks) -> dict[str, str] | None:
    """Each column's domain (the default: ``number`` for ``sa``, else ``original-values``),
    ``None`` when ``raw`` is wrong (each wrong entry's error kept in ``checks``)."""
    domains = {c: (NUMBER if c in sa else ORIGINAL_VALUES) for c in columns}
    if raw is None:
        return domains
    if not isinstance(raw, Mapping):
        checks.errors.append(ConfigError("config.domains_not_object", key="domains"))
        return None
    found = len(checks.errors)
    for column, kind in raw.items():
        if column not in columns:
            checks.errors.append(
                ConfigError("config.domain_unknown_column", key="domains", column=clip(column))
            )
        elif kind not in DOMAIN_KINDS:
            checks.errors.append(
                ConfigError("config.domain_kind", key=f"domains.{column}", value=quoted_value(kind))
            )
        else:
            domains[column] = kind
    return domains if len(checks.errors) == found else None
