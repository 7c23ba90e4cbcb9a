"""The sequential-release round (m-invariance, seed 001; spec ``sequential-round.md``): pure maths.

No Django: text cells and DataFrames in, numbers and small frames out. The server and
``python -m scoring seq check`` run the same functions. Messages are codes of
:mod:`scoring.messages` (English and Japanese, ``error.render("ja")``).

Public API (one line each)
--------------------------
* ``parse_config(raw, *, master_columns=None, max_lsb=None, per_team_masters=False) -> SeqConfig``
  — §12 checks, ``ConfigError`` naming the key.
* ``SeqConfig`` — frozen config; ``.release_columns(j)``, ``.master_columns()``, ``.to_dict()``.
* ``read_master(source, config, *, check_eligible=None) -> Master`` — §3 (path/bytes/DataFrame);
  ``Master.alive(j)``, ``.table(j)`` (what a team downloads), ``.sizes()``, ``.union(n)``.
* ``largest_eligible_m(sa_values) -> int`` — Def. 9, ``⌊|T| / max count⌋``.
* ``draw_team_masters(pool, teams, config, *, size, turnover, seed) -> {team: DataFrame}`` — §3 pool draw.
* ``read_release(source, *, release, master, previous=None) -> Release`` — §4–§5 validation,
  ``ValidationError`` naming release, row, column, value. ``Release.rows`` / ``.groups``.
* ``structure(releases) -> Structure`` — §6: ``mu`` (MU(j) list), ``minv``, ``violations``
  (message dicts), ``violation_texts``.
* ``risk(master, releases, *, n=None) -> Risk`` — §7–§8: per-person ``P_N``/``P_A``
  posteriors, ``per_person`` frame (spec's risk_per_person.csv columns), ``summary`` dict
  (RN_max, RN_mean, RA_max, RA_mean, RN_over, MAP_N, MAP_A).
* ``utility(master, releases) -> dict`` — §9: ``IL_j`` list, IL, CF, CF_ratio, SUP, TMP.
* ``evaluate_sequence(master, releases) -> dict`` — everything above in one JSON-ready dict
  (what ``seq check`` prints and the server stores).
* ``risk_per_person_csv(result) -> str`` — the per-person table as CSV text.
* ``passes_gates(summary, config, *, complete=True) -> bool`` and
  ``safety_key(summary, config, *, attack_best=None) -> tuple`` — §11 ranking inputs.
* ``publish_for_attack(master, releases, *, seed) -> PublishedSequence`` — §10 files
  (renumbered releases without pid, background, counterfeit counts).
* ``read_guesses(source, *, targets, sa_domain) -> pandas.Series`` and
  ``score_guesses(guesses, master, *, n) -> float`` — §10 attack scoring.
* Baseline publisher (§16): ``scoring.kit.sequential.baseline_release(master, j, previous)``.
"""

from scoring.sequential.config import PerTeam, SeqConfig, parse_config
from scoring.sequential.master import Master, draw_team_masters, largest_eligible_m, read_master
from scoring.sequential.release import Release, read_release

__all__ = [
    "Master",
    "PerTeam",
    "Release",
    "SeqConfig",
    "draw_team_masters",
    "largest_eligible_m",
    "parse_config",
    "read_master",
    "read_release",
]
