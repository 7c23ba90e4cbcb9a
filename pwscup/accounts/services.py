"""Creating teams and adding accounts to them."""

from django.contrib.auth import get_user_model
from django.db import transaction

from pwscup.accounts.models import Membership, Team
from pwscup.competitions.models import Competition


def team_create(*, competition: Competition, name: str, slug: str) -> Team:
    return Team.objects.create(competition=competition, name=name, slug=slug)


@transaction.atomic
def membership_add(*, team: Team, user) -> Membership:
    membership, _ = Membership.objects.get_or_create(
        team=team, user=user, defaults={"competition": team.competition}
    )
    return membership


def user_create(*, username: str, password: str, email: str = "", is_staff: bool = False):
    user_model = get_user_model()
    user, _ = user_model.objects.get_or_create(username=username, defaults={"email": email})
    user.set_password(password)
    user.is_staff = is_staff
    user.save()
    return user
