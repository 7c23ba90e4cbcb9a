"""The sequential round's configuration (spec §12): parsed once, checked key by key.

Examples
--------
>>> config = parse_config({"n_releases": 2, "m": 2, "qi": {"Age": "num", "Zip": "num"},
...                        "sa": "Disease"})
>>> config.m, config.qi_names, config.mode, config.require
(2, ('Age', 'Zip'), 'online', 'm-invariant')
>>> parse_config({"n_releases": 2, "m": 1, "qi": {"Age": "num"}, "sa": "Disease"})
Traceback (most recent call last):
...
scoring.errors.ConfigError: configuration key 'm' must be an integer ≥ 2, got 1
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from scoring.bounded_json import loads_bounded
from scoring.encodings import fold_lookalikes
from scoring.errors import ConfigChecks, ConfigError
from scoring.messages import expect
from scoring.sequential.messages import q, unquoted

MODES = ("online", "batch")
REQUIRES = ("m-invariant", "m-unique", "none")
COUNTERFEIT_DISCLOSURES = ("per-release", "per-group", "none")
QI_KINDS = ("num", "cat")
GATE_METRICS = ("IL", "CF_ratio", "SUP", "TMP")
RESERVED_COLUMNS = ("pid", "lsf", "lsb", "gid", "tampered", "last")

_DEFAULTS: dict[str, Any] = {
    "type": "sequential",
    "sa_domain": None,
    "mode": "online",
    "require": "m-invariant",
    "require_m_eligible": True,
    "last_disclosure": False,
    "allow_tampering": False,
    "allow_suppression": False,
    "counterfeit_disclosure": "per-release",
    "utility_gates": {},
    "attack_phase": False,
    "per_team": None,
}
_REQUIRED = ("n_releases", "m", "qi", "sa")
_BOOLS = (
    "require_m_eligible",
    "last_disclosure",
    "allow_tampering",
    "allow_suppression",
    "attack_phase",
)


@dataclass(frozen=True)
class PerTeam:
    """How per-team masters are drawn from a pool (spec §3)."""

    pool: str
    size: int
    turnover: float
    seed: int


@dataclass(frozen=True)
class SeqConfig:
    """A normalised sequential-round configuration (spec §12); see :func:`parse_config`."""

    n_releases: int
    m: int
    qi: dict[str, str]
    sa: str
    sa_domain: tuple[str, ...] | None = None
    mode: str = "online"
    require: str = "m-invariant"
    require_m_eligible: bool = True
    last_disclosure: bool = False
    allow_tampering: bool = False
    allow_suppression: bool = False
    counterfeit_disclosure: str = "per-release"
    utility_gates: dict[str, float] = field(default_factory=dict)
    attack_phase: bool = False
    per_team: PerTeam | None = None

    @property
    def qi_names(self) -> tuple[str, ...]:
        """The QI columns in configuration order."""
        return tuple(self.qi)

    def release_columns(self, release: int) -> list[str]:
        """The header a team's ``release_<j>.csv`` must have (spec §4)."""
        columns = ["gid", "pid", *self.qi, self.sa]
        if self.allow_tampering:
            columns.append("tampered")
        if self.last_disclosure and release >= 2:
            columns.append("last")
        return columns

    def master_columns(self) -> list[str]:
        """The header of ``master.csv`` (spec §3)."""
        return ["pid", *self.qi, self.sa, "lsf", "lsb"]

    def to_dict(self) -> dict:
        """The configuration as JSON-ready data (``parse_config(c.to_dict()) == c``)."""
        data = asdict(self)
        data["type"] = "sequential"
        data["sa_domain"] = list(self.sa_domain) if self.sa_domain is not None else None
        return data


def _expect(holds: bool, code: str, **params: Any) -> bool:
    """``True``, or the ``ConfigError`` ``code`` with ``params`` when ``holds`` is false."""
    if not holds:
        raise ConfigError(code, **params)
    return True


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _choice(raw: dict, key: str, choices: tuple[str, ...]) -> str:
    value = raw[key]
    if value not in choices:
        raise ConfigError(
            "seq.config.choice", key=q(key), choices=", ".join(map(q, choices)), value=q(value)
        )
    return value


def _per_team(value: Any) -> PerTeam | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ConfigError(
            "seq.config.per_team", field="", expected=expect("object"), value=q(value)
        )
    checks = (
        ("pool", lambda v: isinstance(v, str) and v.strip() != "", expect("file_name")),
        ("size", lambda v: _is_int(v) and v >= 1, expect("integer_at_least", low=1)),
        ("turnover", lambda v: _is_number(v) and 0 <= v <= 1, expect("unit_interval")),
        ("seed", _is_int, expect("integer")),
    )
    for name, check, expected in checks:
        if name not in value or not check(value[name]):
            raise ConfigError(
                "seq.config.per_team", field=name, expected=expected, value=q(value.get(name))
            )
    return PerTeam(str(value["pool"]), int(value["size"]), float(value["turnover"]), value["seed"])


def parse_config(
    raw: dict | str | bytes,
    *,
    master_columns: list[str] | None = None,
    max_lsb: int | None = None,
    per_team_masters: bool = False,
) -> SeqConfig:
    """Check and normalise a round configuration (spec §12).

    Parameters
    ----------
    raw : dict, str or bytes
        The configuration, or its JSON text.
    master_columns : list of str, optional
        The master table's header; when given, every ``qi`` key and ``sa`` must be in it.
    max_lsb : int, optional
        The largest ``lsb`` of the master; when given, ``n_releases`` must reach it.
    per_team_masters : bool, optional
        True when the organizer uploaded one master per team (then ``attack_phase`` does
        not need ``per_team``).

    Returns
    -------
    SeqConfig

    Raises
    ------
    scoring.errors.ConfigError
        The message names the key.

    Examples
    --------
    >>> parse_config('{"n_releases": 1, "m": 2, "qi": {"Age": "num"}, "sa": "D"}',
    ...              master_columns=["pid", "Age", "Disease", "lsf", "lsb"])
    Traceback (most recent call last):
    ...
    scoring.errors.ConfigError: configuration key 'sa': 'D' is not a column of the master table
    """
    raw = _known_keys(raw)
    # Each key is checked on its own, in this order, and every error found is reported at
    # once (a ``ConfigErrors`` when there are several); a check that needs another key's
    # value runs only when that key is valid.
    checks = ConfigChecks()
    checks.run(_expect, raw["type"] == "sequential", "seq.config.type", value=q(raw["type"]))
    checks.run(_expect, _is_int(raw["m"]) and raw["m"] >= 2, "seq.config.m", value=q(raw["m"]))
    n_valid = checks.run(
        _expect,
        _is_int(raw["n_releases"]) and raw["n_releases"] >= 1,
        "seq.config.n_releases",
        value=q(raw["n_releases"]),
    )
    qi = checks.run(_qi, raw["qi"], master_columns, default=None)
    sa = checks.run(_sa, raw["sa"], qi or {}, master_columns, default="")
    domain = checks.run(_sa_domain, raw["sa_domain"])
    mode = checks.run(_choice, raw, "mode", MODES)
    require = checks.run(_choice, raw, "require", REQUIRES)
    disclosure = checks.run(_choice, raw, "counterfeit_disclosure", COUNTERFEIT_DISCLOSURES)
    for key in _BOOLS:
        checks.run(
            _expect, isinstance(raw[key], bool), "seq.config.bool", key=q(key), value=q(raw[key])
        )
    gates = checks.run(_gates, raw["utility_gates"] or {})
    per_team = checks.run(_per_team, raw["per_team"], default=False)
    if per_team is None and raw["attack_phase"] is True:  # ``False``: per_team is refused
        checks.run(_expect, per_team_masters, "seq.config.attack_phase")
    if n_valid and max_lsb is not None:
        checks.run(
            _expect,
            raw["n_releases"] >= max_lsb,
            "seq.config.n_releases_lsb",
            value=raw["n_releases"],
            lsb=max_lsb,
        )
    checks.raise_found()
    return SeqConfig(
        n_releases=raw["n_releases"],
        m=raw["m"],
        qi=qi,
        sa=sa,
        sa_domain=domain,
        mode=mode,
        require=require,
        require_m_eligible=raw["require_m_eligible"],
        last_disclosure=raw["last_disclosure"],
        allow_tampering=raw["allow_tampering"],
        allow_suppression=raw["allow_suppression"],
        counterfeit_disclosure=disclosure,
        utility_gates=gates,
        attack_phase=raw["attack_phase"],
        per_team=per_team,
    )


# The key of the configuration a ``ConfigError`` of :func:`parse_config` is about, by its
# code (the other codes name theirs in the parameter ``key``), and the parameter naming the
# entry within a key.
CONFIG_ERROR_KEYS = {
    "seq.config.type": "type",
    "seq.config.m": "m",
    "seq.config.n_releases": "n_releases",
    "seq.config.n_releases_lsb": "n_releases",
    "seq.config.qi": "qi",
    "seq.config.qi_empty": "qi",
    "seq.config.sa": "sa",
    "seq.config.sa_domain": "sa_domain",
    "seq.config.sa_domain_master": "sa_domain",
    "seq.config.gates": "utility_gates",
    "seq.config.attack_phase": "attack_phase",
    "seq.config.per_team": "per_team",
}
CONFIG_ERROR_ENTRIES = {"qi": "column", "utility_gates": "metric", "per_team": "field"}


def config_error_place(error: Any) -> tuple[str, str]:
    """Where an error of :func:`parse_config` lies, as a form or a bundle points at it: the
    key (``m``, ``qi``...; ``""``: none) and the entry within it (the QI column, the gate's
    metric, the field of ``per_team``; ``""``: the whole key).

    >>> try:
    ...     parse_config({"n_releases": 1, "m": 2, "qi": {"Age": "age"}, "sa": "D"})
    ... except ConfigError as error:
    ...     config_error_place(error)
    ('qi', 'Age')
    """
    code, params = getattr(error, "code", ""), getattr(error, "params", None) or {}
    key = CONFIG_ERROR_KEYS.get(code) or unquoted(params.get("key"))
    entry = CONFIG_ERROR_ENTRIES.get(key)
    return key, unquoted(params.get(entry)) if entry else ""


def _known_keys(raw: dict | str | bytes) -> dict:
    """The configuration as an object of known keys, the required ones given, the defaults
    filled in."""
    if isinstance(raw, (str, bytes)):
        raw = loads_bounded(raw)
    if not isinstance(raw, dict):
        raise ConfigError("seq.config.not_object")
    for key in _REQUIRED:
        if key not in raw:
            raise ConfigError("seq.config.missing", key=q(key))
    unknown = sorted(set(raw) - set(_REQUIRED) - set(_DEFAULTS))
    if unknown:
        raise ConfigError("seq.config.unknown", keys=", ".join(map(q, unknown)))
    return {**_DEFAULTS, **raw}


def _qi(qi, master_columns: list[str] | None) -> dict:
    """The QI columns with their kinds: named, not reserved, and columns of the master when
    its header is given."""
    if not isinstance(qi, dict) or not qi:
        raise ConfigError("seq.config.qi_empty")
    for column, kind in qi.items():
        if kind not in QI_KINDS or not str(column).strip() or column in RESERVED_COLUMNS:
            raise ConfigError("seq.config.qi", value=q(kind), column=q(column))
    if master_columns is not None:
        for column in qi:
            if column not in master_columns:
                raise ConfigError("seq.config.not_column", key=q("qi"), column=q(column))
    return {str(k): v for k, v in qi.items()}


def _sa(sa, qi: dict, master_columns: list[str] | None) -> str:
    """The sensitive column: named, not reserved, apart from the QI columns (``qi``: those
    found valid, so that a QI at fault hides no error of ``sa``), and a column of the master
    when its header is given."""
    if not isinstance(sa, str) or not sa.strip() or sa in qi or sa in RESERVED_COLUMNS:
        raise ConfigError("seq.config.sa", value=q(sa))
    if master_columns is not None and sa not in master_columns:
        raise ConfigError("seq.config.not_column", key=q("sa"), column=q(sa))
    return sa


def _sa_domain(domain) -> tuple[str, ...] | None:
    """The sensitive values declared (``None``: those of the master), distinct, none empty."""
    if domain is None:
        return None
    if (
        not isinstance(domain, list)
        or not domain
        or not all(isinstance(v, str) and v.strip() for v in domain)
        or len(set(domain)) != len(domain)
    ):
        raise ConfigError("seq.config.sa_domain", value=q(domain))
    # Values meet the tables' cells as fold_lookalikes leaves both (60〜 typed, 60～
    # from a CP932 file): two values that fold alike are one value.
    return tuple(dict.fromkeys(fold_lookalikes(v) for v in domain))


def _gates(gates) -> dict[str, float]:
    """The utility gates: a non-negative bound per metric of ``GATE_METRICS``."""
    metrics = ", ".join(map(q, GATE_METRICS))
    if not isinstance(gates, dict):
        raise ConfigError("seq.config.gates", metrics=metrics, value=q(gates), metric="''")
    for metric, bound in gates.items():
        if metric not in GATE_METRICS or not _is_number(bound) or bound < 0:
            raise ConfigError("seq.config.gates", metrics=metrics, value=q(bound), metric=q(metric))
    return {k: float(v) for k, v in gates.items()}
