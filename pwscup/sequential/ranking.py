"""The sequential round's rankings: the leaderboard over the frozen releases (the ranking
rule of spec §11, once: ``leaderboard_rows``), the attack matrix and the attack ranking.
Read through :mod:`pwscup.sequential.selectors`, which re-exports them."""

from __future__ import annotations

from dataclasses import dataclass

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import disqualification_rule
from pwscup.sequential import engine
from pwscup.sequential.models import SeqAttack, SequenceScore, SequentialRound
from pwscup.submissions.attack_matrix import AttackMatrix, attack_matrix_of, matrix_attack_ranking
from pwscup.submissions.kind_rankings import ranked_by_name
from pwscup.submissions.voids import counted


@dataclass(frozen=True)
class BoardRow:
    team: Team
    step: int
    complete: bool
    results: dict
    gate_failures: tuple[str, ...] = ()
    safety: float | None = None
    rank: int | None = None

    @property
    def ranked(self) -> bool:
        return self.complete and not self.gate_failures

    @property
    def gate_failure_labels(self) -> list[str]:
        """The failed gates as the pages show them, in the reader's language."""
        return [engine.gate_label(key) for key in self.gate_failures]


def attack_best(*, sequential: SequentialRound) -> dict[tuple[int, int], float]:
    """(attacker team id, target team id) → the attacker's best accuracy on the target. Every
    attack counts, a disqualified team's too (``DisqualificationRule.attack_counts``), but a
    voided one (``pwscup.submissions.voids``: the attacker's next best supplies the cell)."""
    rule = disqualification_rule(competition_id=sequential.round.competition_id)
    best: dict[tuple[int, int], float] = {}
    scored = SeqAttack.objects.filter(
        target__sequential=sequential, status=SeqAttack.Status.FINISHED
    )
    for attack in counted(scored).select_related("target"):
        if not rule.attack_counts(attack.team_id):
            continue
        key = (attack.team_id, attack.target.team_id)
        best[key] = max(best.get(key, 0.0), attack.accuracy or 0.0)
    return best


def leaderboard_rows(*, sequential: SequentialRound) -> list[BoardRow]:
    """Every team's sequence over the frozen prefix, ranked as spec §11 (the rule is
    ``scoring.sequential.evaluate.ranking_key``): gate failures and incomplete sequences last;
    the rest by safety (``RN_max``, or with an attack phase the highest accuracy any attacker
    reached: teams, MAP_N, MAP_A), then ``RN_mean``, then IL. Equal keys share a rank, in the
    core's order of a ranking (``ranked_by_name``: a disqualified team left out, ties by
    name)."""
    step = sequential.frozen_steps
    if step == 0:
        return []
    config = sequential.config
    best = attack_best(sequential=sequential) if config.get("attack_phase") else {}
    rows = []
    for score in SequenceScore.objects.filter(sequential=sequential, step=step).select_related(
        "team"
    ):
        row = {"team": score.team, "step": step, "complete": score.complete}
        results = dict(score.results)
        if not score.complete:
            rows.append({**row, "key": (True, 2.0, 0.0, 0.0), "results": results})
            continue
        rates = [v for (_attacker, target), v in best.items() if target == score.team_id]
        attacked = max(rates) if rates else None
        rows.append(
            {
                **row,
                "key": engine.ranking_key(results, config, complete=True, attack_best=attacked),
                "results": results,
                "gate_failures": engine.gate_failures(results, config),
                "safety": engine.safety(results, config, attack_best=attacked),
            }
        )
    rule = disqualification_rule(competition_id=sequential.round.competition_id)
    ordered = ranked_by_name(
        rows, rule=rule, key=lambda r: r["key"], ranked=lambda r: r["complete"] and not r["key"][0]
    )
    return [BoardRow(**{k: v for k, v in row.items() if k != "key"}) for row in ordered]


def attack_matrix(*, sequential: SequentialRound) -> AttackMatrix:
    """Attacker × target accuracies (the core's ``attack_matrix_of``): the built-in MAP_N,
    MAP_A, then every team's best uploads (``None`` on its own target). A disqualified team's
    target and row stay, marked (``pwscup.accounts.selectors.DisqualificationRule``)."""
    targets = list(sequential.targets.select_related("team").order_by("team__name"))
    best = attack_best(sequential=sequential)
    return attack_matrix_of(
        competition_id=sequential.round.competition_id,
        targets=targets,
        builtin=[("MAP_N", [t.map_n for t in targets]), ("MAP_A", [t.map_a for t in targets])],
        cell=lambda team, t: None if t.team_id == team.pk else best.get((team.pk, t.team_id)),
    )


def attack_ranking(*, sequential: SequentialRound) -> list[dict]:
    """Mean accuracy over the other teams' targets, 0 for a target not attacked, higher
    first; equal means share a rank, and a team that attacked no target has no rank
    (``rank`` None, listed last). A disqualified team is left out of the ranking; its
    attacks stay in the matrix (as in every kind: they were made, on the others' targets)."""
    return matrix_attack_ranking(attack_matrix(sequential=sequential))
