"""Generalized release cells (spec §4): ``[lo,hi]``, ``v``, ``*``; ``{a|b}``, ``a``, ``*``.

Parsed with vectorised string operations, once per distinct cell (a group repeats its
cells on every row). A categorical region is kept canonical: its sorted distinct values
joined by ``|``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scoring.numbers import parse_numbers

_INTERVAL = r"^\[\s*([^\[\],]*?)\s*,\s*([^\[\],]*?)\s*\]$"
_SET = r"^\{(.*)\}$"
SEP = "|"


def region_columns(qi: dict[str, str]) -> list[str]:
    """The region columns of :class:`Release` for these QI kinds."""
    out = []
    for column, kind in qi.items():
        out += [f"{column}.lo", f"{column}.hi"] if kind == "num" else [f"{column}.set"]
    return out


def parse_numeric_cells(cells: pd.Series, value_range: tuple[float, float]) -> pd.DataFrame:
    """Parse numeric generalized cells: ``[lo,hi]``, ``v`` or ``*`` (vectorised).

    Returns a frame with ``lo``, ``hi`` (NaN where the cell does not parse).

    Examples
    --------
    >>> parse_numeric_cells(pd.Series(["[1, 2]", "3", "*", "x", "[2,1]"]), (0.0, 9.0)).values.tolist()
    [[1.0, 2.0], [3.0, 3.0], [0.0, 9.0], [nan, nan], [2.0, 1.0]]
    """
    codes, unique = pd.factorize(cells.astype(str).str.strip())  # a group repeats its cells
    unique = pd.Series(np.asarray(unique, dtype=object), dtype=object)
    interval = unique.str.extract(_INTERVAL)
    bracket = interval[0].notna().to_numpy()
    lo = parse_numbers(unique.to_numpy(dtype=object)).copy()
    hi = lo.copy()
    lo[bracket] = parse_numbers(interval[0].to_numpy(dtype=object)[bracket])
    hi[bracket] = parse_numbers(interval[1].to_numpy(dtype=object)[bracket])
    star = (unique == "*").to_numpy()
    lo[star], hi[star] = value_range
    bad = ~(np.isfinite(lo) & np.isfinite(hi))
    lo[bad] = hi[bad] = np.nan
    return pd.DataFrame({"lo": lo[codes], "hi": hi[codes]}, index=cells.index)


def parse_categorical_cells(cells: pd.Series, domain: tuple[str, ...]) -> pd.DataFrame:
    """Parse categorical generalized cells: ``{a|b}``, ``a`` or ``*`` (vectorised).

    Returns a frame with ``set`` (canonical: sorted distinct values joined by ``|``,
    ``None`` where the cell does not parse) and ``outside`` (the values not in the
    domain, ``|``-joined, ``""`` when none).

    Examples
    --------
    >>> parse_categorical_cells(pd.Series(["{b|a}", "a", "*", "{}", "{a|z}"]), ("a", "b")).values.tolist()
    [['a|b', ''], ['a', ''], ['a|b', ''], [None, ''], ['a|z', 'z']]
    """
    cells = cells.astype(str).str.strip()
    braces = cells.str.extract(_SET)[0]
    inner = braces.where(braces.notna(), cells)
    star = cells == "*"
    inner = inner.where(~star, SEP.join(domain))
    parts = inner.str.split(SEP, regex=False).explode().str.strip()
    bad_part = (parts == "") | parts.str.contains(r"[{}*]", regex=True)
    bad = bad_part.groupby(level=0).any().reindex(cells.index, fill_value=True)
    bad |= cells == ""
    unique = parts[~bad_part].groupby(level=0).unique()  # per cell, then canonicalised
    canonical = unique.map(lambda values: SEP.join(sorted(values)))
    outside_parts = parts[~parts.isin(domain) & ~bad_part]
    outside = outside_parts.groupby(level=0).agg(SEP.join).reindex(cells.index, fill_value="")
    result = pd.DataFrame(
        {"set": canonical.reindex(cells.index), "outside": outside}, index=cells.index
    )
    result.loc[bad.to_numpy(), "set"] = None
    result["set"] = result["set"].astype(object).where(result["set"].notna(), None)
    return result


def set_contains(sets: pd.Series, values: pd.Series) -> np.ndarray:
    """Whether each canonical ``|``-joined set holds the value beside it (vectorised)."""
    parts = sets.str.split(SEP, regex=False).explode()
    hit = parts.to_numpy(dtype=object) == values.reindex(parts.index).to_numpy(dtype=object)
    return pd.Series(hit, index=parts.index).groupby(level=0).any().reindex(sets.index).to_numpy()
