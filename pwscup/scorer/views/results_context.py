"""The Results tab's reads: the two rankings and the attack matrix (``selectors.standings``:
the one owner of the rules), shaped for the page with every score by the tables' rule
(``score_text.format_score``, 4 decimals), each gate's bound as written and the disqualified
teams marked (the core's ``DisqualificationRule``: they keep their numbers and lose their
rank). Shown to the
organizers always and to everyone once the results are published; never a team's exact
attack score before that (the view checks who reads)."""

from __future__ import annotations

from pwscup.accounts.models import Team
from pwscup.scorer import score_text, selectors
from pwscup.scorer.ranking_text import ranked_by_text
from pwscup.scorer.views.tab_context import RoundState


def _text(value) -> str:
    return "—" if value is None else score_text.format_score(value)


def results_tables(*, state: RoundState, team: Team | None) -> dict:
    """``release_ranking``, ``attack_ranking`` and ``matrix`` of the page."""
    board = selectors.standings(scorer=state.scorer)
    own_id = team.pk if team is not None else None
    release_ranking = [
        {
            "rank": row.rank,
            "team": row.team,
            "own": row.team.pk == own_id,
            "primary": _text(row.primary),
            # The round's other release scores, in its columns' order (PWSCup 2026's parts
            # of the utility), as the API's leaderboard gives them.
            "others": [
                _text((row.release.scores or {}).get(column["key"]))
                for column in state.release_columns
                if not column["primary"]
            ],
            "protection": _text(row.protection),
            "failed_gates": [
                score_text.gate_text(gate, config=state.config) for gate in row.failed_gates
            ],
            "program": row.release.program.label if row.release.program_id else "—",
        }
        for row in board.releases
        if not row.disqualified  # the core's rule: in the matrix, marked; in no ranking
    ]
    attack_ranking = [
        {
            "rank": row.rank,
            "team": row.team,
            "own": row.team.pk == own_id,
            "power": _text(row.power),
            "attacked": row.attacked,
        }
        for row in board.attackers
        if not row.disqualified
    ]
    return {
        "ranked_by": ranked_by_text(board, state.config),
        "release_ranking": release_ranking,
        "attack_ranking": attack_ranking,
        # A release's protection is the attacks it suffered: good when the attacks scored
        # poorly (its header's arrow); an attacker's power is good as its attack score is.
        "protection_higher": not state.config.attack_primary_column.higher_is_better,
        "power_higher": state.config.attack_primary_column.higher_is_better,
        "matrix": matrix_table(board),
        "top": board.top,
    }


def matrix_table(board) -> dict:
    """Targets (rows) × attackers (columns): each cell the attacker's best primary attack
    score on the target, ``own`` where the attacker is the target's team."""
    marked = {row.team.slug for row in [*board.releases, *board.attackers] if row.disqualified}
    targets = sorted((row.team for row in board.releases), key=lambda t: t.name)
    attackers = sorted((row.team for row in board.attackers), key=lambda t: t.name)
    rows = []
    for target in targets:
        values = board.matrix.get(target.slug, {})
        cells = [
            {
                "own": attacker.pk == target.pk,
                "text": _text(values.get(attacker.slug)) if attacker.slug in values else "",
            }
            for attacker in attackers
        ]
        rows.append({"team": target, "disqualified": target.slug in marked, "cells": cells})
    return {
        "attackers": [
            {"team": attacker, "disqualified": attacker.slug in marked} for attacker in attackers
        ],
        "rows": rows,
    }


def own_summary(*, state: RoundState, team: Team) -> dict:
    """Before the publication, a team's own numbers: its final release's scores as stored
    (its attacks are read by ``tab_context.attack_rows``, through the visibility rule)."""
    final = state.final_release(team)
    if final is None:
        return {"final": None, "scores": []}
    scores = final.scores or {}
    return {
        "final": final,
        "scores": [
            {"label": column["label"], "text": _text(scores.get(column["key"]))}
            for column in state.release_columns
        ],
    }
