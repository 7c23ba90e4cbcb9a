"""Who is who in a competition."""

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
    """The teams of the competition its organizers disqualified: the one owner of the rule
    that a disqualified team is left out of every ranking of every round of its competition
    (leaderboards, final rankings, rank sums, attack rankings; on the pages, in the CSV
    files, the API and the results archive), until it is reinstated. Each kind drops these
    teams from its rows before ranking them (``without_disqualified``); the console tells
    each round's kind when the set changes (``RoundKind.teams_standing_changed``)."""
    return set(
        TeamDisqualification.objects.filter(team__competition_id=competition_id).values_list(
            "team_id", flat=True
        )
    )


def without_disqualified(rows, *, competition_id: int, team_id=lambda row: row.team.pk) -> list:
    """``rows`` (in their order) without those of the competition's disqualified teams
    (``disqualified_team_ids``); ``team_id(row)`` names a row's team. Rank what is left:
    the ranks close up over a disqualified team."""
    excluded = disqualified_team_ids(competition_id=competition_id)
    return [row for row in rows if team_id(row) not in excluded]
