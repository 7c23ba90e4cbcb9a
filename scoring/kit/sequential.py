"""Baseline publisher of the sequential round (spec §16): Xiao & Tao's m-invariant release.

``baseline_release(current, previous, config, release=j)`` turns ``T(j)`` (the team's
download: ``pid, QI…, sa``; ``lsf``/``lsb`` ignored) and the team's own ``T*(j−1)``
into ``release_<j>.csv`` as Z §3.2 describes it:

1. split ``S_nn`` (persons of ``T(j)`` published in ``T*(j−1)``) into buckets by their
   signature there;
2. balance each bucket (every value of its signature the same count), taking a missing
   value from ``S_n`` (the new persons) while ``S_n`` stays m-eligible — the tuple
   nearest in range-normalised QI distance to the bucket's real tuples **[chosen]** —
   else adding a counterfeit;
3. while ``S_n`` is not empty: values by count (ties by name **[chosen]**), ``β = m``,
   the largest ``α ≤ n_β`` with ``n_1 − α ≤ (γ − αβ)/m`` and ``n_{β+1} ≤ (γ − αβ)/m``,
   and ``α`` tuples (first in ``T(j)`` order **[chosen]**) of each of ``v_1..v_β`` go to
   the bucket of signature ``{v_1..v_β}``. When no ``α ≥ 1`` fits (``S_n`` not
   m-eligible) or fewer than ``m`` values are left, one tuple per value is taken and
   the bucket is padded with counterfeits, so the release stays m-unique;
4. split a bucket of height ``h`` into ``h`` groups, one tuple per value (each value's
   real tuples sorted by QI over the places real tuples hold, so that neighbours share a
   group and every group keeps a real tuple), with the minimal box around the group's
   real tuples **[chosen]**.

Every group has a real tuple, each person keeps its signature, and each group holds
each value of its signature once: the output passes §5 and reaches ``MINV ≥ m`` when
every earlier release was made this way (tested on the paper's tables and on
generated sequences). The output need not equal Z's 表 9.

Examples
--------
>>> import pandas as pd
>>> from scoring.sequential import parse_config
>>> config = parse_config({"n_releases": 1, "m": 2, "qi": {"Age": "num"}, "sa": "D"})
>>> t1 = pd.DataFrame({"pid": ["A", "B", "C", "D"], "Age": ["1", "2", "8", "9"],
...                    "D": ["x", "y", "x", "y"]})
>>> baseline_release(t1, None, config, release=1).values.tolist()
[['1', 'A', '[1,2]', 'x'], ['1', 'B', '[1,2]', 'y'], ['2', 'C', '[8,9]', 'x'], ['2', 'D', '[8,9]', 'y']]
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.numbers import number_texts, parse_numbers
from scoring.sequential.config import SeqConfig

COUNTERFEIT = ""


@dataclass
class Bucket:
    """A bucket: its signature and, per value, the tuples (pids; ``""`` = counterfeit)."""

    signature: tuple[str, ...]
    slots: dict[str, list[str]] = field(default_factory=dict)

    def height(self) -> int:
        return max((len(v) for v in self.slots.values()), default=0)


def _features(table: pd.DataFrame, config: SeqConfig) -> np.ndarray:
    """Range-normalised QI coordinates (categorical QIs as one-hot, weight 1)."""
    columns = []
    for column, kind in config.qi.items():
        if kind == "num":
            values = parse_numbers(table[column].to_numpy(dtype=object))
            span = float(values.max() - values.min()) if values.size else 0.0
            columns.append(((values - values.min()) / span if span > 0 else values * 0)[:, None])
        else:
            columns.append(pd.get_dummies(table[column]).to_numpy(dtype=float) / np.sqrt(2))
    return np.hstack(columns) if columns else np.zeros((len(table), 0))


def _eligible(counts: dict[str, int], m: int) -> bool:
    total = sum(counts.values())
    return total == 0 or max(counts.values()) * m <= total


def baseline_buckets(
    current: pd.DataFrame, previous: pd.DataFrame | None, config: SeqConfig
) -> list[Bucket]:
    """Phases 1–3 of §16: the balanced buckets of ``T(j)`` (signatures sorted by name)."""
    sa, m = config.sa, config.m
    current = current.reset_index(drop=True)
    features = _features(current, config)
    position = {pid: k for k, pid in enumerate(current["pid"])}
    value_of = dict(zip(current["pid"], current[sa], strict=True))
    buckets: dict[tuple[str, ...], Bucket] = {}
    new = list(current["pid"])
    if previous is not None and len(previous):
        real = previous.loc[previous["pid"] != ""]
        signature = previous.groupby("gid")[sa].agg(lambda s: tuple(sorted(set(s))))
        prior = dict(zip(real["pid"], signature.reindex(real["gid"]).to_numpy(), strict=True))
        kept = [p for p in current["pid"] if p in prior]  # phase 1: S_nn by signature
        for pid in kept:
            bucket = buckets.setdefault(prior[pid], Bucket(prior[pid]))
            bucket.slots.setdefault(value_of[pid], []).append(pid)
        new = [p for p in current["pid"] if p not in prior]
    pool = defaultdict(list)
    for pid in new:
        pool[value_of[pid]].append(pid)
    for key in sorted(buckets):  # phase 2: balance
        bucket = buckets[key]
        height = max(len(bucket.slots.get(v, [])) for v in key)
        members = [position[p] for pids in bucket.slots.values() for p in pids]
        for value in key:
            slots = bucket.slots.setdefault(value, [])
            while len(slots) < height:
                counts = {v: len(p) for v, p in pool.items() if p}
                if pool.get(value):
                    counts[value] -= 1
                if pool.get(value) and _eligible(counts, m):
                    candidates = [position[p] for p in pool[value]]
                    gaps = np.linalg.norm(
                        features[candidates][:, None, :] - features[members][None, :, :], axis=2
                    ).min(axis=1)
                    chosen = pool[value].pop(int(np.argmin(gaps)))
                    slots.append(chosen)
                else:
                    slots.append(COUNTERFEIT)
    domain = sorted(set(config.sa_domain or ()) | set(current[sa]))
    while any(pool.values()):  # phase 3
        counts = sorted(((len(p), v) for v, p in pool.items() if p), key=lambda c: (-c[0], c[1]))
        values = [v for _, v in counts]
        n = [c for c, _ in counts]
        gamma = sum(n)
        alpha = 0
        if len(values) >= m:
            for a in range(n[m - 1], 0, -1):
                rest = (gamma - a * m) / m
                if n[0] - a <= rest and (len(n) == m or n[m] <= rest):
                    alpha = a
                    break
        if alpha == 0:  # not m-eligible, or fewer than m values: one each, padded
            alpha = 1
        chosen_values = values[:m]
        padding = [v for v in domain if v not in chosen_values][: max(0, m - len(chosen_values))]
        if len(chosen_values) + len(padding) < m:
            padding += [f"counterfeit-{k}" for k in range(m - len(chosen_values) - len(padding))]
        key = tuple(sorted(chosen_values + padding))
        bucket = buckets.setdefault(key, Bucket(key))
        for value in key:
            slots = bucket.slots.setdefault(value, [])
            if value in chosen_values:
                slots.extend(pool[value][:alpha])
                del pool[value][:alpha]
            else:
                slots.extend([COUNTERFEIT] * alpha)
    if any(v.startswith("counterfeit-") for key in buckets for v in key):
        raise ValidationError("seq.baseline.too_few_values", m=m)
    return [buckets[key] for key in sorted(buckets)]


def _cell(values: list, kind: str) -> str:
    """A group's generalised cell from its real members' ``values`` (text, in their order)."""
    if kind == "num":
        numbers = parse_numbers(np.asarray(values, dtype=object))
        lo, hi = numbers.min(), numbers.max()
        text = number_texts([lo, hi])
        return f"[{text[0]},{text[1]}]"
    distinct = sorted(set(values))
    return distinct[0] if len(distinct) == 1 else "{" + "|".join(distinct) + "}"


def baseline_release(
    current: pd.DataFrame,
    previous: pd.DataFrame | None,
    config: SeqConfig,
    *,
    release: int,
) -> pd.DataFrame:
    """The baseline ``release_<j>.csv`` (text cells, header ``config.release_columns(j)``).

    Parameters
    ----------
    current : pandas.DataFrame
        ``T(j)``: ``pid``, the QIs and the sensitive column as text (other columns ignored).
    previous : pandas.DataFrame or None
        The team's ``release_<j−1>.csv`` as text cells (None for ``j = 1``).
    config : SeqConfig
    release : int
        ``j``.
    """
    current = current.reset_index(drop=True).astype(str)
    if previous is not None:
        previous = previous.astype(str)
    buckets = baseline_buckets(current, previous, config)
    indexed = current.set_index("pid")
    order = indexed[list(config.qi)].copy()
    for column, kind in config.qi.items():
        if kind == "num":
            order[column] = parse_numbers(order[column].to_numpy(dtype=object))
    rank = {pid: k for k, pid in enumerate(order.sort_values(list(config.qi), kind="stable").index)}
    # Each QI's cells by pid, read once (a label lookup per group and column cost 1 ms); a
    # pid is one person (the master refuses a repeated one: ``seq.master.pid_duplicate``).
    by_pid = {c: dict(zip(indexed.index, indexed[c], strict=True)) for c in config.qi}
    rows, gid = [], 0
    for bucket in buckets:  # phase 4
        lists = {}
        for value, pids in bucket.slots.items():
            # reals in QI order, on the positions reals had: every position (group) keeps
            # a real tuple, since each phase step added a real tuple to every position
            real = iter(sorted((p for p in pids if p), key=rank.__getitem__))
            lists[value] = [next(real) if pid else COUNTERFEIT for pid in pids]
        for i in range(bucket.height()):
            members = [(value, lists[value][i]) for value in bucket.signature]
            real = [pid for _, pid in members if pid]
            if not real:  # cannot happen: the fullest value is real in every group
                raise AssertionError("a baseline group without a real tuple")
            gid += 1
            cells = {c: _cell([by_pid[c][pid] for pid in real], k) for c, k in config.qi.items()}
            for value, pid in members:
                rows.append({"gid": str(gid), "pid": pid, **cells, config.sa: value})
    frame = pd.DataFrame(rows, columns=["gid", "pid", *config.qi, config.sa])
    columns = config.release_columns(release)
    if "tampered" in columns:
        frame["tampered"] = "0"
    if "last" in columns:
        frame["last"] = _truthful_last(frame, previous)
    return frame[columns]


def _truthful_last(frame: pd.DataFrame, previous: pd.DataFrame | None) -> list[str]:
    """``last`` per row: the one earlier group of a group's continuing persons (§8.1), else ``-``."""
    if previous is None:
        return ["-"] * len(frame)
    before = dict(zip(previous["pid"], previous["gid"], strict=True))
    before.pop("", None)
    came_from = frame["pid"].map(before)
    sources = came_from.groupby(frame["gid"]).agg(lambda s: set(s.dropna()))
    last = {g: (next(iter(s)) if len(s) == 1 else "-") for g, s in sources.items()}
    for h in {v for v in last.values() if v != "-"}:  # (b): all of h's continuing persons
        groups_of_h = set(frame.loc[came_from == h, "gid"])
        if any(last[g] != h for g in groups_of_h):
            last = {g: ("-" if v == h else v) for g, v in last.items()}
    return [last[g] for g in frame["gid"]]
