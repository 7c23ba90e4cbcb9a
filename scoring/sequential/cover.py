"""The candidate groups of each person in one release (spec §7.1, §8.1): ``G_j(p)``, the
groups whose region contains the person's QI, restricted by ``last`` when the round
discloses it.

Candidate pairs (person, group) come from the QI giving the fewest pairs — a sorted window
over a numeric QI (wide groups, such as ``*``, as their own class) or the groups holding
each value of a categorical QI — and are then filtered by every QI (``risk`` uses them).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scoring.sequential.cells import SEP
from scoring.sequential.master import Master
from scoring.sequential.release import Release


def expand(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenate ``arange(s, s + c)`` for each pair (vectorised)."""
    total = int(counts.sum())
    offsets = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    return np.repeat(starts, counts) + offsets


def _window_pairs(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i, g) with ``lo[g] ≤ x[i]`` and ``lo[g] ≥ x[i] − max width`` (a superset of cover)."""
    order = np.argsort(lo, kind="stable")
    sorted_lo = lo[order]
    width = float((hi - lo).max()) if lo.size else 0.0
    a = np.searchsorted(sorted_lo, x - width, side="left")
    b = np.searchsorted(sorted_lo, x, side="right")
    counts = b - a
    return np.repeat(np.arange(x.size), counts), order[expand(a, counts)]


def _numeric_pairs(x: np.ndarray, lo: np.ndarray, hi: np.ndarray):
    """Candidate pairs on one numeric QI, wide groups (above 4× the median width) apart."""
    width = hi - lo
    wide = width > 4 * np.median(width) if width.size else np.zeros(0, dtype=bool)
    persons, groups = [], []
    for mask in (~wide, wide):
        if mask.any():
            index = np.flatnonzero(mask)
            i, g = _window_pairs(x, lo[index], hi[index])
            persons.append(i)
            groups.append(index[g])
    if not persons:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(persons), np.concatenate(groups)


def _category_members(groups: pd.DataFrame, column: str, domain: pd.Index):
    """``(group position, value code)`` of every value of every group's set on ``column``."""
    parts = groups[f"{column}.set"].reset_index(drop=True).str.split(SEP).explode()
    return parts.index.to_numpy(), domain.get_indexer(parts.to_numpy())


def cover_pairs(master: Master, release: Release, people: np.ndarray):
    """Pairs (person, group position) such that the group's region contains the person's QI.

    ``people`` are master rows; group positions index ``release.groups``. One QI drives
    the search — the one with the fewest candidate pairs: a sorted window over a numeric
    QI, or the groups holding each value of a categorical QI — and every QI filters.
    """
    config = master.config
    groups = release.groups
    frame = master.frame
    best = None  # (pairs, kind, column)
    for column, kind in config.qi.items():
        x = frame[column].to_numpy()[people]
        if kind == "num":
            lo = groups[f"{column}.lo"].to_numpy()
            width = float((groups[f"{column}.hi"].to_numpy() - lo).max()) if lo.size else 0.0
            sorted_lo = np.sort(lo)
            size = int(
                (
                    np.searchsorted(sorted_lo, x, "right")
                    - np.searchsorted(sorted_lo, x - width, "left")
                ).sum()
            )
        else:
            domain = pd.Index(master.domains[column])
            _, codes = _category_members(groups, column, domain)
            per_code = np.bincount(codes, minlength=len(domain))
            size = int(per_code[domain.get_indexer(x)].sum())
        if best is None or size < best[0]:
            best = (size, kind, column)
    _, kind, column = best
    x = frame[column].to_numpy()[people]
    if kind == "num":
        i, g = _numeric_pairs(
            x, groups[f"{column}.lo"].to_numpy(), groups[f"{column}.hi"].to_numpy()
        )
    else:
        domain = pd.Index(master.domains[column])
        positions, codes = _category_members(groups, column, domain)
        order = np.argsort(codes, kind="stable")
        indptr = np.searchsorted(codes[order], np.arange(len(domain) + 1))
        code = domain.get_indexer(x)
        counts = indptr[code + 1] - indptr[code]
        i = np.repeat(np.arange(people.size), counts)
        g = positions[order][expand(indptr[code], counts)]
    keep = np.ones(i.size, dtype=bool)
    for column, kind in config.qi.items():
        x = frame[column].to_numpy()[people][i]
        if kind == "num":
            keep &= (groups[f"{column}.lo"].to_numpy()[g] <= x) & (
                x <= groups[f"{column}.hi"].to_numpy()[g]
            )
        else:
            domain = pd.Index(master.domains[column])
            member = np.zeros((len(groups), len(domain)), dtype=bool)
            member[_category_members(groups, column, domain)] = True
            keep &= member[g, domain.get_indexer(x)]
    return people[i[keep]], g[keep]


def restrict_by_last(pairs, previous_pairs, release: Release):
    """§8.1: drop candidates contradicting ``last`` (rules 1 and 2), forward in time."""
    person, gpos = pairs
    last = release.groups["last"].to_numpy()[gpos]
    prev_person, prev_gid = previous_pairs
    if prev_person.size == 0:
        return pairs
    stride = int(max(prev_gid.max(), last.max())) + 1
    held = np.unique(prev_person)  # persons with a non-empty H
    in_h = np.isin(person, held)
    known = np.isin(person * stride + last, prev_person * stride + prev_gid)
    drop = in_h & (last > 0) & ~known
    successors = np.unique(release.groups["last"].to_numpy())
    has_successor = np.isin(prev_gid, successors[successors > 0])
    all_followed = pd.Series(has_successor).groupby(prev_person).all()
    followed = all_followed.index.to_numpy()[all_followed.to_numpy()]
    drop |= in_h & (last == 0) & np.isin(person, followed)
    return person[~drop], gpos[~drop]
