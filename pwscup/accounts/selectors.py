"""Who is who in a competition."""

from django.db.models import Exists, OuterRef, Q, QuerySet

from pwscup.accounts.models import Membership, Team
from pwscup.competitions.models import Competition


def team_for_user(*, user, competition: Competition) -> Team | None:
    if not user.is_authenticated:
        return None
    return Team.objects.filter(competition=competition, members=user).first()


def organized_competitions(*, user) -> QuerySet[Competition]:
    """The competitions ``user`` may organize: the one rule every organizer screen applies.

    Superusers run the platform and organize everything; any other account only the
    competitions that list it among their organizers (being staff grants nothing more).
    """
    if not user.is_authenticated or not user.is_active:
        return Competition.objects.none()
    if user.is_superuser:
        return Competition.objects.all()
    return Competition.objects.filter(organizers=user)


def user_is_organizer(*, user, competition: Competition) -> bool:
    return organized_competitions(user=user).filter(pk=competition.pk).exists()


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
