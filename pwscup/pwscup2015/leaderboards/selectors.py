"""Leaderboards, the attacker × target matrix and the final ranking.

Ranks are derived from stored scores, never stored: each table is computed from one
query per database table (never one per team or per submission) and kept in the cache
until a change invalidates it (``pwscup.pwscup2015.ranking_cache``); the pages read the
``*_cached`` versions.
"""

from collections.abc import Callable
from dataclasses import dataclass

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import phase_of, user_is_organizer
from pwscup.pwscup2015 import ranking
from pwscup.pwscup2015.leaderboards.matrix import (  # noqa: F401 (read from here too)
    Cell,
    Matrix,
    attack_matrix,
    attack_matrix_cached,
)
from pwscup.pwscup2015.leaderboards.metric_words import ranking_label
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    Pwscup2015Round,
    Target,
)
from pwscup.pwscup2015.ranking_cache import ranking_cached
from pwscup.pwscup2015.selectors import (
    older_scorer_version,
    phase_scored_scores,
    representative_submissions,
)


@dataclass
class LeaderboardRow:
    rank: int | None
    team: Team
    submission: AnonymizationSubmission
    scores: dict
    passes_gates: bool
    safety: float
    older_scorer: str = ""  # the older scorer version that computed these scores, if any

    @property
    def reference(self) -> float | None:
        """The reference attack's rate on this upload (not part of its safety)."""
        return self.scores.get(scoring.REFERENCE_ATTACK)


def ranking_rule_text(round: Round) -> str:
    return ranking.rule_text(round)


def _rank_anonymizations(rows: list, round: Round) -> list:
    return ranking.assign_ranks(
        ranking.exclude_disqualified(rows, round),
        key=lambda r: ranking.anonymization_key(scores=r.scores, safety=r.safety, round=round),
        name=lambda r: r.team.name,
        ranked=lambda r: r.passes_gates,
    )


def _competition_teams(round: Round) -> list[Team]:
    return list(Team.objects.filter(competition_id=round.competition_id))


def anonymization_leaderboard(*, phase: Phase) -> list[LeaderboardRow]:
    round_ = phase.round
    teams = {team.pk: team for team in _competition_teams(round_)}
    chosen = representative_submissions(phase=phase)
    rows = [
        LeaderboardRow(
            rank=None,
            team=teams[team_id],
            submission=submission,
            scores=submission.scores,
            passes_gates=ranking.passes_gates(submission.scores, round_),
            safety=ranking.submission_safety(submission.scores, round_),
            older_scorer=older_scorer_version(submission),
        )
        for team_id, submission in chosen.items()
        if team_id in teams
    ]
    return _rank_anonymizations(rows, round_)


def anonymization_leaderboard_cached(*, phase: Phase) -> list[LeaderboardRow]:
    return ranking_cached(
        round=phase.round,
        name=f"leaderboard-{phase.pk}",
        compute=lambda: anonymization_leaderboard(phase=phase),
    )


def can_view_leaderboard(*, user, phase: Phase, is_organizer: bool | None = None) -> bool:
    """Public leaderboards are for everyone; a private one only for the organizers.

    A team sees its own scores on its round page; other teams' scores only once the
    organizer makes the leaderboard public (competition.md, "What must never happen").
    ``is_organizer``: whether ``user`` organizes the competition, when the caller knows.
    """
    if phase.leaderboard_public:
        return True
    if is_organizer is not None:
        return is_organizer
    return user_is_organizer(user=user, competition=phase.round.competition)


def can_view_results(*, user, round: Round, is_organizer: bool | None = None) -> bool:
    """The full matrix and the final ranking: organizers always, everyone once published."""
    if round.pwscup2015.results_published:
        return True
    if is_organizer is not None:
        return is_organizer
    return user_is_organizer(user=user, competition=round.competition)


def attack_rates_visible_to_team(*, round: Round, now=None) -> bool:
    if round.pwscup2015.results_published:
        return True
    if round.pwscup2015.attack_visibility == Pwscup2015Round.AttackVisibility.LIVE:
        return True
    if round.pwscup2015.attack_visibility == Pwscup2015Round.AttackVisibility.AFTER_PHASE:
        phase = phase_of(round=round, kind=Phase.Kind.ATTACK)
        return phase is not None and phase.has_closed(now)
    return False


@dataclass
class FinalAnonymizationRow:
    rank: int | None
    team: Team
    target: Target
    scores: dict
    passes_gates: bool
    safety: float | None
    older_scorer: str = ""  # the older scorer version that computed its scores, if any
    reference: float | None = None  # the reference attack's rate on the target
    attacked: bool = True  # some team attacked the target (else ``final_safety``'s floor)

    @property
    def submission(self) -> AnonymizationSubmission:
        return self.target.submission


@dataclass
class FinalAttackRow:
    rank: int | None
    team: Team
    mean_rate: float
    targets_attacked: int


def final_ranking(*, round: Round) -> tuple[list[FinalAnonymizationRow], list[FinalAttackRow]]:
    return _final_ranking(attack_matrix(round=round), round)


def _final_ranking(matrix: Matrix, round: Round):
    anonymization = []
    attacked_targets = matrix.attacked_targets()
    for target, reference in zip(matrix.targets, matrix.reference_rates(), strict=True):
        scores = target.submission.scores
        attacked = target.pk in attacked_targets
        anonymization.append(
            FinalAnonymizationRow(
                rank=None,
                team=target.team,
                target=target,
                scores=scores,
                passes_gates=ranking.passes_gates(scores, round),
                safety=ranking.final_safety(
                    (matrix.cell(key, target.pk).best for key, _label in matrix.attackers),
                    reference=reference,
                    attacked=attacked,
                    round=round,
                ),
                older_scorer=older_scorer_version(target.submission),
                reference=reference,
                attacked=attacked,
            )
        )
    _rank_anonymizations(anonymization, round)
    attack = []
    for team in matrix.teams:
        others = [t for t in matrix.targets if t.team_id != team.pk]
        if not others:
            continue
        bests = [matrix.cell(f"team:{team.pk}", t.pk).best for t in others]
        attacked = sum(b is not None for b in bests)
        mean = sum(b or 0.0 for b in bests) / len(others)
        attack.append(
            FinalAttackRow(rank=None, team=team, mean_rate=mean, targets_attacked=attacked)
        )
    # A team that attacked no target has no attack rank (listed last, rank ``None``).
    ranking.assign_ranks(
        ranking.exclude_disqualified(attack, round),
        key=lambda r: -ranking.round_key(r.mean_rate),
        name=lambda r: r.team.name,
        ranked=lambda r: r.targets_attacked > 0,
    )
    return anonymization, attack


def final_ranking_cached(*, round: Round):
    return ranking_cached(
        round=round,
        name="final",
        compute=lambda: _final_ranking(attack_matrix_cached(round=round), round),
    )


def ranking_counts_every_attack(*, user, round: Round, is_organizer: bool | None = None) -> bool:
    """Whether the leaderboard's chart plots the ranking's safety over every attack.

    Before the freeze only the built-in attacks have attacked: their rate is the ranking's
    safety there is. After it the final ranking's (teams' attacks too) exists, and the chart
    shows it to whoever may see the final ranking; the others keep the built-in one.
    """
    return round.pwscup2015.frozen_at is not None and can_view_results(
        user=user, round=round, is_organizer=is_organizer
    )


@dataclass(frozen=True)
class Standings:
    """The leaderboard as every surface shows it (its table, chart, CSV, the API's standings):
    one ranking number per team, named ``label`` (``column`` in CSV and JSON keys)."""

    every_attack: bool  # teams' attacks count in the number (the final ranking's rows)
    label: str
    column: str
    _rows: Callable[[], list]

    def rows(self) -> list:
        return self._rows()


def leaderboard_standings(*, phase: Phase, user, is_organizer: bool | None = None) -> Standings:
    """The one owner of the leaderboard's ranking number (competition.md, "A round").

    Before the freeze, and to whoever may not see the results yet, only the built-in attacks
    have a rate: the number is their safety on each team's representative upload (the
    phase leaderboard). After the freeze, to whoever may see the final ranking (organizers;
    everyone once published), it is the final ranking's: the safety over every attacker,
    team or built-in, on each team's target, and the rows are the final ranking's.
    Computing the rows is left to ``rows()`` (a cached table needs none).
    """
    round_ = phase.round
    every_attack = ranking_counts_every_attack(user=user, round=round_, is_organizer=is_organizer)
    if every_attack:
        rows = lambda: list(final_ranking_cached(round=round_)[0])  # noqa: E731
    else:
        rows = lambda: anonymization_leaderboard_cached(phase=phase)  # noqa: E731
    measure = round_.pwscup2015.ranking_rule
    return Standings(
        every_attack=every_attack,
        label=ranking_label(measure=measure, every_attack=every_attack),
        column=ranking.safety_measure(round_).csv_column,
        _rows=rows,
    )


@dataclass(frozen=True)
class Upload:
    """One scored upload as the chart's faint points take it."""

    scores: dict
    safety: float | None  # its built-in attacks' rate, by the round's rule


def scatter_uploads(*, phase: Phase, team_ids, every_attack: bool) -> list[tuple[Team, Upload]]:
    """Every scored upload of ``team_ids``: the faint points behind the teams' points. Only
    the built-in attacks ever attacked an upload that is not a target, so with the final
    ranking's safety on an axis they have no value there (and are not drawn)."""
    round_ = phase.round
    return [
        (
            team,
            Upload(
                scores=scores,
                safety=None if every_attack else ranking.submission_safety(scores, round_),
            ),
        )
        for team, scores in phase_scored_scores(phase=phase, team_ids=team_ids)
    ]


@dataclass(frozen=True)
class TeamStanding:
    """Where a team stands on the leaderboard it may see (its Submit and Results tabs).

    ``visible``: the reader may see the leaderboard (otherwise no rank is told: a rank
    reveals how the other teams did). ``listed``: the team has a row. ``rank``: its rank
    (``None``: listed last, unranked, its final upload fails a gate). ``label``: the
    ranking number's name, as the leaderboard prints it. ``ranked``: how many teams are
    ranked. ``reference``: the reference attack's rate on the team's row (its final upload,
    or its target in the final ranking), shown beside the rank; ``None`` when not computed."""

    visible: bool
    listed: bool = False
    rank: int | None = None
    ranked: int = 0
    label: str = ""
    reference: float | None = None


def team_standing(*, phase: Phase, team: Team, user, is_organizer: bool) -> TeamStanding:
    """The team's row of the leaderboard's standings (``leaderboard_standings``, the one owner
    of the ranking), when the reader may see the leaderboard."""
    if not can_view_leaderboard(user=user, phase=phase, is_organizer=is_organizer):
        return TeamStanding(visible=False)
    standings = leaderboard_standings(phase=phase, user=user, is_organizer=is_organizer)
    # Every team's Submit and Results tabs read this: a small table per ranking version
    # (team → rank and reference rate), not the cached rows with their models (a 100-team
    # leaderboard is 200 model instances to unpickle on every tab).
    places, ranked = ranking_cached(
        round=phase.round,
        name=f"places-{phase.pk}-{int(standings.every_attack)}",
        compute=lambda: _places(standings.rows()),
    )
    own = places.get(team.pk)
    return TeamStanding(
        visible=True,
        listed=own is not None,
        rank=own[0] if own is not None else None,
        ranked=ranked,
        label=standings.label,
        reference=own[1] if own is not None else None,
    )


def _places(rows) -> tuple[dict[int, tuple[int | None, float | None]], int]:
    """Each listed team's rank and reference rate, and how many teams are ranked."""
    places = {row.team.pk: (row.rank, row.reference) for row in rows}
    return places, sum(1 for row in rows if row.rank is not None)
