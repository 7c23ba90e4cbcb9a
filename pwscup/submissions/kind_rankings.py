"""What the kinds' rankings share: the order of a ranking (``ranked_by_name``: a
disqualified team out, ties listed by team name, the ranks of
``scoring.ranking.competition_ranks``), the attack ranking of a game of attacks on the other
teams' releases (``mean_attack_ranking``: the mean over the other teams' targets, a target
not attacked counting as the kind says) and its cells for the core's top-N attack score
(``other_target_cells``), and the standings' hand-offs (``dict_ranking_rows``,
``ranked_named_scores``). A kind's matrix is ``pwscup.submissions.attack_matrix``'s (or its
own, the scorer's) and its rules of a release its own; these only rank what it gives."""

from collections.abc import Callable, Iterable

from pwscup.accounts.selectors import disqualification_rule
from pwscup.kinds.rankings import RankingRow, ranking_rows
from scoring.ranking import competition_ranks


def ranked_by_name(rows: list[dict], *, rule, key: Callable, ranked: Callable) -> list[dict]:
    """``rows`` (dicts with a ``team``) without those ``rule`` (the competition's
    ``DisqualificationRule``) leaves out, ranked by ``key`` (ties listed by team name; a row
    ``ranked`` says no to is listed last without a rank), each with its ``rank``."""
    kept = rule.ranked(rows, team_id=lambda r: r["team"].pk)
    kept.sort(key=lambda r: r["team"].name)
    ordered = competition_ranks(kept, key=key, ranked=ranked)
    return [{**r, "rank": rank} for rank, r in ordered]


def other_target_values(
    team, cells: list, targets: list, *, fallback: Callable[[int], float]
) -> list[tuple[object, float, bool]]:
    """``(target, value, attacked)`` for each of ``targets`` but the team's own: its cell
    (``cells[k]``: the team's number on ``targets[k]``, ``None`` where it did not attack),
    else ``fallback(k)``."""
    out = []
    for column, (cell, target) in enumerate(zip(cells, targets, strict=True)):
        if target.team_id == team.pk:
            continue
        attacked = cell is not None
        out.append((target, cell if attacked else fallback(column), attacked))
    return out


def mean_attack_ranking(
    attackers: Iterable[tuple[object, list]],
    targets: list,
    *,
    rule,
    fallback: Callable[[int], float] = lambda column: 0.0,
) -> list[dict]:
    """The attack ranking of ``attackers`` (``(team, cells)`` pairs, as
    ``other_target_values`` reads them): ``{"team", "mean", "attacked", "rank"}``, the mean
    over the other teams' targets higher first; a team that attacked no target has no rank,
    a disqualified team no row (``ranked_by_name``)."""
    out = []
    for team, cells in attackers:
        values = other_target_values(team, cells, targets, fallback=fallback)
        mean = sum(value for _t, value, _a in values) / len(values) if values else 0.0
        out.append({"team": team, "mean": mean, "attacked": sum(a for _t, _v, a in values)})
    return ranked_by_name(
        out, rule=rule, key=lambda r: -r["mean"], ranked=lambda r: r["attacked"] > 0
    )


def other_target_cells(
    attackers: Iterable[tuple[object, list]],
    targets: list,
    *,
    ranked: set[int],
    fallback: Callable[[int], float] = lambda column: 0.0,
) -> dict[int, dict[int, float]]:
    """``AttackCells.cells`` of ``mean_attack_ranking``'s numbers: target team id ->
    attacker team id -> the value its mean counts, for each attacker the ranking ranks
    (``ranked``: their team ids) on every other team's target."""
    cells: dict[int, dict[int, float]] = {t.team_id: {} for t in targets}
    for team, row in attackers:
        if team.pk not in ranked:
            continue
        for target, value, _attacked in other_target_values(team, row, targets, fallback=fallback):
            cells[target.team_id][team.pk] = value
    return cells


def dict_ranking_rows(rows: list[dict], *, score: str) -> tuple[RankingRow, ...]:
    """``ranking_rows`` of rows that are dicts with a ``team`` and a ``rank``, scored by
    ``row[score]``."""
    return ranking_rows(
        rows, team=lambda r: r["team"], rank=lambda r: r["rank"], score=lambda r: r[score]
    )


def ranked_named_scores(round, *, names: list[dict], teams: dict[int, dict]) -> dict:
    """``RoundKind.named_scores``'s answer: the ``names`` and each team's numbers, a
    disqualified team's left out (``DisqualificationRule.ranks``)."""
    rule = disqualification_rule(competition_id=round.competition_id)
    return {"names": names, "teams": {pk: v for pk, v in teams.items() if rule.ranks(pk)}}
