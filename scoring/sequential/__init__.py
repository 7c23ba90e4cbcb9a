"""The sequential-release round (m-invariance, seed 001; spec ``sequential-round.md``): pure maths.

No Django: text cells and DataFrames in, numbers and small frames out. The server and
``python -m scoring seq check`` run the same functions. Messages are codes of
:mod:`scoring.messages` (English and Japanese, ``error.render("ja")``).

Public API (one line each)
--------------------------
* ``parse_config(raw, *, master_columns=None, max_lsb=None, per_team_masters=False) -> SeqConfig``
  — §12 checks, ``ConfigError`` naming the key; ``config_error_place(error) -> (key, entry)``
  where a form or a bundle points at it.
* ``SeqConfig`` — frozen config; ``.release_columns(j)``, ``.master_columns()``, ``.to_dict()``.
* ``read_master(source, config, *, check_eligible=None, upto=None) -> Master`` — §3
  (path/bytes/DataFrame); ``Master.alive(j)``, ``.table(j)`` (what a team downloads),
  ``.sizes()``, ``.timeline()`` (sizes, arrivals, departures), ``.union(n)``, ``.known_at(n)``
  (U(n), lsb cut at n: the master as known then), ``.as_written(frame)`` (numbers as
  the master file writes them, a whole one as an integer: what a team downloads).
* ``largest_eligible_m(sa_values) -> int`` — Def. 9, ``⌊|T| / max count⌋``.
* ``draw_team_masters(pool, teams, config, *, size, turnover, seed) -> {team: DataFrame}`` — §3 pool draw.
* ``read_release(source, *, release, master, previous=None, name=None) -> Release`` — §4–§5
  validation, ``ValidationError`` naming release, row, column, value (``name``: the file's
  own name, for a message about the file itself). ``Release.rows`` / ``.groups``.
* ``structure(releases) -> Structure`` — §6: ``mu`` (MU(j) list), ``minv``, ``violations``
  (message dicts), ``violation_texts(lang)``; ``mu(release) -> int``.
* ``risk(master, releases, *, n=None) -> Risk`` — §7–§8: per-person ``P_N``/``P_A``
  posteriors (``Risk.posterior(pid, "N")``), ``per_person`` frame (spec's risk_per_person.csv columns), ``summary`` dict
  (RN_max, RN_mean, RA_max, RA_mean, RN_over, MAP_N, MAP_A).
* ``utility(master, releases) -> dict`` — §9: ``IL_j`` list, IL, CF, CF_ratio, SUP, TMP.
* ``evaluate_sequence(master, releases) -> SequenceResult`` — everything above:
  ``.summary`` (one JSON-ready dict: what ``seq check`` prints and the server stores),
  ``.per_person`` (DataFrame), ``.structure.violations`` (message codes for ja).
* ``read_releases(sources, *, master, names=None) -> (Master, [Release])`` — read ``T*(1..n)`` against
  ``master.known_at(n)``: the one reading of a sequence (server and CLI).
* ``read_sequence(master_source, release_sources, config) -> (Master, [Release])`` — read all
  from files (the whole master or a team's ``master.csv`` so far give the same).
* ``risk_per_person_csv(result) -> str`` — the per-person table as CSV text; read back by
  ``per_person_known_at(text, step)`` and ``groups_per_release(text, upto=j)``
  (:mod:`scoring.sequential.per_person`).
* ``passes_gates(summary, config, *, complete=True) -> bool``,
  ``safety_key(summary, config, *, attack_best=None) -> tuple`` and
  ``ranking_key(summary, config, *, complete=True, attack_best=None) -> tuple`` — §11 ranking
  inputs; ``gate_failures(summary, config)`` the gates failed; ``LEADERBOARD_COLUMNS`` the §11
  columns.
* ``publish_for_attack(master, releases, *, seed) -> PublishedSequence`` — §10 files:
  ``.releases`` (frames without pid, renumbered), ``.background``, ``.counterfeits``;
  ``.files(prefix=...)`` the published files' names and CSV texts.
* ``read_guesses(source, *, master, n=None, name="the guesses") -> pandas.Series`` (pid -> guess; line-numbered
  errors) and ``score_guesses(guesses, master, *, n=None) -> float`` — §10 accuracy.
* Baseline publisher (§16): ``scoring.kit.sequential.baseline_release(master, j, previous)``.
"""

from scoring.sequential.attack import (
    PublishedSequence,
    publish_for_attack,
    read_guesses,
    score_guesses,
)
from scoring.sequential.cli import read_sequence
from scoring.sequential.config import PerTeam, SeqConfig, config_error_place, parse_config
from scoring.sequential.evaluate import (
    LEADERBOARD_COLUMNS,
    PER_PERSON_COLUMNS,
    SequenceResult,
    evaluate_sequence,
    gate_failures,
    passes_gates,
    ranking_key,
    risk_per_person_csv,
    safety_key,
)
from scoring.sequential.master import Master, largest_eligible_m, read_master
from scoring.sequential.per_person import groups_per_release, per_person_known_at
from scoring.sequential.pool import draw_team_masters
from scoring.sequential.release import Release, read_release, read_releases
from scoring.sequential.risk import Risk, risk
from scoring.sequential.structure import Structure, mu, structure
from scoring.sequential.utility import utility

__all__ = [
    "LEADERBOARD_COLUMNS",
    "Master",
    "PER_PERSON_COLUMNS",
    "PerTeam",
    "PublishedSequence",
    "Release",
    "Risk",
    "SeqConfig",
    "SequenceResult",
    "Structure",
    "config_error_place",
    "draw_team_masters",
    "evaluate_sequence",
    "gate_failures",
    "groups_per_release",
    "largest_eligible_m",
    "mu",
    "parse_config",
    "passes_gates",
    "per_person_known_at",
    "publish_for_attack",
    "ranking_key",
    "read_master",
    "read_guesses",
    "read_release",
    "read_releases",
    "read_sequence",
    "risk",
    "risk_per_person_csv",
    "safety_key",
    "score_guesses",
    "structure",
    "utility",
]
