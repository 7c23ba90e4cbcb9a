"""The master table of a sequential round (spec §3): persons, QIs, sensitive value, lifespan.

``T(j) = {p : lsf_p ≤ j ≤ lsb_p}``. Reading checks every cell and, when the round asks
for it, that every ``T(j)`` is m-eligible (Def. 9, with Z's fraction turned right side
up: the largest eligible m is ``⌊|T| / max count⌋``).

Examples
--------
>>> from scoring.sequential.config import parse_config
>>> config = parse_config({"n_releases": 2, "m": 2, "qi": {"Age": "num"}, "sa": "D"})
>>> master = read_master(b"pid,Age,D,lsf,lsb\\nA,1,x,1,2\\nB,2,y,1,1\\nC,3,y,2,2\\n", config)
>>> master.alive(2).tolist(), master.sizes()
([True, False, True], [2, 2])
>>> largest_eligible_m(["x", "y", "y"])
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from scoring.encodings import fold_lookalikes
from scoring.errors import ConfigError, ValidationError
from scoring.messages import listing
from scoring.numbers import number_texts, parse_numbers
from scoring.sequential.config import SeqConfig, parse_config
from scoring.sequential.messages import q
from scoring.tables import read_table

_FORBIDDEN = r"[{}|*]"


@dataclass(frozen=True, eq=False)
class Master:
    """A validated master table.

    Attributes
    ----------
    frame : pandas.DataFrame
        Columns ``pid, <qi...>, <sa>, lsf, lsb`` in that order; numeric QIs as float64,
        categorical QIs and ``pid`` / ``sa`` as text, ``lsf`` / ``lsb`` as int64.
        Row ``i`` is line ``i + 1`` of the file (after the header).
    config : SeqConfig
    ranges : dict
        ``qi -> (min, max)`` of each numeric QI (what ``*`` stands for).
    domains : dict
        ``qi -> tuple`` of the sorted values of each categorical QI.
    sa_domain : tuple of str
        The domain of sensitive values: ``config.sa_domain`` or the master's values, sorted.
    """

    frame: pd.DataFrame
    config: SeqConfig
    ranges: dict[str, tuple[float, float]]
    domains: dict[str, tuple[str, ...]]
    sa_domain: tuple[str, ...]

    @property
    def pids(self) -> pd.Index:
        """The persons' ids, in master order (an Index, for vectorised look-ups)."""
        return pd.Index(self.frame["pid"])

    @property
    def lsf(self) -> np.ndarray:
        return self.frame["lsf"].to_numpy()

    @property
    def lsb(self) -> np.ndarray:
        return self.frame["lsb"].to_numpy()

    @property
    def sa_values(self) -> np.ndarray:
        return self.frame[self.config.sa].to_numpy(dtype=object)

    def alive(self, release: int) -> np.ndarray:
        """Boolean mask of ``T(release)`` over the master's rows."""
        return (self.lsf <= release) & (release <= self.lsb)

    def table(self, release: int) -> pd.DataFrame:
        """``T(release)``: the rows alive then (``pid, QIs, sa, lsf`` as a team downloads it)."""
        return self.frame.loc[self.alive(release)].drop(columns="lsb").reset_index(drop=True)

    def sizes(self) -> list[int]:
        """``|T(j)|`` for ``j = 1..n_releases``."""
        return [int(self.alive(j).sum()) for j in range(1, self.config.n_releases + 1)]

    def timeline(self, *, upto: int | None = None) -> list[dict]:
        """Per release ``j = 1..upto`` (``n_releases`` by default): ``|T(j)|`` (``size``), the
        persons arriving (``lsf = j``) and those who left (``lsb = j − 1``); none of either
        at release 1.

        >>> from scoring.sequential.config import parse_config
        >>> config = parse_config({"n_releases": 2, "m": 2, "qi": {"Age": "num"}, "sa": "D"})
        >>> master = read_master(b"pid,Age,D,lsf,lsb\\nA,1,x,1,2\\nB,2,y,1,1\\nC,3,y,2,2\\n", config)
        >>> master.timeline()[1]
        {'step': 2, 'size': 2, 'arrivals': 1, 'departures': 1}
        """
        n = self.config.n_releases if upto is None else upto
        return [
            {
                "step": j,
                "size": int(self.alive(j).sum()),
                "arrivals": int((self.lsf == j).sum()) if j > 1 else 0,
                "departures": int((self.lsb == j - 1).sum()) if j > 1 else 0,
            }
            for j in range(1, n + 1)
        ]

    def as_written(self, frame: pd.DataFrame | None = None) -> pd.DataFrame:
        """``frame`` (the master's own by default, or one of its :meth:`table`) with each
        numeric QI's values as a master file writes them (``number_texts``): a whole number
        as an integer (``72``, not ``72.0``) even beside decimals (``72.5``). What a team
        downloads as ``master.csv`` or ``T(j).csv``, which :func:`read_master` and ``seq
        baseline`` read back.

        >>> from scoring.sequential.config import parse_config
        >>> config = parse_config({"n_releases": 1, "m": 2, "qi": {"Age": "num"}, "sa": "D"})
        >>> master = read_master(b"pid,Age,D,lsf,lsb\\nA,72,x,1,1\\nB,72.5,y,1,1\\n", config)
        >>> master.frame["Age"].tolist(), master.as_written(master.table(1))["Age"].tolist()
        ([72.0, 72.5], ['72', '72.5'])
        """
        out = (self.frame if frame is None else frame).copy()
        for column, kind in self.config.qi.items():
            if kind == "num" and column in out:
                out[column] = number_texts(out[column].to_numpy())
        return out

    def union(self, n: int) -> np.ndarray:
        """Boolean mask of ``U(n)``'s persons, ``P_n = {p : lsf_p ≤ n}``."""
        return self.lsf <= n

    def known_at(self, n: int) -> Master:
        """The master as it is known at release ``n``: the persons of ``U(n)`` in master
        order, ``lsb`` cut at ``n`` (whether a person of ``T(n)`` stays is not known yet),
        and the ranges, domains and sensitive-value domain of these persons only.

        Releases ``1..n`` are read and scored against it (:func:`read_releases`), so that
        nothing of a later release (who arrives or leaves, and their values) shows in a
        number or a message about ``T*(1..n)``. In online mode it is also what a team
        downloads as ``master.csv`` at step ``n``, so the local check reproduces the
        server's numbers. At ``n = n_releases`` it is the whole master.

        Examples
        --------
        >>> from scoring.sequential.config import parse_config
        >>> config = parse_config({"n_releases": 2, "m": 2, "qi": {"Age": "num"}, "sa": "D"})
        >>> master = read_master(b"pid,Age,D,lsf,lsb\\nA,1,x,1,2\\nB,2,y,1,1\\nC,9,y,2,2\\n", config)
        >>> known = master.known_at(1)
        >>> known.frame["pid"].tolist(), known.lsb.tolist(), known.ranges
        (['A', 'B'], [1, 1], {'Age': (1.0, 2.0)})
        """
        frame = self.frame.loc[self.union(n)].reset_index(drop=True)
        frame["lsb"] = np.minimum(frame["lsb"].to_numpy(), n)
        return _master(frame, self.config)


def _master(frame: pd.DataFrame, config: SeqConfig) -> Master:
    """A :class:`Master` of checked cells, with the ranges and domains of its persons."""
    ranges, domains = {}, {}
    for column, kind in config.qi.items():
        if kind == "num":
            values = frame[column].to_numpy()
            ranges[column] = (float(values.min()), float(values.max()))
        else:
            domains[column] = tuple(sorted(pd.unique(frame[column])))
    if config.sa_domain is not None:
        sa_domain = tuple(sorted(config.sa_domain))
    else:
        sa_domain = tuple(sorted(set(frame[config.sa])))
    return Master(frame, config, ranges, domains, sa_domain)


def largest_eligible_m(sa_values: Any) -> int:
    """The largest m for which a table with these sensitive values is m-eligible (Def. 9).

    ``⌊|T| / max_v count(v)⌋``; 0 for an empty table.

    Examples
    --------
    >>> largest_eligible_m(["bro"] + ["dys"] * 3 + ["flu"] * 3 + ["gas"] * 4)
    2
    """
    counts = pd.Series(np.asarray(sa_values, dtype=object)).value_counts()
    return int(counts.sum() // counts.max()) if len(counts) else 0


def eligibility_problem(sa_values: Any, *, m: int, release: int) -> ValidationError | None:
    """The spec's message when ``T(release)`` with these values is not m-eligible, else None."""
    counts = pd.Series(np.asarray(sa_values, dtype=object)).value_counts(sort=False)
    total = int(counts.sum())
    if total == 0 or int(counts.max()) * m <= total:
        return None
    top = counts[counts == counts.max()].index
    value = sorted(map(str, top))[0]
    return ValidationError(
        "seq.master.not_eligible",
        release=release,
        m=m,
        value=q(value),
        count=int(counts.max()),
        total=total,
        allowed=total // m,
    )


def _rows(mask: np.ndarray, values: np.ndarray | None = None) -> dict:
    numbers = np.flatnonzero(mask) + 1
    if values is None:
        return listing("rows", numbers)
    return listing("rows_values", numbers, [str(v) for v in values[mask][:10]])


def read_master(
    source: Any,
    config: SeqConfig | dict,
    *,
    check_eligible: bool | None = None,
    upto: int | None = None,
) -> Master:
    """Read and validate a master table (spec §3).

    Parameters
    ----------
    source : path, bytes, file object or pandas.DataFrame
        ``master.csv`` (UTF-8 or CP932), or a DataFrame of its text cells.
    config : SeqConfig or dict
        The round configuration; the QI kinds decide how the cells are read.
    check_eligible : bool, optional
        Reject a ``T(j)`` that is not m-eligible; default ``config.require_m_eligible``.
    upto : int, optional
        Check ``T(1) … T(upto)`` only (empty, m-eligible); default ``n_releases``. A team's
        ``master.csv`` in online mode knows the persons up to the open release only
        (:meth:`Master.known_at`), so its later ``T(j)`` are empty.

    Returns
    -------
    Master

    Raises
    ------
    scoring.errors.ValidationError
        A bad header, cell, lifespan, an empty ``T(j)`` or a non-eligible ``T(j)``
        (``T(2) is not 3-eligible: 'gastritis' holds 5 of 11 tuples (at most 3 allowed)``).
    scoring.errors.ConfigError
        A ``qi`` / ``sa`` key that is not a column, or ``n_releases`` below the largest lsb.
    """
    if not isinstance(config, SeqConfig):
        config = parse_config(config)
    frame = _master_columns(source, config)
    # The checks in the order their errors are reported: pids, QIs, SA, lifespans.
    out = pd.DataFrame({"pid": _pids(frame)})
    for column, kind in config.qi.items():
        out[column] = _qi_values(frame, column, kind)
    sa = frame[config.sa]
    if (sa == "").any():
        raise ValidationError(
            "seq.master.sa_empty", column=q(config.sa), rows=_rows((sa == "").to_numpy())
        )
    out[config.sa] = sa.astype(str).map(fold_lookalikes)
    out["lsf"], out["lsb"] = _lifespans(frame, config)
    if config.sa_domain is not None:
        outside = sorted(set(out[config.sa]) - set(config.sa_domain))
        if outside:
            raise ConfigError("seq.config.sa_domain_master", values=", ".join(map(q, outside)))
    master = _master(out, config)
    if check_eligible is None:
        check_eligible = config.require_m_eligible
    last = config.n_releases if upto is None else min(upto, config.n_releases)
    for release in range(1, last + 1):
        alive = master.alive(release)
        if not alive.any():
            raise ValidationError("seq.master.empty_release", release=release)
        if check_eligible:
            problem = eligibility_problem(master.sa_values[alive], m=config.m, release=release)
            if problem is not None:
                raise problem
    return master


def _master_columns(source: Any, config: SeqConfig) -> pd.DataFrame:
    """The master's text cells, its columns exactly ``config.master_columns()`` in that
    order, at least one row."""
    if isinstance(source, pd.DataFrame):
        frame = source.astype(str).apply(lambda column: column.str.strip())
    else:
        frame = read_table(source, name="the master table")
    columns = list(frame.columns)
    expected = config.master_columns()
    for key, names in (("qi", config.qi_names), ("sa", (config.sa,))):
        for name in names:
            if name not in columns:
                raise ConfigError("seq.config.not_column", key=q(key), column=q(name))
    missing = [c for c in expected if c not in columns]
    extra = [c for c in columns if c not in expected]
    if missing or extra:
        problem = (
            {
                "code": "seq.master.missing_columns",
                "params": {"columns": ", ".join(map(q, missing))},
            }
            if missing
            else {
                "code": "seq.master.extra_columns",
                "params": {"columns": ", ".join(map(q, extra))},
            }
        )
        raise ValidationError("seq.master.columns", expected=",".join(expected), problem=problem)
    frame = frame[expected].reset_index(drop=True)
    if frame.empty:
        raise ValidationError("seq.master.no_rows")
    return frame


def _pids(frame: pd.DataFrame) -> pd.Series:
    """The pid column: no empty cell, no pid twice."""
    pid = frame["pid"].to_numpy(dtype=object)
    empty = pid == ""
    if empty.any():
        raise ValidationError("seq.master.pid_empty", rows=_rows(empty))
    duplicated = frame["pid"].duplicated().to_numpy()
    if duplicated.any():
        raise ValidationError("seq.master.pid_duplicate", rows=_rows(duplicated, pid))
    return frame["pid"].astype(str)


def _qi_values(frame: pd.DataFrame, column: str, kind: str):
    """A QI column read as its kind: finite numbers, or categories (non-empty, no
    separator, look-alike characters folded)."""
    cells = frame[column].to_numpy(dtype=object)
    if kind == "num":
        values = parse_numbers(cells)
        bad = ~np.isfinite(values)
        if bad.any():
            raise ValidationError("seq.master.not_number", column=q(column), rows=_rows(bad, cells))
        return values
    bad = (frame[column] == "") | frame[column].str.contains(_FORBIDDEN, regex=True)
    if bad.any():
        raise ValidationError(
            "seq.master.bad_category", column=q(column), rows=_rows(bad.to_numpy(), cells)
        )
    return frame[column].astype(str).map(fold_lookalikes)


def _lifespans(frame: pd.DataFrame, config: SeqConfig) -> tuple[np.ndarray, np.ndarray]:
    """``lsf`` and ``lsb`` as integers, 1 ≤ lsf ≤ lsb ≤ ``n_releases``."""
    lsf = parse_numbers(frame["lsf"].to_numpy(dtype=object))
    lsb = parse_numbers(frame["lsb"].to_numpy(dtype=object))
    with np.errstate(invalid="ignore"):
        bad = ~(
            np.isfinite(lsf)
            & np.isfinite(lsb)
            & (lsf % 1 == 0)
            & (lsb % 1 == 0)
            & (lsf >= 1)
            & (lsf <= lsb)
        )
    lifespans = np.array(
        [f"{a},{b}" for a, b in zip(frame["lsf"], frame["lsb"], strict=False)], dtype=object
    )
    if bad.any():
        raise ValidationError(
            "seq.master.lifespan", n=config.n_releases, rows=_rows(bad, lifespans)
        )
    max_lsb = int(lsb.max())
    if max_lsb > config.n_releases:
        raise ConfigError("seq.config.n_releases_lsb", value=config.n_releases, lsb=max_lsb)
    return lsf.astype(np.int64), lsb.astype(np.int64)
