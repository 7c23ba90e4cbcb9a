"""Who is who in a competition, and the awards the judges gave its teams."""

import io
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q

from pwscup.accounts.models import Award, Membership, Team, TeamDisqualification
from pwscup.competitions.models import Competition, Round
from pwscup.competitions.selectors import organized_competitions, round_ranking_version
from pwscup.core.exports import csv_writer
from pwscup.core.languages import in_reader_language


def team_for_user(*, user, competition: Competition) -> Team | None:
    if not user.is_authenticated:
        return None
    # Ordered by name alone: every row has this competition (its default ordering would
    # join the competitions to sort by their date).
    return Team.objects.filter(competition=competition, members=user).order_by("name").first()


def competitions_for_user(*, user):
    """Competitions the user takes part in or organizes, plus the listed ones."""
    visible = Q(is_listed=True)
    if user.is_authenticated:
        # EXISTS rather than a join over every membership + DISTINCT: read on every page.
        visible |= Exists(Membership.objects.filter(team__competition=OuterRef("pk"), user=user))
        visible |= Q(pk__in=organized_competitions(user=user).values("pk"))
    return Competition.objects.filter(visible).order_by("-created_at")


def user_profile(*, user) -> dict:
    """The profile page's lists: the user's teams (with their competition) and the
    competitions they organize."""
    memberships = (
        Membership.objects.filter(user=user)
        .select_related("team__competition", "team__captain")
        .order_by("-competition__created_at")
    )
    return {
        "memberships": list(memberships),
        "organized": list(organized_competitions(user=user).order_by("-created_at")),
    }


def disqualified_team_ids(*, competition_id: int) -> set[int]:
    """The teams of the competition its organizers disqualified (until reinstated). What
    that does to a ranking or an attack matrix is ``disqualification_rule``'s."""
    return set(
        TeamDisqualification.objects.filter(team__competition_id=competition_id).values_list(
            "team_id", flat=True
        )
    )


def team_disqualification(*, team) -> TeamDisqualification | None:
    """The team's disqualification (its reason, shown to its own members; who decided it and
    when, shown to the organizers), or None."""
    return TeamDisqualification.objects.filter(team=team).select_related("decided_by").first()


@dataclass(frozen=True)
class DisqualificationRule:
    """What a disqualification does, the same in every round of every kind
    (docs/organizers.md, "Disqualifying a team"): the one owner of the rule.

    * **Which teams rank** (``ranks``, ``ranked``): not a disqualified team, in no ranking
      (leaderboards, final rankings, rank sums, release and attack rankings; pages, CSV files,
      the API, the results archive). Drop its rows after computing every team's numbers and
      before ranking them: the ranks close up over it.
    * **Which attacks count** (``attack_counts``): every attack, a disqualified team's
      included. Its attacks are what happened to the other teams' targets: they stay in the
      attack matrix and in the safety of the targets they hit, so disqualifying a strong
      attacker changes no other team's safety, and no rank but by closing up.
    * **What the matrix shows** (``marked``): every target and every attacker, a
      disqualified team's marked as such.

    A kind reads it once per computation (``disqualification_rule``), so a reinstated team
    is back on the next one; the console tells each round's kind when the set changes
    (``RoundKind.teams_standing_changed``)."""

    team_ids: frozenset[int] = frozenset()

    def ranks(self, team_id: int) -> bool:
        """Whether the team gets a rank."""
        return team_id not in self.team_ids

    def attack_counts(self, attacker_team_id: int) -> bool:
        """Whether an attack by this team counts against the target it hit: always (a
        disqualification takes a team out of the rankings, not out of what happened)."""
        return True

    def marked(self, team_id: int) -> bool:
        """Whether the team's target (and attacker row) is shown marked disqualified."""
        return team_id in self.team_ids

    def ranked(self, rows, *, team_id=lambda row: row.team.pk) -> list:
        """``rows`` (in their order) of the teams that rank; ``team_id(row)`` names a row's
        team. Rank what is left."""
        return [row for row in rows if self.ranks(team_id(row))]


def disqualification_rule(*, competition_id: int) -> DisqualificationRule:
    """The competition's ``DisqualificationRule``, read now (one query)."""
    return DisqualificationRule(frozenset(disqualified_team_ids(competition_id=competition_id)))


def without_disqualified(rows, *, competition_id: int, team_id=lambda row: row.team.pk) -> list:
    """``rows`` (in their order) of the teams that rank (``DisqualificationRule.ranked``)."""
    return disqualification_rule(competition_id=competition_id).ranked(rows, team_id=team_id)


# --- Judged awards -------------------------------------------------------------------------

# A safety net only: an entry nobody reads lives this long (the key moves with the version).
AWARDS_CACHE_SECONDS = 3600
AWARDS_CSV_HEADER = ["order", "award_en", "award_ja", "team", "team_slug", "round", "citation"]


@dataclass(frozen=True)
class AwardLine:
    """One judged award as the pages, the archive and the standings show it (plain data)."""

    pk: int
    name_en: str
    name_ja: str
    team_name: str
    team_slug: str
    citation: str
    round_slug: str | None
    round_name: str | None
    order: int

    @property
    def name(self) -> str:
        """The name in the active language: Japanese when it is ``ja``, else English; the
        other one when that is empty."""
        return in_reader_language(self.name_en, self.name_ja)


def _award_lines(awards) -> list[AwardLine]:
    return [
        AwardLine(
            pk=award.pk,
            name_en=award.name_en,
            name_ja=award.name_ja,
            team_name=award.team.name,
            team_slug=award.team.slug,
            citation=award.citation,
            round_slug=award.round.slug if award.round else None,
            round_name=award.round.name if award.round else None,
            order=award.order,
        )
        for award in awards.select_related("team", "round").order_by("order", "pk")
    ]


def awards_of(*, competition: Competition, round: Round | None = None) -> list[AwardLine]:
    """The competition's judged awards in their order (one query): every one, those of a
    round naming it; with ``round``, that round's only."""
    awards = Award.objects.filter(competition=competition)
    if round is not None:
        awards = awards.filter(round=round)
    return _award_lines(awards)


def award_of(*, competition: Competition, pk: int) -> Award | None:
    """The competition's award ``pk`` (for the console's edit and delete), else ``None``."""
    return Award.objects.filter(competition=competition, pk=pk).select_related("team").first()


def round_awards_shown(*, round: Round) -> list[AwardLine]:
    """``awards_of`` the round for its results pages, kept in the shared cache under the
    round's ranking version (which the award services bump): no query once cached."""
    key = f"awards:{round.pk}:{round_ranking_version(round=round)}"
    lines = cache.get(key)
    if lines is None:
        lines = _award_lines(Award.objects.filter(round=round))
        cache.set(key, lines, AWARDS_CACHE_SECONDS)
    return lines


def awards_csv(*, competition: Competition) -> bytes:
    """Every award of the competition as a CSV (UTF-8, formulas neutralised): the results
    archive's ``awards.csv``."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, lineterminator="\n")
    writer.writerow(AWARDS_CSV_HEADER)
    for line in awards_of(competition=competition):
        writer.writerow(
            [
                line.order,
                line.name_en,
                line.name_ja,
                line.team_name,
                line.team_slug,
                line.round_slug or "",
                line.citation,
            ]
        )
    return buffer.getvalue().encode()
