"""The one door from the platform to ``scoring.sequential`` (the maths lives there).

Everything here converts: bytes and stored JSON in, the library's objects, and plain JSON
(results) or CSV text out. No rule of the round is decided here.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pandas as pd
from django.utils.translation import gettext as _

from scoring.sequential import LEADERBOARD_COLUMNS as LEADERBOARD_COLUMNS  # the pages use it
from scoring.sequential import publish_for_attack, read_guesses, score_guesses
from scoring.sequential.cli import baseline_of
from scoring.sequential.config import SeqConfig, parse_config
from scoring.sequential.config import config_error_place as config_error_place  # forms use it
from scoring.sequential.evaluate import evaluate_sequence, risk_per_person_csv, safety_key
from scoring.sequential.evaluate import gate_checks as library_checks
from scoring.sequential.evaluate import gate_failures as library_failures
from scoring.sequential.evaluate import gate_names as library_names
from scoring.sequential.evaluate import ranking_key as library_key
from scoring.sequential.master import Master, read_master
from scoring.sequential.pool import draw_team_masters
from scoring.sequential.release import read_releases
from scoring.tables import read_table, write_csv


def config_of(config: dict | SeqConfig) -> SeqConfig:
    return config if isinstance(config, SeqConfig) else parse_config(config, per_team_masters=True)


def config_normalise(config: dict) -> dict:
    """Spec §12's checks (without a master: columns are checked when one arrives)."""
    return parse_config(config, per_team_masters=True).to_dict()


def master_read(data: bytes, config: dict) -> Master:
    return read_master(data, config_of(config))


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


def master_table_bytes(master: Master) -> bytes:
    return table_bytes(master.as_written())


def master_so_far(master: Master, upto: int) -> pd.DataFrame:
    """The master as known at step ``upto`` (online mode; ``Master.known_at``): the persons
    of U(upto), with ``lsb`` cut at ``upto`` (a person still present may stay longer: the
    future is hidden). Releases 1 … j ≤ upto are checked against what it holds, so
    ``python -m scoring seq check`` on it gives the server's numbers."""
    return master.known_at(upto).as_written()


def step_table(master: Master, step: int) -> pd.DataFrame:
    """``T(step)``: ``pid,QI…,sa,lsf`` (the future, ``lsb``, hidden)."""
    return master.as_written(master.table(step))


def baseline_bytes(table: bytes, previous: bytes | None, config: dict, *, step: int) -> bytes:
    """The kit's baseline ``release_<step>.csv`` (spec §16) from ``T(step).csv`` and the team's
    ``release_<step−1>.csv``, read and written exactly as ``python -m scoring seq baseline
    T<step>.csv --release <step> [--previous release_<step−1>.csv]`` does (its
    ``baseline_of``): the same bytes. Raises ``scoring.ScoringError`` when the baseline
    cannot publish ``T(step)``."""
    return table_bytes(baseline_of(table, previous, config_of(config), release=step))


@dataclass(frozen=True)
class Outcome:
    results: dict
    per_person_csv: str


def sequence_check(
    master: Master,
    releases: list[bytes],
    config: dict,
    *,
    current: int,
    names: list[str] | None = None,
) -> Outcome:
    """Validate and score the releases 1 … ``current`` against the master as known at
    ``current`` (nothing of a later release counts): exactly what ``python -m scoring seq
    check`` prints on the round page's files (``evaluate_sequence``'s summary; the signature
    changes also as message codes, ``violation_codes``, to be shown in the reader's language)
    and the per-person table as CSV text. Raises ``scoring.ScoringError`` for an invalid
    release; ``names``: the files' names as the team uploaded them, for its messages."""
    names = names[:current] if names else None
    result = evaluate_sequence(*read_releases(releases[:current], master=master, names=names))
    results = {**result.summary, "step": current, "violation_codes": result.structure.violations}
    return Outcome(results=results, per_person_csv=risk_per_person_csv(result))


def gate_label(name: str) -> str:
    """A gate as the library names it (``m-invariant (MINV ≥ 2)``, or the leaderboard's key
    ``m-invariant``) in the reader's language: the ``require`` rule's word is translated, the
    bound and a utility gate (``IL ≤ 0.5``: a metric's name) stay as they are."""
    key, space, rest = name.partition(" ")
    words = {"m-invariant": _("m-invariant"), "m-unique": _("m-unique")}
    return words[key] + space + rest if key in words else name


def gate_checks(results: dict, config: dict) -> list[tuple[str, bool]]:
    """Spec §11's gates, each named (in the reader's language: ``gate_label``) with whether
    ``results`` pass it (the library's rule: ``scoring.sequential.evaluate.gate_checks``)."""
    return [
        (gate_label(name), passed) for name, passed in library_checks(results, config_of(config))
    ]


def gate_names(config: dict) -> list[str]:
    """The gates' names in the reader's language (``gate_label``)."""
    return [gate_label(name) for name in library_names(config_of(config))]


def gate_failures(results: dict, config: dict) -> tuple[str, ...]:
    """Which of spec §11's gates a complete sequence fails (the keys the leaderboard shows)."""
    return library_failures(results, config_of(config))


def ranking_key(results: dict, config: dict, *, complete: bool, attack_best: float | None):
    """Spec §11's sort key, from the library (``scoring.sequential.evaluate.ranking_key``)."""
    return library_key(results, config_of(config), complete=complete, attack_best=attack_best)


def safety(results: dict, config: dict, *, attack_best: float | None) -> float:
    return safety_key(results, config_of(config), attack_best=attack_best)[0]


def target_files(master: Master, releases: list[bytes], config: dict, *, prefix: str, seed: int):
    """The files published for a target sequence (spec §10): name → CSV text."""
    published = publish_for_attack(*read_releases(releases, master=master), seed=seed)
    return published.files(prefix=prefix)


def attack_accuracy(master: Master, data: bytes, config: dict, *, name: str) -> float:
    """Accuracy of a ``pid,guess`` file against the target's truth (spec §10); ``name``: the
    file's name as the team uploaded it, for its messages."""
    return float(score_guesses(read_guesses(data, master=master, name=name), master))
