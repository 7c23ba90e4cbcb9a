"""Stage 2 of reading a release (spec §5 rules 2, 3): every cell of the file, parsed.

:func:`parse_cells` turns the text of ``gid``, the generalized QI cells, ``tampered`` and
``last`` into the typed columns :class:`~scoring.sequential.release.Release` holds, and
lists every malformed cell of the stage in one error. It is apart from the rules between
rows and against the master (:mod:`scoring.sequential.release_rules`): this stage reads
each cell on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from scoring.numbers import parse_integers
from scoring.sequential.cells import SEP, parse_categorical_cells, parse_numeric_cells
from scoring.sequential.master import Master
from scoring.sequential.messages import issue, q, raise_issues


@dataclass
class _Offences:
    """The offences found by one validation stage: those listed, and how many in all."""

    listed: list[dict] = field(default_factory=list)
    total: int = 0

    def raise_any(self) -> None:
        raise_issues(self.listed, self.total)


def parse_cells(frame: pd.DataFrame, master: Master, ctx: dict) -> pd.DataFrame:
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
