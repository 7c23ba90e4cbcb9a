"""The attacker × target matrix of a game of attacks on the other teams' releases, one shape
for every kind that shows one (the sequential and synthetic rounds): the targets, the
built-in attacks' rows, then one row per team, each cell what the kind counts for that
attacker on that target. The kind supplies its targets, its built-in rows and a cell per
(team, target); ``attack_matrix_of`` builds the rest once: the teams in name order, the
core's disqualification rule (``pwscup.accounts.selectors.DisqualificationRule``: a
disqualified team's attacks and target stay, marked) and the team rows as the core's
``mean_attack_ranking`` reads them (``AttackMatrix.team_cells``), ranked by
``matrix_attack_ranking`` and handed to the core's top-N attack score by
``matrix_attack_cells``. Pages, archives, exports and standings read the same value."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import DisqualificationRule, disqualification_rule
from pwscup.kinds.rankings import AttackCells
from pwscup.submissions.kind_rankings import mean_attack_ranking, other_target_cells


@dataclass(frozen=True)
class MatrixRow:
    """One attacker's row: its name, its cell on each target (in the matrix's order) and,
    for a team, the team (``None``: a built-in attack) and whether it is disqualified (its
    row is kept, marked)."""

    name: str
    cells: list
    team: Team | None = None
    disqualified: bool = False

    @property
    def builtin(self) -> bool:
        return self.team is None


@dataclass(frozen=True)
class AttackMatrix:
    """A round's matrix: ``targets`` (the published targets, each with a ``team_id``),
    ``rows`` (the built-in rows first, then the teams'), the ``rule`` its rankings read and
    ``disqualified`` (the team ids shown marked). ``number(cell)``: the number of a cell the
    rankings count (the cell itself unless the kind's cells hold more). ``unattacked``: the
    built-in attack whose number on a target counts for a team that did not attack it
    (``None``: 0)."""

    targets: list
    rows: list[MatrixRow]
    rule: DisqualificationRule
    disqualified: frozenset[int]
    number: Callable
    unattacked: str | None = None

    def unattacked_value(self, column: int) -> float:
        """What a target not attacked counts for, on the target of ``column`` (0 where the
        built-in attack has no number)."""
        if self.unattacked is None:
            return 0.0
        row = next(row for row in self.rows if row.builtin and row.name == self.unattacked)
        return self.number(row.cells[column]) or 0.0

    def team_cells(self) -> list[tuple[Team, list]]:
        """Each team's row as ``(team, its number on each target)``: what
        ``pwscup.submissions.kind_rankings.mean_attack_ranking`` ranks."""
        return [
            (row.team, [self.number(cell) for cell in row.cells])
            for row in self.rows
            if not row.builtin
        ]


def attack_matrix_of(
    *,
    competition_id: int,
    targets: list,
    builtin: Iterable[tuple[str, list]],
    cell: Callable,
    number: Callable = lambda cell: cell,
    attackers_only: bool = False,
    unattacked: str | None = None,
) -> AttackMatrix:
    """The matrix of ``targets``: the ``builtin`` rows (``(name, cells)``), then one row per
    team of the competition by name, its cell on each target ``cell(team, target)``. With
    ``attackers_only`` a team none of whose cells holds a number (``number(cell)``) has no
    row; ``unattacked``: see ``AttackMatrix``. Every attack counts, a disqualified team's too (``DisqualificationRule``): its row
    and its target stay, marked."""
    rule = disqualification_rule(competition_id=competition_id)
    rows = [MatrixRow(name=name, cells=list(cells)) for name, cells in builtin]
    teams = list(Team.objects.filter(competition_id=competition_id).order_by("name"))
    for team in teams:
        if not rule.attack_counts(team.pk):
            continue
        cells = [cell(team, target) for target in targets]
        if attackers_only and all(number(c) is None for c in cells):
            continue
        rows.append(
            MatrixRow(name=team.name, cells=cells, team=team, disqualified=rule.marked(team.pk))
        )
    return AttackMatrix(
        targets=targets,
        rows=rows,
        rule=rule,
        disqualified=frozenset(team.pk for team in teams if rule.marked(team.pk)),
        number=number,
        unattacked=unattacked,
    )


def matrix_attack_ranking(matrix: AttackMatrix) -> list[dict]:
    """The matrix's attack ranking (``mean_attack_ranking`` of its team rows, under its
    rule): a target a team did not attack counts ``matrix.unattacked_value``."""
    return mean_attack_ranking(
        matrix.team_cells(), matrix.targets, rule=matrix.rule, fallback=matrix.unattacked_value
    )


def matrix_attack_cells(
    matrix: AttackMatrix,
    *,
    attacks: list[dict],
    releases: Iterable[tuple[int, int | None]],
) -> AttackCells:
    """The matrix as the core's top-N attack score reads it (``RoundKind.attack_cells``):
    the numbers ``matrix_attack_ranking`` counts for each attacker it ranks (``attacks``:
    that ranking) and the release ranking's ``(team id, rank)`` (``releases``)."""
    cells = other_target_cells(
        matrix.team_cells(),
        matrix.targets,
        ranked={row["team"].pk for row in attacks if row["rank"] is not None},
        fallback=matrix.unattacked_value,
    )
    return AttackCells(releases=tuple(releases), cells=cells)
