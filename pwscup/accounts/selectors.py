"""Who is who in a competition."""

from pwscup.accounts.models import Team
from pwscup.competitions.models import Competition


def team_for_user(*, user, competition: Competition) -> Team | None:
    if not user.is_authenticated:
        return None
    return Team.objects.filter(competition=competition, members=user).first()


def user_is_organizer(*, user, competition: Competition) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return competition.organizers.filter(pk=user.pk).exists()


def competitions_for_user(*, user):
    """Competitions the user takes part in or organizes, plus the listed ones."""
    qs = Competition.objects.filter(is_listed=True)
    if user.is_authenticated:
        qs = qs | Competition.objects.filter(teams__members=user)
        qs = qs | Competition.objects.filter(organizers=user)
        if user.is_superuser:
            qs = Competition.objects.all()
    return qs.distinct().order_by("-created_at")
