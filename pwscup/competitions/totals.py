"""A round's total (docs/organizers.md, "A round's total"): one number per team from the
scores the round shows, by the organizer's formula (``Round.total_formula``, the language of
``scoring.formula``), for a round of any kind.

The kind says which scores a formula may name and gives each team's
(``RoundKind.named_scores``, from its own result selectors); the core evaluates and ranks.
**Higher is better**: the teams are ranked by their total, the highest first (a formula
where lower is better is written negated, ``-rank_sum``); equal totals share a rank (1, 2,
2, 4), ties listed by team name. A disqualified team is left out (the kind's named scores
leave it out, as its rankings do: ``pwscup.accounts.selectors.DisqualificationRule``), so is
a team missing a score the formula names or whose scores the formula cannot be evaluated on (a division by zero on its
scores): it has no total. Nothing is stored: the totals are computed on every read.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from pwscup.competitions import attack_top
from pwscup.competitions.models import AttackTopBy, Round
from pwscup.competitions.total_values import team_totals, tie_key
from pwscup.kinds import kind_of
from pwscup.kinds.rankings import RankingKey, RoundRanking, ranking_rows
from scoring.formula import FormulaError, formula_comparison, formula_names
from scoring.ranking import competition_ranks

# The ranking's tie (``TIE_DECIMALS``) and the formula's value per team are
# ``total_values``'s, shared with the top N by the total (``attack_top``).
_tie_key = tie_key


@dataclass(frozen=True)
class TotalRow:
    team: object  # the team (``pwscup.accounts.models.Team``)
    value: float
    rank: int

    def __iter__(self):  # ``team, value, rank = row``
        return iter((self.team, self.value, self.rank))


def named_scores(*, round: Round) -> dict:
    """The round's kind's named scores (``RoundKind.named_scores``), never ``None``, and the
    core's ``attack_top`` when the round counts attacks against its top releases
    (``pwscup.competitions.attack_top``)."""
    scores = kind_of(round).named_scores(round) or {}
    teams = {pk: dict(values) for pk, values in scores.get("teams", {}).items()}
    top = attack_top.attack_top_scores(round)
    if top is not None:
        for team_id, value in top.items():
            teams.setdefault(team_id, {})[attack_top.ATTACK_TOP] = value
    # The kind's names are its ``score_names`` (the conformance suite holds it to that).
    return {"names": score_names(round=round), "teams": teams}


def score_names(*, round: Round) -> list[dict]:
    """``named_scores(round=round)["names"]`` without reading a team's score
    (``RoundKind.score_names``): what a formula may name, for its help and its words."""
    names = list(kind_of(round).score_names(round))
    if round.attack_top_n:  # kept only where the kind has a matrix (``offered``)
        names.append({"key": attack_top.ATTACK_TOP, "label": attack_top.label(round)})
    return names


def offered_names(*, round: Round) -> tuple[list[dict], bool]:
    """What the console's Total card offers a formula: ``score_names``, less ``attack_top``
    while the top N is read from the round's total (a formula naming it is refused then, as
    circular: ``total_services.attack_top_rule_check``); and whether it was left out."""
    names = score_names(round=round)
    if round.attack_top_by != AttackTopBy.TOTAL:
        return names, False
    offered = [name for name in names if name["key"] != attack_top.ATTACK_TOP]
    return offered, len(offered) < len(names)


def total_names(*, round: Round) -> list[dict]:
    """The names the round's formula uses, with their labels (the Rules tab's words)."""
    if not round.total_formula:
        return []
    labels = {name["key"]: name["label"] for name in score_names(round=round)}
    try:
        used = formula_names(round.total_formula)
    except FormulaError:
        return []
    return [{"key": key, "label": labels.get(key, key)} for key in used]


def total_awaited(*, round: Round) -> str:
    """Why the round's totals are not there yet (``RoundKind.scores_awaited``: a name its
    formula uses that no team has yet), in the reader's language; ``""`` when nothing is
    awaited."""
    awaited = kind_of(round).scores_awaited(round) if round.total_formula else {}
    if not awaited:
        return ""
    try:
        used = formula_names(round.total_formula)
    except FormulaError:
        return ""
    return next((awaited[name] for name in used if name in awaited), "")


def total_comparison(*, round: Round) -> str:
    """The first comparison of the round's formula as written (the Rules tab then says how
    one counts, with it as the example); ``""`` without one, without a formula, or with one
    that no longer parses."""
    try:
        return formula_comparison(round.total_formula) if round.total_formula else ""
    except FormulaError:
        return ""


def _ranked_totals(round: Round, *, every_team: bool) -> list[tuple[int | None, object, float]]:
    """``(rank, team, total)`` best first; with ``every_team``, each team the round has named
    scores for but no total after them, unranked (``None``, ``None``)."""
    if not round.total_formula:
        return []
    scores = named_scores(round=round)["teams"]
    try:
        totals = team_totals(formula=round.total_formula, teams=scores)
    except FormulaError:  # a formula kept from before a change of the kind's names
        return []
    listed = scores if every_team else totals
    teams = round.competition.teams.filter(pk__in=list(listed)).order_by("name")
    ordered = competition_ranks(
        teams,
        key=lambda team: -_tie_key(totals.get(team.pk, 0.0)),
        ranked=lambda team: team.pk in totals,
    )
    return [(rank, team, totals.get(team.pk)) for rank, team in ordered]


def round_totals(*, round: Round) -> list[TotalRow]:
    """The round's total per team, best (highest) first, with its rank; ``[]`` when the round
    has no formula (see the module for who is left out)."""
    return [
        TotalRow(team, total, rank) for rank, team, total in _ranked_totals(round, every_team=False)
    ]


# The total as a ranking of the competition's standings, for a round with a formula.
TOTAL = RankingKey("total", _("Total (the round's formula)"), higher_is_better=True)


def round_ranking_keys(round: Round) -> list[RankingKey]:
    """The round's rankings for the standings: its kind's, then ``total`` when the round has
    a formula."""
    keys = list(kind_of(round).ranking_keys(round))
    if round.attack_top_n:  # kept only where the kind has a matrix (``offered``)
        keys.append(attack_top.ranking_key(round))
    return [*keys, TOTAL] if round.total_formula else keys


def round_published_rankings(round: Round) -> list[RoundRanking]:
    """The round's published rankings: its kind's, then the total once the round's results
    are published (before: pending, as the kind's own)."""
    rankings = list(kind_of(round).published_rankings(round))
    if round.total_formula and kind_of(round).results_published(round):
        # Every team the round has scores for: one without a total is listed unranked, so
        # that the standings list it last rather than leave it out.
        rows = ranking_rows(
            _ranked_totals(round, every_team=True),
            team=lambda row: row[1],
            rank=lambda row: row[0],
            score=lambda row: row[2],
        )
        rankings.append(RoundRanking(TOTAL, rows))
    if rankings and round.attack_top_n:
        ranking = round_attack_top_ranking(round)
        if ranking is not None:
            rankings.append(ranking)
    return rankings


def round_attack_top_ranking(round: Round) -> RoundRanking | None:
    """The top-N attack score as a published ranking: ranked in the kind's attack direction,
    an attacker with no score listed without a rank."""
    scores = attack_top.attack_top_scores(round)
    if scores is None:
        return None
    key = attack_top.ranking_key(round)
    teams = round.competition.teams.filter(pk__in=list(scores)).order_by("name")
    sign = -1 if key.higher_is_better else 1
    ordered = competition_ranks(
        teams,
        key=lambda team: 0.0 if scores[team.pk] is None else sign * _tie_key(scores[team.pk]),
        ranked=lambda team: scores[team.pk] is not None,
    )
    return RoundRanking(
        key,
        ranking_rows(
            ordered,
            team=lambda pair: pair[1],
            rank=lambda pair: pair[0],
            score=lambda pair: scores[pair[1].pk],
        ),
    )


def round_core_tables(round: Round) -> list[dict]:
    """The round's total and its attack score against the top N releases as leaderboard
    tables (the API's ``…/standings/``, ``pwscup leaderboard``), once its results are
    published, as the Results tab shows them: ``[{"title", "columns", "rows"}]``."""
    if not kind_of(round).results_published(round):
        return []
    tables = []
    if round.total_formula:
        tables.append(
            {
                "title": str(_("Total: %(formula)s") % {"formula": round.total_formula}),
                "columns": [str(_("Rank")), str(_("Team")), str(_("Total"))],
                # To the decimals that decide a tie: no float noise (9.770467999999996).
                "rows": [
                    [row.rank, row.team.name, _tie_key(row.value)]
                    for row in round_totals(round=round)
                ],
            }
        )
    top = round_attack_top_ranking(round) if round.attack_top_n else None
    if top is not None:
        tables.append(
            {
                "title": attack_top.label(round),
                "columns": [str(_("Rank")), str(_("Team")), str(_("Score"))],
                "rows": [[row.rank, row.team.name, row.score] for row in top.rows],
            }
        )
    return tables


def round_standings(request, access) -> dict:
    """A round's standings as tables, for every kind: the kind's (``api_leaderboard``, which
    raises while the caller may not see them), then the core's (``round_core_tables``). The
    API's ``…/standings/`` and the CSV ``standings.csv`` (``pwscup.pages.declared``) read
    this one."""
    board = kind_of(access.round).api_leaderboard(request, access)
    return {**board, "tables": [*board["tables"], *round_core_tables(access.round)]}
