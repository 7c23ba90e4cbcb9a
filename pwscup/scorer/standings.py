"""The scorer round's rankings for the competition's standings
(``RoundKind.ranking_keys`` / ``published_rankings``): the release ranking and the attack
ranking under the round's own rules (``selectors.standings``), once its results are
published; a disqualified team has no row."""

import keyword
from dataclasses import replace
from operator import attrgetter

from django.utils.translation import gettext_lazy as _

from pwscup.core.languages import in_reader_language
from pwscup.kinds import rankings
from pwscup.kinds.rankings import (
    AttackCells,
    RankingKey,
    RoundRanking,
    ranking_rows,
    score_number,
)
from pwscup.scorer import selectors
from pwscup.submissions.kind_rankings import ranked_named_scores
from scoring.formula import FUNCTIONS
from scoring.scorer.score_columns import PROGRAM_NAMES

# The core's top-N attack score's name (``pwscup.competitions.attack_top``), kept free.
ATTACK_TOP = "attack_top"


def _release_score(config):
    """What the release ranking orders by and its direction: a release's protection when the
    round ranks by it (``release_rank`` ``protection``; lower is better when a higher attack
    score is a stronger attack), else its primary score (``rank_sum`` breaks ties by it)."""
    if config.release_rank == "protection":
        return attrgetter("protection"), not config.attack_primary_column.higher_is_better
    return attrgetter("primary"), config.release_primary_column.higher_is_better


def _keys(round_) -> tuple[RankingKey, RankingKey]:
    """The two rankings; each score's direction is the round's (the release ranking orders
    by ``_release_score``, the attack ranking by the attackers' power)."""
    config = selectors.round_config(round_)
    return (
        replace(rankings.RELEASE, higher_is_better=_release_score(config)[1]),
        replace(rankings.ATTACK, higher_is_better=config.attack_primary_column.higher_is_better),
    )


def _standing_rank(row) -> int | None:
    """A release's rank as the standings and the top-N attack score read it: none when it
    fails a gate (the round's own table lists it after the passing releases, with a rank,
    but it is no valid release: docs/organizers.md, "a failed gate" is unranked, and a
    release failing a gate never counts among the top N)."""
    return None if row.failed_gates else row.rank


def ranking_keys(round_) -> list[RankingKey]:
    return list(_keys(round_))


def published_rankings(round_) -> list[RoundRanking]:
    scorer = selectors.scorer_of(round_)
    if scorer is None or not scorer.results_published:
        return []
    board = selectors.standings(scorer=scorer)
    release_key, attack_key = _keys(round_)
    release_score = _release_score(selectors.round_config(round_))[0]
    releases = [row for row in board.releases if not row.disqualified]
    attackers = [row for row in board.attackers if not row.disqualified]
    return [
        RoundRanking(release_key, ranking_rows(releases, score=release_score, rank=_standing_rank)),
        RoundRanking(attack_key, ranking_rows(attackers, score=lambda r: r.power)),
    ]


# The names added after the release columns: the ranking program's only where it ranks.
_PROGRAM = frozenset(PROGRAM_NAMES.values())
_ADDED = frozenset({"protection", "power", *_PROGRAM})


def _formula_key(key: str) -> bool:
    """Whether a release column's key can be a formula's name: an identifier that is not a
    word of the language (``if``, ``max``...) nor one of the names added after it (the
    ranking program's names are refused as a column's key when the settings are saved;
    left out here too, for settings stored before)."""
    reserved = {ATTACK_TOP, *_ADDED, *FUNCTIONS}
    return key.isidentifier() and not keyword.iskeyword(key) and key not in reserved


def _program_numbers(run, slug: str) -> dict:
    """The team's numbers of the ranking program's ``run`` by their formula names; a number
    the run did not give the team is left out (the team then has no total naming it)."""
    given = (run.teams if run is not None else {}).get(slug) or {}
    numbers = {name: score_number(given.get(side)) for side, name in PROGRAM_NAMES.items()}
    return {name: value for name, value in numbers.items() if value is not None}


def named_scores(round_) -> dict:
    """The numbers a round total may name: each release column of the team's final release
    by its key (the round's ``release_columns``), its ``protection`` and the team's attack
    ``power``, as the results show them; in a round ranked by its program, the numbers the
    newest finished run gave the team (``PROGRAM_NAMES``)."""
    scorer = selectors.scorer_of(round_)
    if scorer is None:
        return {"names": [], "teams": {}}
    names = score_names(round_)
    columns = [name["key"] for name in names if name["key"] not in _ADDED]
    board = selectors.standings(scorer=scorer)  # ``ranking``: the newest run, if it counts
    teams: dict[int, dict] = {}
    for row in board.releases:
        values = {key: score_number(row.release.scores.get(key)) for key in columns}
        teams[row.team.pk] = {**values, "protection": score_number(row.protection)}
    for row in board.attackers:
        teams.setdefault(row.team.pk, {})["power"] = score_number(row.power)
    for row in [*board.releases, *board.attackers]:
        teams[row.team.pk].update(_program_numbers(board.ranking, row.team.slug))
    return ranked_named_scores(round_, names=names, teams=teams)


def score_names(round_) -> list[dict]:
    """Each release column whose key a formula can write, then ``protection`` and
    ``power``, then, in a round ranked by its program, the program's two numbers (offered
    before any run has finished, so that a formula naming them is saved in advance)."""
    if selectors.scorer_of(round_) is None:
        return []
    config = selectors.round_config(round_)
    names = [
        {"key": c.key, "label": in_reader_language(c.label, c.label_ja)}
        for c in config.release_columns
        if _formula_key(c.key)
    ]
    added = {
        "protection": _("Protection (the release's score under attack)"),
        "power": _("Attack power"),
        PROGRAM_NAMES["release"]: _("The ranking program's release number (its newest run)"),
        PROGRAM_NAMES["attack"]: _("The ranking program's attack number (its newest run)"),
    }
    if config.ranking != "program":
        added = {key: label for key, label in added.items() if key not in _PROGRAM}
    return [*names, *({"key": key, "label": str(label)} for key, label in added.items())]


def scores_awaited(round_) -> dict[str, str]:
    """The program's names, each with why no team has it yet, while no run of the ranking
    program has finished in a round ranked by it (``RoundKind.scores_awaited``)."""
    scorer = selectors.scorer_of(round_)
    if scorer is None or selectors.round_config(round_).ranking != "program":
        return {}
    if selectors.latest_ranking(scorer=scorer) is not None:
        return {}
    why = _(
        "The totals wait for the ranking program: they are computed from its numbers once "
        "the organizers have run it."
    )
    return dict.fromkeys(_PROGRAM, str(why))


def attack_cells(round_) -> AttackCells:
    """The round's matrix for the core's top-N attack score: each ranked attacker's best
    primary attack score on each target it attacked (a target not attacked does not count,
    or counts as the round's ``unattacked``, as in the round's own power rule), and the
    release ranking's order."""
    scorer = selectors.scorer_of(round_)
    if scorer is None:
        return AttackCells(releases=(), cells={})
    config = selectors.round_config(round_)
    board = selectors.standings(scorer=scorer)
    ids = {row.team.slug: row.team.pk for row in board.releases}
    ranked = {row.team.slug: row.team.pk for row in board.attackers if row.rank is not None}
    cells = {
        ids[target]: {ranked[a]: value for a, value in attacks.items() if a in ranked}
        for target, attacks in board.matrix.items()
        if target in ids
    }
    if config.unattacked is not None:  # an attack not made counts as the round says
        for target, row in cells.items():
            for attacker in ranked.values():
                if attacker != target:
                    row.setdefault(attacker, config.unattacked)
    return AttackCells(
        releases=tuple((row.team.pk, _standing_rank(row)) for row in board.releases),
        cells=cells,
        higher_is_better=config.attack_primary_column.higher_is_better,
    )
