"""A team's release ``T*(j)`` (spec §4–§5): reading, parsing generalized cells, validation.

Validation runs once, at the edge, in stages; each stage lists every offending row it
finds (the first ten and the total) in one message naming the release, the 1-based row,
the column and the value, then stops:

1. header (rule 1); 2. cells: ``gid``, generalized QI cells, ``tampered``, ``last``
(rules 2, 3); 3. persons (rules 4, 5); 4. sensitive values (rules 6, 10); 5. groups and
regions (rules 7, 8, 9); 6. ``last`` truthful (rule 11, §8.1).

Examples
--------
>>> from scoring.sequential.config import parse_config
>>> from scoring.sequential.master import read_master
>>> config = parse_config({"n_releases": 1, "m": 2, "qi": {"Age": "num"}, "sa": "D"})
>>> master = read_master(b"pid,Age,D,lsf,lsb\\nA,1,x,1,1\\nB,2,y,1,1\\n", config)
>>> release = read_release(b'gid,pid,Age,D\\n1,A,"[1,2]",x\\n1,B,"[1,2]",y\\n1,,"[1,2]",z\\n',
...                        release=1, master=master)
Traceback (most recent call last):
...
scoring.errors.ValidationError: release 1, row 3: counterfeit 'D' 'z' is not in the domain of sensitive values
>>> release = read_release(b'gid,pid,Age,D\\n7,A,"[1,2]",x\\n7,B,*,y\\n', release=1, master=master)
>>> release.groups[["Age.lo", "Age.hi", "size", "signature"]].values.tolist()
[[1.0, 2.0, 2, 'x|y']]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.numbers import parse_integers
from scoring.sequential.cells import (
    SEP,
    parse_categorical_cells,
    parse_numeric_cells,
    region_columns,
    set_contains,
)
from scoring.sequential.master import Master
from scoring.sequential.messages import issue, issues_error, q
from scoring.tables import read_table


@dataclass(frozen=True, eq=False)
class Release:
    """A validated release ``T*(j)``.

    Attributes
    ----------
    index : int
        ``j``.
    rows : pandas.DataFrame
        One row per file row: ``row`` (1-based), ``gid``, ``pid`` (``""`` for a
        counterfeit), ``person`` (master row, -1 for a counterfeit), ``sa``,
        ``tampered`` (bool), ``last`` (0 = none), and the region columns.
    groups : pandas.DataFrame
        Indexed by ``gid`` (ascending): the region columns, ``last``, ``size`` (rows,
        counterfeits included), ``real``, ``counterfeit``, ``tampered`` (holds a tampered
        row), ``signature`` (sorted distinct sensitive values joined by ``|``) and
        ``repeats`` (a sensitive value occurs twice).

    Region columns: ``<qi>.lo`` and ``<qi>.hi`` (float) for a numeric QI, ``<qi>.set``
    (sorted values joined by ``|``) for a categorical one.
    """

    index: int
    rows: pd.DataFrame
    groups: pd.DataFrame

    @property
    def real(self) -> pd.DataFrame:
        """The rows of real persons."""
        return self.rows.loc[self.rows["person"] >= 0]

    @property
    def counterfeits(self) -> int:
        return int((self.rows["person"] < 0).sum())

    @property
    def tampered_rows(self) -> int:
        return int(self.rows["tampered"].sum())


def _frame(source: Any, release: int) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        return source.fillna("").astype(str).apply(lambda column: column.str.strip())
    return read_table(source, name=f"release_{release}.csv")


def _check_header(columns: list[str], release: int, master: Master) -> None:
    config = master.config
    if "tampered" in columns and not config.allow_tampering:
        raise ValidationError("seq.release.column_disabled", release=release, column=q("tampered"))
    if "last" in columns:
        if not config.last_disclosure:
            raise ValidationError("seq.release.column_disabled", release=release, column=q("last"))
        if release == 1:
            raise ValidationError("seq.release.last_first", release=release)
    expected = config.release_columns(release)
    if "tampered" in expected and "tampered" not in columns:
        expected_optional = [c for c in expected if c != "tampered"]
        if columns == expected_optional:  # the column is optional: no row tampered
            return
    if columns != expected:
        raise ValidationError(
            "seq.release.header",
            release=release,
            expected=",".join(expected),
            got=",".join(columns),
        )


def read_release(
    source: Any, *, release: int, master: Master, previous: Release | None = None
) -> Release:
    """Read and validate the team's ``release_<j>.csv`` (spec §4–§5).

    Parameters
    ----------
    source : path, bytes, file object or pandas.DataFrame
        The uploaded file (UTF-8 or CP932), or a DataFrame of its text cells.
    release : int
        ``j``, from 1.
    master : Master
        The team's master table (its configuration decides the options).
    previous : Release, optional
        The team's ``T*(j−1)``; needed when the round discloses ``last`` (§8.1).

    Returns
    -------
    Release

    Raises
    ------
    scoring.errors.ValidationError
        With the spec's message, e.g. ``release 2, row 1: pid 'Bob' must carry its true
        Disease 'dyspepsia', got 'gastritis' (Def. 2(2))``.
    """
    config = master.config
    frame = _frame(source, release)
    _check_header(list(frame.columns), release, master)
    if frame.empty:
        raise ValidationError("seq.release.no_rows", release=release)
    frame = frame.reset_index(drop=True)
    ctx = {"release": release}
    rows = _parse_cells(frame, master, ctx)
    real = (frame["pid"] != "").to_numpy()  # a counterfeit row has no pid
    rows["pid"] = frame["pid"].to_numpy(dtype=object)
    rows["person"] = _persons(frame["pid"], real, master, ctx)
    if not config.allow_suppression:
        _check_no_person_missing(rows["person"].to_numpy(), real, master, ctx)
    rows["sa"] = frame[config.sa].to_numpy(dtype=object)
    _check_sensitive_values(frame, rows, real, master, ctx)
    regions = region_columns(config.qi)
    first = rows.groupby("gid", sort=False)[["row", *regions, "last"]].transform("first")
    _check_groups(frame, rows, first, real, master, ctx)
    _check_regions_hold_their_rows(frame, rows, real, master, ctx)
    if "last" in frame:
        _check_last(frame, rows, first, previous, ctx)
    return Release(release, rows, _groups(rows, regions))


def read_releases(sources: list, *, master: Master) -> tuple[Master, list[Release]]:
    """Read and validate ``T*(1..n)``, ``n = len(sources)``, in order (each with its
    predecessor, for ``last``), against the master as known at release ``n``.

    This is the one reading of a sequence: the server's check and ``python -m scoring seq
    check`` both call it. Using :meth:`Master.known_at` means the ranges behind ``*`` and
    IL, the categorical and sensitive domains, and the lifespans quoted in messages come
    from the persons of ``U(n)`` only, so the whole master and a team's ``master.csv`` so
    far (online mode) give the same results and messages.

    Returns
    -------
    (Master, list of Release)
        The master as known at ``n`` (score the releases against it) and the releases.
    """
    known = master.known_at(len(sources))
    releases: list[Release] = []
    for j, source in enumerate(sources, start=1):
        previous = releases[-1] if releases else None
        releases.append(read_release(source, release=j, master=known, previous=previous))
    return known, releases


@dataclass
class _Offences:
    """The offences found by one validation stage: those listed, and how many in all."""

    listed: list[dict] = field(default_factory=list)
    total: int = 0

    def raise_any(self) -> None:
        _raise(self.listed, self.total)


def _parse_cells(frame: pd.DataFrame, master: Master, ctx: dict) -> pd.DataFrame:
    """Stage 2 (rules 2, 3): ``row``, ``gid``, the region columns, ``tampered`` and ``last``.

    Every malformed cell of the stage is in one error: the first ten of each kind (a gid,
    each QI column's unparsable cells and its reversed intervals or values outside the
    domain, a ``tampered`` flag, a ``last``) and the total of all.
    """
    rows = pd.DataFrame({"row": np.arange(1, len(frame) + 1)})
    found = _Offences()
    rows["gid"] = _parse_gids(frame["gid"], found, ctx)
    for column, kind in master.config.qi.items():
        if kind == "num":
            parsed = _parse_numeric_regions(frame[column], column, master, found, ctx)
        else:
            parsed = _parse_categorical_regions(frame[column], column, master, found, ctx)
        for name, values in parsed.items():
            rows[name] = values
    rows["tampered"] = _parse_tampered(frame, found, ctx)
    rows["last"] = _parse_last(frame, found, ctx)
    found.raise_any()
    return rows


def _parse_gids(cells: pd.Series, found: _Offences, ctx: dict) -> np.ndarray:
    """Rule 2: each ``gid`` an integer ≥ 1 as written (not ``"1.0"``, ``"1e0"``); 0 where not."""
    gid = parse_integers(cells.to_numpy(dtype=object))
    with np.errstate(invalid="ignore"):
        bad = ~(np.isfinite(gid) & (gid >= 1) & (gid % 1 == 0))
    found.listed += [
        issue("seq.row.gid", **ctx, row=int(k + 1), value=q(cells.iloc[k]))
        for k in np.flatnonzero(bad)[:10]
    ]
    found.total += int(bad.sum())
    return np.where(bad, 0, gid).astype(np.int64)


def _parse_numeric_regions(
    cells: pd.Series, column: str, master: Master, found: _Offences, ctx: dict
) -> dict[str, np.ndarray]:
    """Rule 3 for a numeric QI: ``<qi>.lo`` and ``<qi>.hi`` (NaN where a cell does not parse)."""
    parsed = parse_numeric_cells(cells, master.ranges[column])
    unparsed = parsed["lo"].isna().to_numpy()
    reversed_ = ~unparsed & (parsed["lo"] > parsed["hi"]).to_numpy()
    _list_cells(found, unparsed, "seq.row.cell_num", cells, column, ctx)
    _list_cells(found, reversed_, "seq.row.lo_hi", cells, column, ctx)
    return {f"{column}.lo": parsed["lo"].to_numpy(), f"{column}.hi": parsed["hi"].to_numpy()}


def _parse_categorical_regions(
    cells: pd.Series, column: str, master: Master, found: _Offences, ctx: dict
) -> dict[str, np.ndarray]:
    """Rule 3 for a categorical QI: ``<qi>.set`` (None where a cell does not parse)."""
    parsed = parse_categorical_cells(cells, master.domains[column])
    unparsed = parsed["set"].isna().to_numpy()
    outside = ~unparsed & (parsed["outside"] != "").to_numpy()
    _list_cells(found, unparsed, "seq.row.cell_cat", cells, column, ctx)
    _list_cells(found, outside, "seq.row.category", cells, column, ctx, bad=parsed["outside"])
    return {f"{column}.set": parsed["set"].to_numpy(dtype=object)}


def _list_cells(
    found: _Offences,
    mask: np.ndarray,
    code: str,
    cells: pd.Series,
    column: str,
    ctx: dict,
    bad: pd.Series | None = None,
) -> None:
    """Add the cells of ``mask`` (the first ten) and their count; ``bad``: the values at fault."""
    found.total += int(mask.sum())
    for k in np.flatnonzero(mask)[:10]:
        params = {**ctx, "row": k + 1, "column": q(column), "value": q(cells.iloc[k])}
        if bad is not None:
            params["bad"] = ", ".join(map(q, bad.iloc[k].split(SEP)))
        found.listed.append(issue(code, **params))


def _parse_tampered(frame: pd.DataFrame, found: _Offences, ctx: dict) -> np.ndarray:
    """The optional ``tampered`` flags, ``0`` or ``1`` (all false without the column)."""
    if "tampered" not in frame:
        return np.zeros(len(frame), dtype=bool)
    text = frame["tampered"]
    bad = ~text.isin(["0", "1"]).to_numpy()
    found.total += int(bad.sum())
    found.listed += [
        issue("seq.row.tampered", **ctx, row=k + 1, value=q(text.iloc[k]))
        for k in np.flatnonzero(bad)[:10]
    ]
    return (text == "1").to_numpy()


def _parse_last(frame: pd.DataFrame, found: _Offences, ctx: dict) -> np.ndarray:
    """The optional ``last`` gids: an integer ≥ 1, or ``""`` / ``-`` for none (0)."""
    if "last" not in frame:
        return np.zeros(len(frame), dtype=np.int64)
    text = frame["last"]
    none = text.isin(["", "-"]).to_numpy()
    value = parse_integers(text.to_numpy(dtype=object))
    with np.errstate(invalid="ignore"):
        ok = none | (np.isfinite(value) & (value >= 1))
    found.total += int((~ok).sum())
    found.listed += [
        issue(
            "seq.row.last_value",
            **ctx,
            row=k + 1,
            value=q(text.iloc[k]),
            previous=ctx["release"] - 1,
        )
        for k in np.flatnonzero(~ok)[:10]
    ]
    return np.where(ok & ~none, np.nan_to_num(value), 0).astype(np.int64)


def _persons(pid: pd.Series, real: np.ndarray, master: Master, ctx: dict) -> np.ndarray:
    """Stage 3, rule 4: the master row of each row's pid (-1 for a counterfeit).

    A pid must be in the master, alive at this release, and on one row only.
    """
    person = master.pids.get_indexer(pid)
    person[~real] = -1
    unknown = real & (person < 0)
    alive = master.alive(ctx["release"])
    not_alive = real & (person >= 0) & ~alive[np.maximum(person, 0)]
    twice = real & pid.duplicated().to_numpy()
    first_row = pd.Series(np.arange(1, len(pid) + 1), index=pid).groupby(level=0).first()
    problems = []
    for k in np.flatnonzero(unknown | not_alive | twice)[:10]:
        params = {**ctx, "row": k + 1, "pid": q(pid.iloc[k])}
        if unknown[k]:
            problems.append(issue("seq.row.pid_unknown", **params))
        elif not_alive[k]:
            p = person[k]
            lifespan = {"lsf": int(master.lsf[p]), "lsb": int(master.lsb[p])}
            problems.append(issue("seq.row.pid_not_alive", **params, **lifespan))
        else:
            problems.append(issue("seq.row.pid_twice", **params, first=int(first_row[pid.iloc[k]])))
    _raise(problems, int((unknown | not_alive | twice).sum()))
    return person


def _check_no_person_missing(
    person: np.ndarray, real: np.ndarray, master: Master, ctx: dict
) -> None:
    """Stage 3, rule 5 (without suppression): every person alive at this release is published."""
    published = np.zeros(len(master.frame), dtype=bool)
    published[person[real]] = True
    missing = np.flatnonzero(master.alive(ctx["release"]) & ~published)
    if missing.size:
        raise ValidationError(
            "seq.release.missing",
            **ctx,
            pids=repr([str(p) for p in master.pids[missing[:10]]]),
            total=int(missing.size),
        )


def _check_sensitive_values(
    frame: pd.DataFrame, rows: pd.DataFrame, real: np.ndarray, master: Master, ctx: dict
) -> None:
    """Stage 4 (rules 6, 10): a person's true sensitive value; a counterfeit's from the
    domain, and never tampered."""
    config = master.config
    sa = frame[config.sa]
    pid = frame["pid"]
    truth = np.where(real, master.sa_values[np.maximum(rows["person"].to_numpy(), 0)], "")
    wrong = real & (sa.to_numpy(dtype=object) != truth)
    fake = ~real
    cf_domain = fake & ~sa.isin(master.sa_domain).to_numpy()
    cf_tampered = fake & rows["tampered"].to_numpy()
    problems = []
    for k in np.flatnonzero(wrong | cf_domain | cf_tampered)[:10]:
        params = {**ctx, "row": k + 1}
        if wrong[k]:
            problems.append(
                issue(
                    "seq.row.sa",
                    **params,
                    pid=q(pid.iloc[k]),
                    column=config.sa,
                    truth=q(truth[k]),
                    value=q(sa.iloc[k]),
                )
            )
        elif cf_domain[k]:
            problems.append(
                issue("seq.row.cf_sa", **params, column=q(config.sa), value=q(sa.iloc[k]))
            )
        else:
            problems.append(issue("seq.row.cf_tampered", **params))
    _raise(problems, int((wrong | cf_domain | cf_tampered).sum()))


def _check_groups(
    frame: pd.DataFrame,
    rows: pd.DataFrame,
    first: pd.DataFrame,
    real: np.ndarray,
    master: Master,
    ctx: dict,
) -> None:
    """Stage 5, rules 8 and 9: the rows of a group share one region, and one of them is real.

    ``first`` holds, on each row, the row number, regions and ``last`` of its group's first row.
    """
    problems = []
    total = 0
    for column, kind in master.config.qi.items():
        names = [f"{column}.lo", f"{column}.hi"] if kind == "num" else [f"{column}.set"]
        differs = (rows[names].to_numpy() != first[names].to_numpy()).any(axis=1)
        total += int(differs.sum())
        for k in np.flatnonzero(differs)[:10]:
            problems.append(
                issue(
                    "seq.row.region",
                    **ctx,
                    row=k + 1,
                    gid=int(rows["gid"].iloc[k]),
                    column=q(column),
                    value=q(frame[column].iloc[k]),
                    first=q(frame[column].iloc[int(first["row"].iloc[k]) - 1]),
                    first_row=int(first["row"].iloc[k]),
                )
            )
    real_per_group = rows.assign(real=real).groupby("gid")["real"].transform("any").to_numpy()
    only_fake = ~real_per_group & (rows["row"] == first["row"]).to_numpy()
    total += int(only_fake.sum())
    for k in np.flatnonzero(only_fake)[:10]:
        problems.append(issue("seq.row.no_real", **ctx, row=k + 1, gid=int(rows["gid"].iloc[k])))
    _raise(problems, total)


def _check_regions_hold_their_rows(
    frame: pd.DataFrame, rows: pd.DataFrame, real: np.ndarray, master: Master, ctx: dict
) -> None:
    """Stage 5, rule 7: a real, untampered row's true QI values lie in its group's region.

    A row outside in several QIs is named once, by the first of them.
    """
    tampered = rows["tampered"].to_numpy()
    pid = frame["pid"]
    outside = np.zeros(len(rows), dtype=bool)
    where = {}
    truth_qi = master.frame.iloc[np.maximum(rows["person"].to_numpy(), 0)]
    for column, kind in master.config.qi.items():
        value = truth_qi[column].to_numpy()
        if kind == "num":
            inside = (rows[f"{column}.lo"].to_numpy() <= value) & (
                value <= rows[f"{column}.hi"].to_numpy()
            )
        else:
            inside = set_contains(rows[f"{column}.set"], pd.Series(value, index=rows.index))
        out = real & ~tampered & ~inside
        for k in np.flatnonzero(out & ~outside):
            where[k] = (column, value[k])
        outside |= out
    problems = []
    for k in np.flatnonzero(outside)[:10]:
        column, value = where[k]
        problems.append(
            issue(
                "seq.row.outside",
                **ctx,
                row=k + 1,
                pid=q(pid.iloc[k]),
                column=column,
                value=q(value) if isinstance(value, str) else _number(value),
                gid=int(rows["gid"].iloc[k]),
                region=q(frame[column].iloc[k]),
            )
        )
    _raise(problems, int(outside.sum()))


def _check_last(
    frame: pd.DataFrame,
    rows: pd.DataFrame,
    first: pd.DataFrame,
    previous: Release | None,
    ctx: dict,
) -> None:
    """Stage 6, rule 11 (§8.1): one ``last`` per group, then truthful against ``T*(j−1)``."""
    mixed = rows["last"].to_numpy() != first["last"].to_numpy()
    problems = []
    for k in np.flatnonzero(mixed)[:10]:
        first_k = int(first["row"].iloc[k]) - 1
        problems.append(
            issue(
                "seq.row.last_mixed",
                **ctx,
                row=k + 1,
                gid=int(rows["gid"].iloc[k]),
                value=q(frame["last"].iloc[k]),
                first=q(frame["last"].iloc[first_k]),
                first_row=first_k + 1,
            )
        )
    _raise(problems, int(mixed.sum()))
    if previous is None:
        raise ValidationError("seq.release.previous", **ctx, previous=ctx["release"] - 1)
    _check_last_truthful(rows, frame, previous, ctx)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _check_last_truthful(
    rows: pd.DataFrame, frame: pd.DataFrame, previous: Release, ctx: dict
) -> None:
    """Stage 6, rule 11 (§8.1): each ``last`` names a group of ``T*(j−1)``; (a) a real row's
    ``last`` is its person's group there, and (b) a person whose group there is named by a
    ``last`` carries that ``last``."""
    release = ctx["release"]
    problems = []
    known = np.isin(rows["last"].to_numpy(), previous.groups.index.to_numpy())
    bad = (rows["last"].to_numpy() > 0) & ~known
    for k in np.flatnonzero(bad)[:10]:
        problems.append(
            issue(
                "seq.row.last_value",
                **ctx,
                row=k + 1,
                value=q(frame["last"].iloc[k]),
                previous=release - 1,
            )
        )
    _raise(problems, int(bad.sum()))
    before = pd.Series(previous.real["gid"].to_numpy(), index=previous.real["person"].to_numpy())
    person = rows["person"].to_numpy()
    prev_gid = before.reindex(person).fillna(0).to_numpy(dtype=np.int64)
    prev_gid = np.where(person < 0, 0, prev_gid)
    last = rows["last"].to_numpy()
    wrong_a = (last > 0) & (prev_gid > 0) & (prev_gid != last)
    asserted = np.isin(prev_gid, np.unique(last[last > 0]))
    wrong_b = (prev_gid > 0) & asserted & (last != prev_gid) & ~wrong_a
    for k in np.flatnonzero(wrong_a | wrong_b)[:10]:
        params = {
            **ctx,
            "row": k + 1,
            "gid": int(rows["gid"].iloc[k]),
            "pid": q(rows["pid"].iloc[k]),
        }
        params["previous"] = release - 1
        if wrong_a[k]:
            problems.append(
                issue("seq.row.last_a", **params, last=int(last[k]), actual=int(prev_gid[k]))
            )
        else:
            problems.append(issue("seq.row.last_b", **params, last=int(prev_gid[k])))
    _raise(problems, int((wrong_a | wrong_b).sum()))


def _groups(rows: pd.DataFrame, regions: list[str]) -> pd.DataFrame:
    by = rows.groupby("gid", sort=True)
    groups = by[[*regions, "last"]].first()
    groups["size"] = by.size()
    groups["real"] = rows.assign(_r=rows["person"] >= 0).groupby("gid")["_r"].sum().astype(np.int64)
    groups["counterfeit"] = groups["size"] - groups["real"]
    groups["tampered"] = by["tampered"].any()
    distinct = rows.drop_duplicates(["gid", "sa"]).sort_values(["gid", "sa"])
    position = groups.index.get_indexer(distinct["gid"])
    rank = distinct.groupby("gid").cumcount().to_numpy()
    values = distinct["sa"].to_numpy(dtype=object)
    signature = np.full(len(groups), "", dtype=object)
    for r in range(int(rank.max()) + 1 if rank.size else 0):  # loop over ranks, not rows
        at = rank == r
        signature[position[at]] = signature[position[at]] + ("" if r == 0 else SEP) + values[at]
    groups["signature"] = signature
    groups["repeats"] = distinct.groupby("gid").size() < groups["size"]
    return groups


def _raise(problems: list[dict], total: int) -> None:
    if problems:
        error = issues_error(problems)
        if total > len(problems) or (total > 1 and len(problems) == 1):
            error = ValidationError(
                "seq.issues_more", items=problems[:10], total=max(total, len(problems))
            )
        raise error
