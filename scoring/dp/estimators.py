"""Estimators of the workload from a release (BT, BR by eq. 3, BI), and estimate files.

* **BT** tabulates the released table: ``y``.
* **BR** reconstructs by iterative Bayes, eq. (3), from a uniform (or observed) start,
  stopping at the first t with ``Σ|z^{t+1} − z^t| ≤ tol·Σy`` (spec §3.5).
* **BI** inverts the channel: ``y A_S⁻¹`` (may be negative; an extension, not in Y).

``estimate.csv`` (§7.4) has the header ``target,<workload attributes>,count`` and one
row per cell of every target; :func:`read_estimate` validates it with the §12 messages.

Examples
--------
>>> from scoring.dp._examples import toy_channel
>>> channel = toy_channel()
>>> result = reconstruct([1, 2, 1, 2, 1, 3], channel)
>>> result.iterations, result.estimate.round(6).tolist()
(126, [0.067716, 2.960178, 4.4e-05, 2.421644, 3e-06, 4.550415])
>>> (invert([1, 2, 1, 2, 1, 3], channel).round(4) + 0).tolist()
[0.0, 4.0, -1.0, 2.6667, -1.3333, 5.6667]
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.dp.config import DPConfig
from scoring.dp.data import domain_positions, histogram_of_codes, target_cells
from scoring.dp.errors import DPError, row_listing
from scoring.dp.pk import Channel, ReleasePlan, target_channel
from scoring.messages import clip
from scoring.numbers import parse_numbers
from scoring.tables import read_table
from scoring.validation import header_problems

ESTIMATORS = ("BT", "BR", "BI")


@dataclass(frozen=True)
class Reconstruction:
    """The result of eq. (3): the estimate and the number of updates made."""

    estimate: np.ndarray
    iterations: int
    converged: bool


def reconstruct(
    y, channel: Channel, *, tol: float = 1e-4, max_iter: int = 100_000, init: str = "uniform"
) -> Reconstruction:
    """Iterative Bayes reconstruction, Y eq. (3), of a released histogram ``y``.

    ``z_i^{t+1} = Σ_j y_j z_i^t A[i][j] / Σ_k z_k^t A[k][j]``, from ``z⁰ = Σy/V``
    (``init="uniform"``), ``z⁰ = y`` (``"observed"``) or a given vector; stop at the first t with
    ``Σ|z^{t+1} − z^t| ≤ tol·Σy`` and return ``z^{t+1}``, or after ``max_iter`` updates.
    """
    estimates, iterations, converged = reconstruct_many(
        np.asarray(y, dtype=float)[None, :], channel, tol=tol, max_iter=max_iter, init=init
    )
    return Reconstruction(estimates[0], int(iterations[0]), bool(converged[0]))


def reconstruct_many(
    releases, channel: Channel, *, tol: float = 1e-4, max_iter: int = 100_000, init: str = "uniform"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Eq. (3) on a stack of released histograms (rows) at once, each with its own stop.

    Returns the estimates (rows), the number of updates of each row and whether each
    converged. Row by row it is exactly :func:`reconstruct`; stacking only shares the
    interpreter's work across trials (the baselines reconstruct 30 releases per level).
    """
    y_all = np.atleast_2d(np.asarray(releases, dtype=float))
    totals = y_all.sum(axis=1)
    out = np.zeros_like(y_all)
    iterations = np.zeros(y_all.shape[0], dtype=np.int64)
    converged = np.ones(y_all.shape[0], dtype=bool)
    rows = np.flatnonzero(totals > 0)  # an empty release reconstructs to zeros, at once
    y = y_all[rows]
    if isinstance(init, str) and init == "uniform":
        z = np.repeat((totals[rows] / y_all.shape[1])[:, None], y_all.shape[1], axis=1)
    elif isinstance(init, str):
        z = y.copy()
    else:  # an explicit z⁰ (tests of the fixed point)
        z = np.broadcast_to(np.asarray(init, dtype=float), y_all.shape)[rows].copy()
    threshold = tol * totals[rows]
    for iteration in range(1, max_iter + 1):
        if rows.size == 0:
            break
        expected = channel.apply(z)
        ratio = np.divide(y, expected, out=np.zeros_like(y), where=expected > 0)
        updated = z * channel.apply(ratio)
        done = np.abs(updated - z).sum(axis=1) <= threshold
        if done.any():
            out[rows[done]] = updated[done]
            iterations[rows[done]] = iteration
            keep = ~done
            rows, y, z, threshold = rows[keep], y[keep], updated[keep], threshold[keep]
        else:
            z = updated
    out[rows] = z
    iterations[rows] = max_iter
    converged[rows] = False
    return out, iterations, converged


def invert(y, channel: Channel) -> np.ndarray:
    """BI: the unbiased inversion ``y A_S⁻¹`` (needs every ρ_g > 0)."""
    return channel.apply_inverse(np.asarray(y, dtype=float))


def release_histograms(
    codes: np.ndarray, plan: ReleasePlan | None, config: DPConfig
) -> dict[str, np.ndarray]:
    """BT: the histogram of the released codes (N × released attributes) for every target.

    The columns are ``plan.attributes``, or the workload attributes without a plan.
    """
    attributes = config.workload_attributes if plan is None else plan.attributes
    column = {a: k for k, a in enumerate(attributes)}
    return {
        t.id: histogram_of_codes(
            codes[:, [column[a] for a in t.attributes]], config.domain_sizes(t.attributes)
        )
        for t in config.workload
    }


def estimate_from_release(
    codes: np.ndarray, plan: ReleasePlan | None, config: DPConfig, estimator: str
) -> dict[str, np.ndarray]:
    """The BT, BR or BI estimate of every workload target from a release's codes.

    BT needs no plan; BR and BI need the release's plan (its ρ's).
    """
    if estimator not in ESTIMATORS:
        raise DPError("dp.estimator.unknown", estimator=clip(estimator))
    if plan is None and estimator != "BT":
        raise ValueError(f"{estimator} needs the release's plan")
    if estimator == "BI":
        for number, group in enumerate(plan.groups, start=1):
            if group.rho <= 0:
                raise DPError("dp.estimator.bi_rho_zero", group=number)
    histograms = release_histograms(codes, plan, config)
    if estimator == "BT":
        return {key: value.astype(float) for key, value in histograms.items()}
    out = {}
    settings = config.reconstruction
    for target in config.workload:
        channel = target_channel(plan, config, target.attributes)
        y = histograms[target.id]
        if estimator == "BR":
            out[target.id] = reconstruct(
                y, channel, tol=settings.tol, max_iter=settings.max_iter, init=settings.init
            ).estimate
        else:
            out[target.id] = invert(y, channel)
    return out


def estimate_header(config: DPConfig) -> list[str]:
    """``target,<workload attributes in round order>,count``."""
    return ["target", *config.workload_attributes, "count"]


def estimate_frame(estimates: dict[str, np.ndarray], config: DPConfig) -> pd.DataFrame:
    """An ``estimate.csv`` table: one row per cell of every target, targets in workload order."""
    parts = []
    for target in config.workload:
        values = np.asarray(estimates[target.id], dtype=float)
        sizes = config.domain_sizes(target.attributes)
        codes = np.unravel_index(np.arange(values.size), sizes)
        columns = {"target": np.full(values.size, target.id, dtype=object)}
        for attribute in config.workload_attributes:
            if attribute in target.attributes:
                domain = np.asarray(config.attributes[attribute], dtype=object)
                columns[attribute] = domain[codes[target.attributes.index(attribute)]]
            else:
                columns[attribute] = np.full(values.size, "", dtype=object)
        columns["count"] = values  # to_csv writes the shortest text that reads back exactly
        parts.append(pd.DataFrame(columns))
    return pd.concat(parts, ignore_index=True)[estimate_header(config)]


def write_estimate(estimates: dict[str, np.ndarray], config: DPConfig) -> bytes:
    """The bytes of ``estimate.csv`` (UTF-8, LF line ends)."""
    buffer = io.StringIO()
    estimate_frame(estimates, config).to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue().encode("utf-8")


def _cell_text(cell) -> str:
    return "(" + ",".join(cell) + ")"


def read_estimate(source, config: DPConfig, *, name: str = "estimate.csv") -> dict[str, np.ndarray]:
    """Read and validate ``estimate.csv`` (§7.4, §12); return each target's vector.

    Parameters
    ----------
    source : path, bytes or binary file
        UTF-8 (BOM allowed) or Shift_JIS (CP932) CSV, read by :func:`scoring.tables.read_table`
        (any other encoding is refused, naming the one it most likely is).
    config : DPConfig
        The round (its workload and domains).
    name : str, optional
        How messages call the file: the name it was uploaded under.

    Returns
    -------
    dict
        Target id → float array of its V_S counts in row-major cell order.

    Examples
    --------
    >>> from scoring.dp._examples import toy_config
    >>> config = toy_config()
    >>> text = "target,gender,age,count\\ngender,F,,4\\ngender,M,,6\\n" + "".join(
    ...     f"gender_age,{g},{a},1\\n" for g in "FM" for a in ("<=17", "18-24", "25-34"))
    >>> read_estimate(text.encode(), config)["gender"].tolist()
    [4.0, 6.0]
    >>> read_estimate(text.replace("gender,M,,6", "gender,M,,inf").encode(), config)
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: Row 2: count 'inf' is not a finite number. Rows are numbered from 1 after the header line.
    """
    text = _estimate_text(source, config, name)
    targets = {t.id: t for t in config.workload}
    known = text["target"].isin(list(targets)).to_numpy()
    if not known.all():
        bad = np.flatnonzero(~known)
        raise DPError(
            "dp.estimate.unknown_target",
            name=clip(name),
            rows=row_listing((bad + 1).tolist(), text["target"].iloc[bad].tolist()),
            targets=", ".join(targets),
        )
    counts = parse_numbers(text["count"].to_numpy(dtype=object))
    bad = np.flatnonzero(~np.isfinite(counts))
    if bad.size:
        row = int(bad[0])
        raise DPError("dp.estimate.count", row=row + 1, value=clip(text["count"].iloc[row]))
    row_numbers = np.arange(1, len(text) + 1)
    out = {}
    for target in config.workload:
        mask = (text["target"] == target.id).to_numpy()
        flat = _cell_positions(text[mask], row_numbers[mask], target, config)
        vector = np.zeros(int(np.prod(config.domain_sizes(target.attributes))), dtype=float)
        vector[flat] = counts[mask]
        out[target.id] = vector
    return out


def _estimate_text(source, config: DPConfig, name: str) -> pd.DataFrame:
    """The file's cells as stripped text under the expected header."""
    table = read_table(source, name=name)
    header = estimate_header(config)
    problems = header_problems(header, [str(c).strip() for c in table.columns])
    if problems:
        raise DPError(
            "dp.estimate.header", name=clip(name), header=",".join(header), problems=problems
        )
    table = table.set_axis(header, axis=1)
    return table.astype(str).apply(lambda column: column.str.strip())


def _cell_positions(part: pd.DataFrame, rows: np.ndarray, target, config: DPConfig) -> np.ndarray:
    """Each of the target's rows as its cell's position (row-major): only the target's
    attributes filled, each value in its domain, every cell exactly once."""
    for attribute in config.workload_attributes:
        if attribute in target.attributes:
            continue
        filled = np.flatnonzero(part[attribute].to_numpy(dtype=object) != "")
        if filled.size:
            raise DPError(
                "dp.estimate.extra_fill",
                row=int(rows[filled[0]]),
                attribute=attribute,
                target=target.id,
            )
    codes = np.empty((len(part), len(target.attributes)), dtype=np.int64)
    for k, attribute in enumerate(target.attributes):
        values = part[attribute].to_numpy(dtype=object)
        column = domain_positions(values, config.attributes[attribute])
        outside = np.flatnonzero(column < 0)
        if outside.size:
            first = int(outside[0])
            raise DPError(
                "dp.estimate.outside_domain",
                row=int(rows[first]),
                value=clip(values[first]),
                attribute=attribute,
                target=target.id,
            )
        codes[:, k] = column
    sizes = config.domain_sizes(target.attributes)
    flat = np.ravel_multi_index(tuple(codes.T), sizes) if len(part) else np.zeros(0, dtype=np.int64)
    _each_cell_once(flat, rows, target, config, int(np.prod(sizes)))
    return flat


def _each_cell_once(flat, rows, target, config: DPConfig, cells: int) -> None:
    order = np.argsort(flat, kind="stable")
    repeated = np.flatnonzero(np.diff(flat[order]) == 0)
    if repeated.size:
        first, second = order[repeated[0]], order[repeated[0] + 1]
        cell = target_cells(config, target.attributes)[int(flat[first])]
        raise DPError(
            "dp.estimate.duplicate_cell",
            cell=clip(_cell_text(cell)),
            target=target.id,
            first=int(rows[first]),
            second=int(rows[second]),
        )
    present = np.zeros(cells, dtype=bool)
    present[flat] = True
    if not present.all():
        missing = np.flatnonzero(~present)
        names = [
            _cell_text(c)
            for c in (target_cells(config, target.attributes)[int(i)] for i in missing[:10])
        ]
        cells = {"target": target.id, "cells": clip(", ".join(names), 2000)}
        if missing.size > 10:  # the first ten and how many in all, in the catalogue's words
            raise DPError("dp.estimate.missing_many_cells", total=f"{missing.size:,}", **cells)
        raise DPError("dp.estimate.missing_cells", **cells)
