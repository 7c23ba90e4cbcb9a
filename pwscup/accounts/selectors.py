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
    return set(
        TeamDisqualification.objects.filter(team__competition_id=competition_id).values_list(
            "team_id", flat=True
        )
    )
