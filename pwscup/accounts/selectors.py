"""Who is who in a competition."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q

from pwscup.accounts.models import Membership, Team, TeamDisqualification
from pwscup.competitions.models import Competition
from pwscup.competitions.selectors import organized_competitions


def team_for_user(*, user, competition: Competition) -> Team | None:
    if not user.is_authenticated:
        return None
    return Team.objects.filter(competition=competition, members=user).first()


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
