"""A round's total per team from its kind's named scores (docs/organizers.md, "A round's
total"): the values and their ranks, one owner for ``pwscup.competitions.totals`` (the
Total table and ranking) and ``pwscup.competitions.attack_top`` (the top N by the total),
which the totals module imports in its turn."""

from pwscup.competitions.models import Round
from pwscup.kinds import kind_of
from scoring.formula import FormulaError, formula_names, formula_value
from scoring.scorer.matrix import rank

# Totals equal to this many decimals tie (sums of floats differ in their last bits).
TIE_DECIMALS = 9


def tie_key(value: float) -> float:
    return round(value, TIE_DECIMALS)  # the builtin: no ``round`` parameter here


def team_totals(*, formula: str, teams: dict) -> dict[int, float]:
    """team id -> the formula's value on the team's scores; a team missing a named score or
    whose scores the formula cannot be evaluated on has none."""
    used = formula_names(formula)
    out = {}
    for team_id, values in teams.items():
        if any(values.get(name) is None for name in used):
            continue
        try:
            out[team_id] = formula_value(formula, {name: values[name] for name in used})
        except FormulaError:
            continue
    return out


def kind_total_ranks(round: Round) -> dict[int, int]:
    """team id -> its rank by the round's total over its kind's own named scores (the
    highest first, equal totals to ``TIE_DECIMALS`` sharing a rank: 1, 2, 2, 4), for the
    top N by the total; ``{}`` without a formula or with one that no longer reads. A
    formula naming ``attack_top`` gives no team a total here: the setting refuses it."""
    if not round.total_formula:
        return {}
    scores = kind_of(round).named_scores(round) or {}
    try:
        totals = team_totals(formula=round.total_formula, teams=scores.get("teams", {}))
    except FormulaError:
        return {}
    ranks = rank({team: tie_key(value) for team, value in totals.items()}, higher_is_better=True)
    return {team: r for team, r in ranks.items() if r is not None}
