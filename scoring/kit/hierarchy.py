"""Hierarchy generalization per ``attr_depth.json`` (B.1.1) and k-anonymization DA (B.3).

``attr_depth.json`` (seed 003's exercise) gives, per column, either a categorical
hierarchy ``{"type": "category", "definition": {value: {"depth_1": …, "depth_2": …}}}``
or numeric thresholds ``{"type": "numeric", "threshold_1": "30/50/70", "threshold_2": "50"}``.
Level 0 is the identity. Generalized values are mapped back to first-level values
(original values of the column), so the result is a valid submission.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.bounded_json import load_json_file, loads_bounded
from scoring.kit._common import (
    KitError,
    as_frame,
    at_least,
    check_columns,
    class_codes,
    deleted_rows,
    format_numbers,
    numbers,
    output_frame,
    rng_of,
    sort_keys,
)
from scoring.kit.methods import remove_record


@dataclass(frozen=True)
class ColumnHierarchy:
    """One column of ``attr_depth.json``: categorical maps per level, or numeric thresholds."""

    column: str
    kind: str  # "category" or "numeric"
    maps: tuple[Mapping[str, str], ...] = ()  # level l -> {value: group}, l = 1..depth
    thresholds: tuple[tuple[float, ...], ...] = ()

    @property
    def depth(self) -> int:
        return len(self.maps) if self.kind == "category" else len(self.thresholds)


def load_hierarchy(source) -> dict[str, ColumnHierarchy]:
    """Parse ``attr_depth.json`` (a path, JSON text or a dict) into column hierarchies.

    Examples
    --------
    >>> h = load_hierarchy({"age": {"type": "numeric", "threshold_1": "70/30/50", "threshold_2": "50"}})
    >>> h["age"].thresholds
    ((30.0, 50.0, 70.0), (50.0,))
    """
    if isinstance(source, str | os.PathLike) and not str(source).lstrip().startswith("{"):
        raw = load_json_file(source)
    elif isinstance(source, str | bytes):
        raw = loads_bounded(source)
    else:
        raw = source
    if not isinstance(raw, Mapping):
        raise KitError("kit.bad_hierarchy", column="", reason="the file must hold a JSON object")
    out = {}
    for column, spec in raw.items():
        kind = spec.get("type") if isinstance(spec, Mapping) else None
        if kind == "category":
            definition = spec.get("definition")
            if not isinstance(definition, Mapping) or not definition:
                raise KitError(
                    "kit.bad_hierarchy",
                    column=column,
                    reason="'definition' must be a non-empty object",
                )
            depth = min(
                sum(1 for key in d if str(key).startswith("depth_")) for d in definition.values()
            )
            maps = tuple(
                {str(v): str(d[f"depth_{level}"]) for v, d in definition.items()}
                for level in range(1, depth + 1)
            )
            out[column] = ColumnHierarchy(column, "category", maps=maps)
        elif kind == "numeric":
            levels, level = [], 1
            while f"threshold_{level}" in spec:
                text = str(spec[f"threshold_{level}"])
                try:
                    levels.append(tuple(sorted(float(t) for t in text.split("/") if t.strip())))
                except ValueError:
                    raise KitError(
                        "kit.bad_hierarchy",
                        column=column,
                        reason=f"threshold_{level} {text!r} is not numbers separated by '/'",
                    ) from None
                level += 1
            out[column] = ColumnHierarchy(column, "numeric", thresholds=tuple(levels))
        else:
            raise KitError(
                "kit.bad_hierarchy", column=column, reason="'type' must be 'category' or 'numeric'"
            )
    return out


def check_level_order(hierarchy: Mapping[str, ColumnHierarchy]) -> None:
    """Each level must coarsen the one below (needed by k-anonymization's lattice)."""
    for name, h in hierarchy.items():
        if h.kind == "numeric":
            for lower in range(1, h.depth):
                extra = sorted(set(h.thresholds[lower]) - set(h.thresholds[lower - 1]))
                if extra:
                    raise KitError(
                        "kit.level_order",
                        column=name,
                        lower=lower,
                        upper=lower + 1,
                        detail=f"threshold {extra[0]:g} is not a threshold of level {lower}",
                    )
        else:
            for lower in range(1, h.depth):
                pairs = pd.DataFrame(
                    {"low": list(h.maps[lower - 1].values()), "up": list(h.maps[lower].values())}
                )
                split = pairs.groupby("low")["up"].nunique()
                if (split > 1).any():
                    raise KitError(
                        "kit.level_order",
                        column=name,
                        lower=lower,
                        upper=lower + 1,
                        detail=f"group {split[split > 1].index[0]!r} is split",
                    )


def _generalize_column(
    cells, kept, h: ColumnHierarchy, level: int, *, back_map, median, rng, method
):
    """New text of the kept cells of one column at ``level``."""
    values = cells[kept]
    if level == 0:
        return values
    if level > h.depth or level < 0:
        raise KitError("kit.no_level", method=method, column=h.column, level=level, top=h.depth)
    if h.kind == "numeric":
        x = numbers(
            pd.DataFrame({h.column: values}), h.column, np.arange(values.size), method=method
        )
        group = np.searchsorted(np.asarray(h.thresholds[level - 1]), x, side="right")
        order = np.lexsort((x, group))
        sizes = np.bincount(group)
        starts = np.r_[0, np.cumsum(sizes)[:-1]]
        if median == "pandas":
            low = order[starts + (sizes - 1) // 2]
            high = order[starts + sizes // 2]
            middle = (x[low] + x[high]) / 2.0
            return format_numbers(middle[group])
        pick = np.zeros(sizes.size, dtype=np.int64)
        present = sizes > 0
        pick[present] = order[starts[present] + (sizes[present] + 1) // 2 - 1]  # low median
        return values[pick[group]]
    mapping = h.maps[level - 1]
    distinct = pd.unique(values)
    missing = [v for v in distinct if str(v) not in mapping]
    if missing:
        raise KitError(
            "kit.no_definition",
            method=method,
            column=h.column,
            values=", ".join(map(repr, sorted(map(str, missing))[:10])),
        )
    group_of = pd.Series(mapping)
    groups = group_of.reindex(values.astype(str)).to_numpy(dtype=object)
    group_codes, group_names = pd.factorize(groups)
    value_sorted, value_codes = sort_keys(values)
    if back_map == "mode":
        counts = (
            pd.DataFrame({"g": group_codes, "v": value_codes}).value_counts().reset_index(name="n")
        )
        counts = counts.sort_values(["g", "n", "v"], ascending=[True, False, True], kind="stable")
        best = counts.drop_duplicates("g").set_index("g")["v"]
        return value_sorted[
            best.reindex(np.arange(group_names.size)).to_numpy(dtype=np.int64)[group_codes]
        ]
    if back_map == "random":
        pairs = np.unique(
            np.column_stack([group_codes, value_codes]), axis=0
        )  # sorted by group, value
        first = np.searchsorted(pairs[:, 0], np.arange(group_names.size))
        count = np.bincount(pairs[:, 0], minlength=group_names.size)
        pick = first[group_codes] + np.floor(rng.random(values.size) * count[group_codes]).astype(
            np.int64
        )
        return value_sorted[pairs[pick, 1]]
    raise KitError("kit.bad_parameter", method=method, name="back_map", reason="'mode' or 'random'")


def generalize(
    table: pd.DataFrame,
    config,
    *,
    hierarchy,
    levels: Mapping[str, int],
    back_map: str = "mode",
    median: str = "low",
    seed=None,
):
    """``Generalization``: each column of ``levels`` to its level of ``attr_depth.json`` (B.1.1).

    Numeric groups ``(−∞,t_1), [t_1,t_2), …`` take their low median (an original value;
    ``median="pandas"`` takes the mean of the two middle values, for ``number`` columns).
    Categorical groups go back to an original value: the group's most frequent value
    (``back_map="mode"``, ties to the smallest) or a uniform pick among its values
    (``"random"``, seeded).

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config, bank_hierarchy
    >>> out = generalize(bank(), bank_config(), hierarchy=bank_hierarchy(), levels={"age": 1, "pref": 1})
    >>> out["age"].tolist()
    ['23', '23', '35', '35', '35', '35', '58', '58', '58', '89']
    >>> out["pref"].tolist()[:5]
    ['東京', '東京', '東京', '京都', '京都']
    """
    method = "generalize"
    hierarchy = load_hierarchy(hierarchy) if not _parsed(hierarchy) else hierarchy
    check_columns(table, list(levels), method=method)
    if median not in ("low", "pandas"):
        raise KitError(
            "kit.bad_parameter", method=method, name="median", reason="'low' or 'pandas'"
        )
    rng = rng_of(seed)
    out = output_frame(table)
    kept = np.flatnonzero(~deleted_rows(out))
    for column, level in levels.items():
        if column not in hierarchy:
            raise KitError("kit.no_level", method=method, column=column, level=level, top=0)
        if median == "pandas" and config.domains.get(column) != "number":
            raise KitError("kit.number_domain", method=method, column=column, option="median=low")
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = _generalize_column(
            cells,
            kept,
            hierarchy[column],
            int(level),
            back_map=back_map,
            median=median,
            rng=rng,
            method=method,
        )
        out[column] = cells
    return out


def _parsed(hierarchy) -> bool:
    return isinstance(hierarchy, Mapping) and all(
        isinstance(h, ColumnHierarchy) for h in hierarchy.values()
    )


def level_vectors(depths: Sequence[int]):
    """All level vectors, in order of (sum, lexicographic).

    Examples
    --------
    >>> list(level_vectors([1, 2]))
    [(0, 0), (0, 1), (1, 0), (0, 2), (1, 1), (1, 2)]
    """
    vectors = itertools.product(*(range(d + 1) for d in depths))
    return iter(sorted(vectors, key=lambda v: (sum(v), v)))


def k_anonymize(
    table: pd.DataFrame,
    config,
    *,
    hierarchy,
    k: int,
    budget: int = 0,
    columns: Sequence[str] | None = None,
):
    """DA: full-domain generalization lattice, then record removal (B.3).

    Level vectors over the ``columns`` (default: the ``qi`` columns that have a
    hierarchy) are tried in order of (sum, lexicographic), generalizing with
    ``back_map="mode"``; the first for which at most ``budget`` rows lie in classes
    (over all ``qi``) smaller than ``k`` is applied, and those rows are removed.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config, bank_hierarchy
    >>> cfg = bank_config(qi=["age", "pref"])
    >>> out = k_anonymize(bank(), cfg, hierarchy=bank_hierarchy(), k=2, budget=2)
    >>> np.flatnonzero((out == "").all(axis=1)).tolist()
    [8, 9]
    """
    method = "k_anonymize"
    at_least(k, 1, method=method, name="k")
    hierarchy = load_hierarchy(hierarchy) if not _parsed(hierarchy) else hierarchy
    if columns is None:
        columns = [c for c in config.qi if c in hierarchy]
    columns = check_columns(table, columns, method=method)
    check_level_order({c: hierarchy[c] for c in columns})
    out = output_frame(table)
    kept = np.flatnonzero(~deleted_rows(out))
    best = (len(out) + 1, None)
    for vector in level_vectors([hierarchy[c].depth for c in columns]):
        candidate = generalize(
            out, config, hierarchy=hierarchy, levels=dict(zip(columns, vector, strict=True))
        )
        codes = class_codes(candidate, config.qi, kept)
        small = int(np.sum(np.bincount(codes)[codes] < int(k)))
        if small < best[0]:
            best = (small, vector)
        if small <= int(budget):
            return remove_record(candidate, config, k=int(k), columns=config.qi)
    raise KitError("kit.no_budget", budget=budget, k=k, best=best[0], levels=str(best[1]))


def attr_depth_example(table: pd.DataFrame, config, *, groups: int = 4) -> dict:
    """An ``attr_depth.json`` for the ``qi`` columns of ``table``, to edit by hand.

    A column of integers with at least 8 distinct values is numeric: level 1 cuts at
    its quartiles, level 2 at its median. Any other column is categorical: level 1
    groups its sorted distinct values into ``groups`` consecutive blocks, level 2 puts
    them all in one group. Each level coarsens the one below.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> example = attr_depth_example(bank(), bank_config())
    >>> example["age"]
    {'type': 'numeric', 'threshold_1': '31/38/52', 'threshold_2': '38'}
    >>> example["pref"]["definition"]["京都"]
    {'depth_1': '京都', 'depth_2': '*'}
    """
    table = as_frame(table)
    table = table.iloc[np.flatnonzero(~deleted_rows(table))]
    out = {}
    for column in config.qi:
        distinct, codes = sort_keys(table[column].to_numpy(dtype=object))
        as_numbers = pd.to_numeric(pd.Series(distinct), errors="coerce").to_numpy(dtype=np.float64)
        integral = np.isfinite(as_numbers).all() and np.all(as_numbers == np.round(as_numbers))
        if integral and distinct.size >= 8:
            values = np.sort(as_numbers[codes])
            quartiles = [values[int(q * (values.size - 1))] for q in (0.25, 0.5, 0.75)]
            cuts = sorted({int(v) for v in quartiles})
            median = int(quartiles[1])
            out[column] = {
                "type": "numeric",
                "threshold_1": "/".join(map(str, cuts)),
                "threshold_2": str(median),
            }
            continue
        size = int(np.ceil(distinct.size / groups)) or 1
        definition = {}
        for start in range(0, distinct.size, size):
            block = [str(v) for v in distinct[start : start + size]]
            label = block[0] if len(block) == 1 else f"{block[0]}…{block[-1]}"
            for value in block:
                definition[value] = {"depth_1": label, "depth_2": "*"}
        out[column] = {"type": "category", "definition": definition}
    return out
