"""The one door from the platform to ``scoring.sequential`` (the maths lives there).

Everything here converts: bytes and stored JSON in, the library's objects, and plain JSON
(results) or CSV text out. No rule of the round is decided here.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pandas as pd

from scoring.sequential.config import SeqConfig, parse_config
from scoring.sequential.master import Master, draw_team_masters, read_master
from scoring.tables import read_table, write_csv


def config_of(config: dict | SeqConfig) -> SeqConfig:
    return config if isinstance(config, SeqConfig) else parse_config(config, per_team_masters=True)


def config_normalise(config: dict) -> dict:
    """Spec §12's checks (without a master: columns are checked when one arrives)."""
    return parse_config(config, per_team_masters=True).to_dict()


def master_read(data: bytes, config: dict, *, name: str = "master.csv") -> Master:
    return read_master(data, config_of(config))


def master_persons(master: Master) -> int:
    return len(master.frame)


def pool_read(data: bytes, config: dict) -> pd.DataFrame:
    """The pool ``pid,QI…,sa`` as text cells (checked by drawing from it)."""
    return read_table(data, name="the pool")


def masters_draw(pool: pd.DataFrame, config: dict, *, teams: list[str], seed: int) -> dict:
    """team → a drawn master (text cells with the master header)."""
    parsed = config_of(config)
    per_team = parsed.per_team
    return draw_team_masters(
        pool,
        teams,
        parsed,
        size=per_team.size,
        turnover=per_team.turnover,
        seed=seed,
    )


def table_bytes(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    write_csv(frame, buffer)
    return buffer.getvalue()


def _plain_frame(frame: pd.DataFrame, master: Master) -> pd.DataFrame:
    """Numbers written back as the master file wrote them (integers without ``.0``)."""
    out = frame.copy()
    for column, kind in master.config.qi.items():
        if kind == "num" and column in out:
            values = out[column]
            if (values % 1 == 0).all():
                out[column] = values.astype("int64")
    return out


def master_table_bytes(master: Master) -> bytes:
    return table_bytes(_plain_frame(master.frame, master))


def step_table(master: Master, step: int) -> pd.DataFrame:
    """``T(step)``: ``pid,QI…,sa,lsf`` (the future, ``lsb``, hidden)."""
    return _plain_frame(master.table(step), master)


def timeline(master: Master, *, upto: int | None = None) -> list[dict]:
    """Per step: |T(j)|, arrivals (lsf = j) and departures (lsb = j − 1)."""
    n = master.config.n_releases if upto is None else upto
    lsf, lsb = master.lsf, master.lsb
    return [
        {
            "step": j,
            "size": int(master.alive(j).sum()),
            "arrivals": int((lsf == j).sum()) if j > 1 else 0,
            "departures": int((lsb == j - 1).sum()) if j > 1 else 0,
        }
        for j in range(1, n + 1)
    ]


@dataclass(frozen=True)
class Outcome:
    results: dict
    per_person_csv: str
