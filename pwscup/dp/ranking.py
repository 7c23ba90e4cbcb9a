"""The DP round's leaderboards (spec §7.5): the one module that ranks.

The rule itself is ``scoring.dp.utility`` (``rank_entries``, ``overall_ranks``); this module
gathers each level's rows (final estimates, ε spent, k, scores; none of a disqualified
team, ``pwscup.accounts.selectors.without_disqualified``) and applies it. Declared
(upload-mode) entries are ranked in a table of their own; the overall ranking uses the
verified tables only.
"""

from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import get_language

from pwscup.accounts.selectors import without_disqualified
from pwscup.dp.models import DPRound, Estimate, Ledger
from pwscup.dp.selectors import final_estimates
from scoring.dp.errors import render_dp
from scoring.dp.exact import format_epsilon
from scoring.dp.utility import Entry, level_rank, overall_ranks, rank_entries


def _baselines_shown(baselines: dict) -> dict:
    """A level's stored baselines, the reason it has none in the reader's language (a
    level stored before the reason kept its code says it in English)."""
    if baselines.get("error_code"):
        text = render_dp(
            baselines["error_code"], baselines.get("error_params") or {}, get_language()
        )
        return {**baselines, "error": text}
    return baselines


@dataclass
class Row:
    team: object
    estimate: Estimate
    spent: Fraction
    k: list[float]
    per_target: dict
    mean_l2: float
    mean_spearman: float
    passes_gate: bool
    rank: int | None = None

    @property
    def spent_text(self) -> str:
        return format_epsilon(self.spent)

    @property
    def label(self) -> str:
        return self.estimate.method

    @property
    def declared(self) -> bool:
        return self.estimate.declared


@dataclass
class LevelBoard:
    level: str
    epsilon: Fraction
    verified: list[Row] = field(default_factory=list)
    declared: list[Row] = field(default_factory=list)
    baselines: dict = field(default_factory=dict)

    @property
    def epsilon_text(self) -> str:
        return format_epsilon(self.epsilon)


def _ranked(rows: list[Row], rank_metric: str) -> list[Row]:
    """Rank with ``scoring.dp.utility.rank_entries`` (the rule of spec §7.5)."""
    ranks = rank_entries(
        [
            Entry(
                key=row.estimate.pk,
                l2=row.mean_l2,
                spearman=row.mean_spearman,
                submitted_at=(row.estimate.created_at, row.estimate.pk),
                passes_gate=row.passes_gate,
            )
            for row in rows
        ],
        rank_metric=rank_metric,
    )
    for row in rows:
        row.rank = ranks[row.estimate.pk]
    rows.sort(key=lambda row: (row.rank, row.team.name))
    return rows


def level_boards(*, dp_round: DPRound) -> list[LevelBoard]:
    """Every level's tables once the round is scored (empty before: nothing leaks)."""
    if dp_round.scored_at is None:
        return []
    config = dp_round.config
    gate = config.get("spearman_gate")
    rank_metric = config.get("rank_metric", "l2")
    competition_id = dp_round.round.competition_id
    spent = {
        (ledger.team_id, ledger.level): Fraction(ledger.spent)
        for ledger in Ledger.objects.filter(dp_round=dp_round)
    }
    ks: dict[tuple, list] = {}
    for ledger in Ledger.objects.filter(dp_round=dp_round).prefetch_related("charges"):
        ks[(ledger.team_id, ledger.level)] = [
            charge.reply.get("k") for charge in ledger.charges.all() if charge.kind == "release"
        ]
    boards = []
    for level in config["levels"]:
        board = LevelBoard(
            level=level["id"],
            epsilon=Fraction(level["epsilon"]),
            baselines=_baselines_shown(dp_round.baselines.get(level["id"], {})),
        )
        for estimate in without_disqualified(
            final_estimates(dp_round=dp_round, level=level["id"]),
            competition_id=competition_id,
            team_id=lambda estimate: estimate.team_id,
        ):
            scores = estimate.scores or {}
            if "mean_l2" not in scores:
                continue
            key = (estimate.team_id, level["id"])
            row = Row(
                team=estimate.team,
                estimate=estimate,
                spent=(
                    Fraction(estimate.declared_epsilon)
                    if estimate.declared
                    else spent.get(key, Fraction(0))
                ),
                k=ks.get(key, []),
                per_target=scores.get("targets", {}),
                mean_l2=scores["mean_l2"],
                mean_spearman=scores["mean_spearman"],
                passes_gate=gate is None or scores["mean_spearman"] >= gate,
            )
            (board.declared if estimate.declared else board.verified).append(row)
        _ranked(board.verified, rank_metric)
        _ranked(board.declared, rank_metric)
        boards.append(board)
    return boards


@dataclass
class OverallRow:
    team: object
    ranks: dict
    total: int
    rank: int = 0


def overall_ranking(boards: list[LevelBoard]) -> list[OverallRow]:
    """Sum of per-level ranks over the verified tables (``scoring.dp.utility.overall_ranks``:
    a team missing a level takes that level's last rank + 1; ties by the rank at the
    smallest ε)."""
    if not boards:
        return []
    ordered = sorted(boards, key=lambda board: board.epsilon)
    level_ranks = [{row.team.pk: row.rank for row in board.verified} for board in ordered]
    totals = overall_ranks(level_ranks)
    teams = {row.team.pk: row.team for board in boards for row in board.verified}
    rows = []
    for team_id, rank in totals.items():
        ranks = {}
        for board, by_team in zip(ordered, level_ranks, strict=False):
            ranks[board.level] = level_rank(by_team, team_id)
        rows.append(
            OverallRow(team=teams[team_id], ranks=ranks, total=sum(ranks.values()), rank=rank)
        )
    rows.sort(key=lambda row: (row.rank, row.team.name))
    return rows


def gate_name(config: dict) -> str:
    """The round's gate as the tabs name it (``""``: the round has none)."""
    gate = config.get("spearman_gate")
    return "" if gate is None else f"mean ρs ≥ {gate:g}"


@dataclass(frozen=True)
class CountedRank:
    """One level's term of a team's overall sum (``OverallRow.ranks``): ``verified`` False
    when the team has no verified row there and the level's last rank + 1 stands in;
    ``declared``: the team's row of the level's declared table, ranked apart and not summed."""

    level: str
    rank: int
    verified: bool
    declared: Row | None = None


@dataclass(frozen=True)
class TeamStanding:
    """A team's rows of the published tables: its row per level (``Row.passes_gate``,
    ``Row.rank``), its overall row (``None``: not in the overall ranking), how many
    teams the overall ranking holds, and the terms of its overall sum, one per level (the
    levels the tab lists: they add up to ``overall.total``)."""

    levels: dict
    overall: OverallRow | None
    ranked: int
    counted: tuple[CountedRank, ...] = ()


def team_standing(*, dp_round: DPRound, team) -> TeamStanding:
    """The team's rows of ``level_boards`` and ``overall_ranking`` (the one rule), and each
    level's term of its overall sum, in the boards' order."""
    boards = level_boards(dp_round=dp_round)
    own = {
        board.level: row
        for board in boards
        for row in [*board.verified, *board.declared]
        if row.team.pk == team.pk
    }
    overall = overall_ranking(boards)
    mine = next((row for row in overall if row.team.pk == team.pk), None)
    counted = ()
    if mine is not None:
        declared = {level: row for level, row in own.items() if row.declared}
        counted = tuple(
            CountedRank(
                level=board.level,
                rank=mine.ranks[board.level],
                verified=board.level in own and board.level not in declared,
                declared=declared.get(board.level),
            )
            for board in boards
        )
    return TeamStanding(levels=own, overall=mine, ranked=len(overall), counted=counted)
