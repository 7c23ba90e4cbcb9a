"""The bridge between the round's stored data and ``scoring.synthetic`` (pure maths): its
checked configuration, its population (cached per process: the original is fixed once the
round exists), and the tables a team's draw names. Reads only; the services write."""

import json
import threading

import numpy as np
import pandas as pd

from pwscup.competitions.services import read_file_bytes
from scoring.synthetic.config import SynthConfig, parse_config
from scoring.synthetic.kit import table_text
from scoring.synthetic.population import Population, read_population
from scoring.tables import load_table


def header_of(data: bytes) -> list[str]:
    """The header of an organizer's CSV (UTF-8)."""
    return [str(c) for c in load_table(data, name="original.csv").to_frame().columns]


def config_in_order(config: dict, header: list[str]) -> dict:
    """``config`` with its column roles in the original's column order: a JSON field stored
    in PostgreSQL (jsonb) does not keep the order of keys, the header does."""
    columns = config.get("columns")
    if not isinstance(columns, dict):
        return config
    ordered = {c: columns[c] for c in header if c in columns}
    ordered.update({c: r for c, r in columns.items() if c not in ordered})
    return {**config, "columns": ordered}


def round_config(round_) -> SynthConfig:
    """The round's checked configuration (``Round.config``), columns in the original's order."""
    return round_population(round_).config


def round_population(round_) -> Population:
    """The round's population ``P``: its typed rows, domains, ranges and bin edges; kept per
    process by the original's hash and the settings (both fixed once the round exists)."""
    key = (round_.original_sha256, json.dumps(round_.config, sort_keys=True))
    with _LOCK:
        hit = _POPULATIONS.get(key)
    if hit is not None:
        return hit
    data = read_file_bytes(round_.original_file)
    header = header_of(data)
    population = read_population(data, parse_config(config_in_order(round_.config, header), header))
    with _LOCK:
        _POPULATIONS[key] = population
        while len(_POPULATIONS) > _KEPT:
            _POPULATIONS.pop(next(iter(_POPULATIONS)))
    return population


# A handful of rounds' populations per process (a few MB each for a table like Adult).
_KEPT = 8
_POPULATIONS: dict = {}
_LOCK = threading.Lock()


def rows_of(population: Population, positions) -> pd.DataFrame:
    """The typed rows of ``P`` at 0-based ``positions``, renumbered from 0."""
    return population.frame.iloc[np.asarray(positions, dtype=np.int64)].reset_index(drop=True)


def challenge_text(frame: pd.DataFrame) -> str:
    """A challenge set as published: ``id`` (1 … n) then ``P``'s columns; no label."""
    out = frame.copy()
    out.insert(0, "id", np.arange(1, len(out) + 1))
    return table_text(out)
