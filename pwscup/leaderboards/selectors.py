"""Leaderboards, the attacker × target matrix and the final ranking.

Ranks are derived from stored scores every time; nothing here is stored.
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

import scoring
from pwscup.accounts.models import Team
from pwscup.accounts.selectors import user_is_organizer
from pwscup.competitions import ranking
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import phase_of
from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission, Status, Target
from pwscup.submissions.selectors import older_scorer_version, representative_submission


@dataclass
class LeaderboardRow:
    rank: int | None
    team: Team
    submission: AnonymizationSubmission
    scores: dict
    passes_gates: bool
    safety: float
    older_scorer: str = ""  # the older scorer version that computed these scores, if any


def ranking_rule_text(round: Round) -> str:
    return ranking.rule_text(round)


def _rank_anonymizations(rows: list, round: Round) -> list:
    return ranking.assign_ranks(
        rows,
        key=lambda r: ranking.anonymization_key(scores=r.scores, safety=r.safety, round=round),
        name=lambda r: r.team.name,
        ranked=lambda r: r.passes_gates,
    )


def anonymization_leaderboard(*, phase: Phase) -> list[LeaderboardRow]:
    round_ = phase.round
    rows = []
    for team in round_.competition.teams.all():
        submission = representative_submission(phase=phase, team=team)
        if submission is None:
            continue
        scores = submission.scores
        rows.append(
            LeaderboardRow(
                rank=None,
                team=team,
                submission=submission,
                scores=scores,
                passes_gates=ranking.passes_gates(scores, round_),
                safety=ranking.submission_safety(scores, round_),
                older_scorer=older_scorer_version(submission),
            )
        )
    return _rank_anonymizations(rows, round_)


def can_view_leaderboard(*, user, phase: Phase) -> bool:
    """Public leaderboards are for everyone; a private one only for the organizers.

    A team sees its own scores on its round page; other teams' scores only once the
    organizer makes the leaderboard public (competition.md, "What must never happen").
    """
    if phase.leaderboard_public:
        return True
    return user_is_organizer(user=user, competition=phase.round.competition)


def can_view_results(*, user, round: Round) -> bool:
    """The full matrix and the final ranking: organizers always, everyone once published."""
    return round.results_published or user_is_organizer(user=user, competition=round.competition)


def attack_rates_visible_to_team(*, round: Round, now=None) -> bool:
    if round.results_published:
        return True
    if round.attack_visibility == Round.AttackVisibility.LIVE:
        return True
    if round.attack_visibility == Round.AttackVisibility.AFTER_PHASE:
        phase = phase_of(round=round, kind=Phase.Kind.ATTACK)
        return phase is not None and phase.has_closed(now)
    return False


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

    def cell(self, attacker_key: str, target_pk: int) -> Cell:
        return self.cells.get((attacker_key, target_pk), Cell())

    def worst_case(self, target_pk: int) -> float | None:
        values = [
            c.best for (a, t), c in self.cells.items() if t == target_pk and c.best is not None
        ]
        return max(values) if values else None


def attack_matrix(*, round: Round) -> Matrix:
    targets = list(Target.objects.filter(round=round).select_related("team", "submission"))
    teams = list(round.competition.teams.all())
    matrix = Matrix(
        targets=targets,
        attackers=[(f"team:{t.pk}", t.name) for t in teams]
        + [
            (f"builtin:{m}", _("built-in %(metric)s") % {"metric": m})
            for m in scoring.ATTACK_METRICS
        ],
    )
    versions = {t.pk: t.version for t in targets}
    finished = AttackSubmission.objects.filter(
        target__round=round, status=Status.FINISHED
    ).order_by("created_at", "id")
    for attack in finished.values("team_id", "target_id", "target_version", "rate"):
        if versions.get(attack["target_id"]) != attack["target_version"]:
            continue
        cell = matrix.cells.setdefault((f"team:{attack['team_id']}", attack["target_id"]), Cell())
        cell.count += 1
        cell.latest = attack["rate"]
        cell.best = attack["rate"] if cell.best is None else max(cell.best, attack["rate"])
    for target in targets:
        if target.builtin_status != Status.FINISHED:
            continue
        for metric, rate in target.builtin_rates.items():
            matrix.cells[(f"builtin:{metric}", target.pk)] = Cell(best=rate, latest=rate, count=1)
    return matrix


@dataclass
class FinalAnonymizationRow:
    rank: int | None
    team: Team
    target: Target
    scores: dict
    passes_gates: bool
    safety: float | None


@dataclass
class FinalAttackRow:
    rank: int | None
    team: Team
    mean_rate: float
    targets_attacked: int


def final_ranking(*, round: Round) -> tuple[list[FinalAnonymizationRow], list[FinalAttackRow]]:
    matrix = attack_matrix(round=round)
    anonymization = []
    for target in matrix.targets:
        scores = target.submission.scores
        anonymization.append(
            FinalAnonymizationRow(
                rank=None,
                team=target.team,
                target=target,
                scores=scores,
                passes_gates=ranking.passes_gates(scores, round),
                safety=ranking.safety_of(
                    (matrix.cell(key, target.pk).best for key, _label in matrix.attackers), round
                ),
            )
        )
    _rank_anonymizations(anonymization, round)
    attack = []
    for team in round.competition.teams.all():
        others = [t for t in matrix.targets if t.team_id != team.pk]
        if not others:
            continue
        bests = [matrix.cell(f"team:{team.pk}", t.pk).best for t in others]
        attacked = sum(b is not None for b in bests)
        mean = sum(b or 0.0 for b in bests) / len(others)
        attack.append(
            FinalAttackRow(rank=None, team=team, mean_rate=mean, targets_attacked=attacked)
        )
    ranking.assign_ranks(
        attack,
        key=lambda r: -ranking.round_key(r.mean_rate),
        name=lambda r: r.team.name,
        ranked=lambda r: True,
    )
    return anonymization, attack
