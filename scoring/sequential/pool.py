"""Per-team masters drawn from an organizer's pool (spec §3): each team its own part of the
pool, its own persons arriving and leaving, every ``T(j)`` m-eligible."""

from __future__ import annotations

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.sequential.config import SeqConfig
from scoring.sequential.master import read_master


def draw_team_masters(
    pool: pd.DataFrame,
    teams: list[str],
    config: SeqConfig,
    *,
    size: int,
    turnover: float,
    seed: int,
    attempts: int = 100,
) -> dict[str, pd.DataFrame]:
    """Draw one master per team from a pool table ``pid,QI…,sa`` (spec §3, per-team masters).

    Teams get disjoint parts of the pool. ``T(1)`` is a uniform sample of ``size``
    persons; at each later step every present person leaves with probability
    ``turnover`` and fresh persons of the team's part enter until ``|T(j)| = size``.
    A draw is redone (up to ``attempts`` times) while some ``T(j)`` is not m-eligible.

    Returns
    -------
    dict
        ``team -> DataFrame`` of text cells with the master header, ready for
        :func:`read_master`.

    Raises
    ------
    scoring.errors.ValidationError
        The pool is too small, or no eligible draw was found.
    """
    rng = np.random.default_rng(seed)
    n = config.n_releases
    order = rng.permutation(len(pool))
    parts = np.array_split(order, len(teams))
    masters = {}
    for team, part in zip(teams, parts, strict=False):
        for _ in range(attempts):
            drawn = _draw_one(pool.iloc[part].reset_index(drop=True), config, size, turnover, rng)
            if drawn is None:
                raise ValidationError(
                    "seq.pool.too_small",
                    persons=len(part),
                    size=size,
                    n=n,
                    turnover=turnover,
                )
            try:
                read_master(drawn, config, check_eligible=True)
            except ValidationError as error:
                if error.code == "seq.master.not_eligible":
                    continue
                raise
            masters[team] = drawn
            break
        else:
            raise ValidationError(
                "seq.pool.no_eligible_draw", m=config.m, team=team, attempts=attempts
            )
    return masters


def _draw_one(part: pd.DataFrame, config: SeqConfig, size, turnover, rng):
    n = config.n_releases
    fresh = rng.permutation(len(part))
    if len(fresh) < size:
        return None
    lsf = np.zeros(len(part), dtype=np.int64)
    lsb = np.zeros(len(part), dtype=np.int64)
    present = fresh[:size]
    cursor = size
    lsf[present] = 1
    for j in range(2, n + 1):
        leaving = rng.random(len(present)) < turnover
        lsb[present[leaving]] = j - 1
        present = present[~leaving]
        need = size - len(present)
        if cursor + need > len(fresh):
            return None
        entering = fresh[cursor : cursor + need]
        cursor += need
        lsf[entering] = j
        present = np.concatenate([present, entering])
    lsb[present] = n
    used = lsf > 0
    drawn = part.loc[used, ["pid", *config.qi, config.sa]].astype(str).copy()
    drawn["lsf"] = lsf[used].astype(str)
    drawn["lsb"] = lsb[used].astype(str)
    drawn["_order"] = lsf[used]
    return drawn.sort_values("_order", kind="stable").drop(columns="_order").reset_index(drop=True)
