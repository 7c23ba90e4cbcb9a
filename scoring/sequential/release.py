"""A team's release ``T*(j)`` (spec §4–§5): reading it, and the validated :class:`Release`.

Validation runs once, at the edge, in stages; each stage lists every offending row it
finds (the first ten and the total) in one message naming the release, the 1-based row,
the column and the value, then stops:

1. header (rule 1); 2. cells: ``gid``, generalized QI cells, ``tampered``, ``last``
(rules 2, 3); 3. persons (rules 4, 5); 4. sensitive values (rules 6, 10); 5. groups and
regions (rules 7, 8, 9); 6. ``last`` truthful (rule 11, §8.1).

This module reads the file, runs the stages in that order and builds the release and its
groups; stage 2 is :mod:`scoring.sequential.release_cells`, the other stages are
:mod:`scoring.sequential.release_rules`.

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

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from scoring.encodings import fold_lookalikes
from scoring.errors import ValidationError
from scoring.sequential.cells import SEP, region_columns
from scoring.sequential.master import Master
from scoring.sequential.release_cells import parse_cells
from scoring.sequential.release_rules import (
    check_groups,
    check_header,
    check_last_truthful,
    check_no_person_missing,
    check_one_last_per_group,
    check_regions_hold_their_rows,
    check_sensitive_values,
    match_persons,
)
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


def _frame(source: Any, name: str, config) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        frame = source.fillna("").astype(str).apply(lambda column: column.str.strip())
    else:
        frame = read_table(source, name=name)
    # Compared with the master's values as the master's reading leaves them.
    for column in (config.sa, *(c for c, kind in config.qi.items() if kind != "num")):
        if column in frame:
            frame[column] = frame[column].map(fold_lookalikes)
    return frame


def read_release(
    source: Any,
    *,
    release: int,
    master: Master,
    previous: Release | None = None,
    name: str | None = None,
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
    name : str, optional
        How a message about the file itself (its encoding, its fields) names it: the name
        the team gave it (``my_release.csv``); ``release_<j>.csv`` by default.

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
    frame = _frame(source, name or f"release_{release}.csv", config)
    check_header(list(frame.columns), release, master)
    if frame.empty:
        raise ValidationError("seq.release.no_rows", release=release)
    frame = frame.reset_index(drop=True)
    ctx = {"release": release}
    rows = parse_cells(frame, master, ctx)
    real = (frame["pid"] != "").to_numpy()  # a counterfeit row has no pid
    rows["pid"] = frame["pid"].to_numpy(dtype=object)
    rows["person"] = match_persons(frame["pid"], real, master, ctx)
    if not config.allow_suppression:
        check_no_person_missing(rows["person"].to_numpy(), real, master, ctx)
    rows["sa"] = frame[config.sa].to_numpy(dtype=object)
    check_sensitive_values(frame, rows, real, master, ctx)
    regions = region_columns(config.qi)
    first = rows.groupby("gid", sort=False)[["row", *regions, "last"]].transform("first")
    check_groups(frame, rows, first, real, master, ctx)
    check_regions_hold_their_rows(frame, rows, real, master, ctx)
    if "last" in frame:
        check_one_last_per_group(frame, rows, first, ctx)
        if previous is None:
            raise ValidationError("seq.release.previous", **ctx, previous=release - 1)
        gids = previous.groups.index.to_numpy()
        check_last_truthful(rows, frame, gids, previous.real, ctx)
    return Release(release, rows, _groups(rows, regions))


def read_releases(
    sources: list, *, master: Master, names: list[str | None] | None = None
) -> tuple[Master, list[Release]]:
    """Read and validate ``T*(1..n)``, ``n = len(sources)``, in order (each with its
    predecessor, for ``last``), against the master as known at release ``n``.

    This is the one reading of a sequence: the server's check and ``python -m scoring seq
    check`` both call it. Using :meth:`Master.known_at` means the ranges behind ``*`` and
    IL, the categorical and sensitive domains, and the lifespans quoted in messages come
    from the persons of ``U(n)`` only, so the whole master and a team's ``master.csv`` so
    far (online mode) give the same results and messages.

    ``names``: each file's name for :func:`read_release`'s messages (the team's own).

    Returns
    -------
    (Master, list of Release)
        The master as known at ``n`` (score the releases against it) and the releases.
    """
    known = master.known_at(len(sources))
    releases: list[Release] = []
    names = names or [None] * len(sources)
    for j, source in enumerate(sources, start=1):
        previous = releases[-1] if releases else None
        releases.append(
            read_release(source, release=j, master=known, previous=previous, name=names[j - 1])
        )
    return known, releases


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
