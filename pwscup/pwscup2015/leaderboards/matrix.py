"""The attacker × target matrix of the 2015 game: every attacker's best rate on every target,
the built-in attacks' rows, and the reference attack's line (outside the cells).

Read through ``pwscup.pwscup2015.leaderboards.selectors``, which ranks from it.
"""

from dataclasses import dataclass, field

from django.utils.translation import get_language
from django.utils.translation import gettext as _

import scoring
from pwscup.accounts.models import Team
from pwscup.accounts.selectors import disqualification_rule
from pwscup.competitions.models import Round
from pwscup.pwscup2015.models import AttackSubmission, Target
from pwscup.pwscup2015.ranking_cache import ranking_cached
from pwscup.submissions.models import Status
from pwscup.submissions.voids import counted
from scoring import kit


def _competition_teams(round: Round) -> list[Team]:
    return list(Team.objects.filter(competition_id=round.competition_id))


@dataclass
class Cell:
    best: float | None = None
    latest: float | None = None
    count: int = 0


@dataclass
class Matrix:
    targets: list[Target]
    attackers: list[tuple[str, str]]  # (key, label): "team:<pk>" or "builtin:<metric>"
    cells: dict = field(default_factory=dict)  # (attacker key, target pk) -> Cell
    teams: list[Team] = field(default_factory=list)
    # The disqualified teams: their targets and rows stay, marked (DisqualificationRule).
    disqualified: frozenset[int] = frozenset()
    # The reference attack's rate per target pk: shown on its own line, outside the cells
    # (it is in no worst case; ``ranking.final_safety`` says where it counts).
    reference: dict | None = None

    def cell(self, attacker_key: str, target_pk: int) -> Cell:
        return self.cells.get((attacker_key, target_pk), Cell())

    def worst_case(self, target_pk: int) -> float | None:
        values = [
            c.best for (a, t), c in self.cells.items() if t == target_pk and c.best is not None
        ]
        return max(values) if values else None

    def grid(self) -> list[tuple[str, list[Cell]]]:
        """The rows of the table: (attacker label, its cell on each target)."""
        return [
            (label, [self.cell(key, t.pk) for t in self.targets]) for key, label in self.attackers
        ]

    def attacked_targets(self) -> set[int]:
        """The targets some team's counted, finished attack hit (on their current version)."""
        return {
            t for (a, t), c in self.cells.items() if a.startswith("team:") and c.best is not None
        }

    def reference_rates(self) -> list[float | None]:
        """The reference attack's rate on each target (``None``: not computed)."""
        return [(self.reference or {}).get(t.pk) for t in self.targets]

    def worst_cases(self) -> list[float | None]:
        worst: dict[int, float] = {}
        for (_attacker, target_pk), cell in self.cells.items():
            if cell.best is not None:
                worst[target_pk] = max(worst.get(target_pk, cell.best), cell.best)
        return [worst.get(t.pk) for t in self.targets]


def attack_matrix(*, round: Round) -> Matrix:
    """Four queries whatever the number of teams: disqualifications, targets, teams, finished
    attacks. Every attack counts, a disqualified team's too, but a voided one
    (``pwscup.submissions.voids.counted``: the cell falls back to the team's other counted
    attacks on the target), and every target stays
    (``pwscup.accounts.selectors.DisqualificationRule``), a disqualified team's marked.

    The built-in attackers' labels are translated when the matrix is computed: the cached
    copy is kept per language (``attack_matrix_cached``).
    """
    rule = disqualification_rule(competition_id=round.competition_id)
    targets = list(
        Target.objects.filter(round=round).select_related("team", "submission", "builtin")
    )
    teams = _competition_teams(round)
    matrix = Matrix(
        targets=targets,
        teams=teams,
        disqualified=frozenset(t.pk for t in teams if rule.marked(t.pk)),
        reference={},
        attackers=[(f"team:{t.pk}", t.name) for t in teams]
        + [
            (f"builtin:{m}", _("built-in %(metric)s") % {"metric": m})
            for m in scoring.ATTACK_METRICS
        ]
        + [(f"builtin:{kit.BUILTIN_ATTACKER}", _("built-in kit attacker (top-3, 1:1)"))],
    )
    versions = {t.pk: t.version for t in targets}
    finished = counted(
        AttackSubmission.objects.filter(target__round=round, status=Status.FINISHED)
    ).order_by("created_at", "id")
    for attack in finished.values_list("team_id", "target_id", "target_version", "rate"):
        team_id, target_id, target_version, rate = attack
        if versions.get(target_id) != target_version or not rule.attack_counts(team_id):
            continue
        cell = matrix.cells.setdefault((f"team:{team_id}", target_id), Cell())
        cell.count += 1
        cell.latest = rate
        cell.best = rate if cell.best is None else max(cell.best, rate)
    for target in targets:
        builtin = getattr(target, "builtin", None)
        if builtin is None or builtin.status != Status.FINISHED:
            continue
        for metric, rate in builtin.rates.items():
            if metric == scoring.REFERENCE_ATTACK:
                matrix.reference[target.pk] = rate
                continue
            matrix.cells[(f"builtin:{metric}", target.pk)] = Cell(best=rate, latest=rate, count=1)
    return matrix


def attack_matrix_cached(*, round: Round) -> Matrix:
    return ranking_cached(
        round=round,
        name=f"matrix-{get_language()}",
        compute=lambda: attack_matrix(round=round),
    )
