"""Creating teams and adding accounts to them."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import transaction

from pwscup.accounts.models import Membership, Team
from pwscup.competitions.models import Competition

ORGANIZER_GROUP = "Organizers"
# What an organizer does in the admin, on the competitions that list them as organizers:
# run rounds and teams; look at (and rescore) what the platform made. Competitions and
# their organizers are created by a superuser.
ORGANIZER_PERMISSIONS = {
    "competitions": {
        "competition": ("view", "change"),
        "round": ("view", "add", "change", "delete"),
        "phase": ("view", "add", "change", "delete"),
    },
    "accounts": {
        "team": ("view", "add", "change", "delete"),
        "membership": ("view", "add", "change", "delete"),
    },
    "submissions": {
        "anonymizationsubmission": ("view", "change"),
        "attacksubmission": ("view",),
        "target": ("view",),
        "teamdataset": ("view",),
    },
}


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


def user_get_or_create(*, username: str, password: str, is_staff: bool = False):
    """``(user, created)``: an existing account is returned untouched (password, flags)."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is not None:
        return user, False
    return user_model.objects.create_user(
        username=username, password=password, is_staff=is_staff
    ), True


@transaction.atomic
def organizer_group_ensure() -> Group:
    """The group holding ``ORGANIZER_PERMISSIONS`` (created, or brought up to date)."""
    group, _ = Group.objects.get_or_create(name=ORGANIZER_GROUP)
    wanted = [
        (app, f"{action}_{model}")
        for app, models in ORGANIZER_PERMISSIONS.items()
        for model, actions in models.items()
        for action in actions
    ]
    permissions = list(
        Permission.objects.filter(
            content_type__app_label__in=ORGANIZER_PERMISSIONS,
            codename__in=[codename for _app, codename in wanted],
        ).select_related("content_type")
    )
    found = {(p.content_type.app_label, p.codename) for p in permissions}
    missing = sorted(set(wanted) - found)
    if missing:
        raise LookupError(f"Permissions missing (run migrate first): {missing}")
    group.permissions.set(permissions)
    return group


@transaction.atomic
def organizer_grant(*, user, competition: Competition) -> None:
    """Make ``user`` an organizer of ``competition``: staff, in the organizers' group."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.groups.add(organizer_group_ensure())
    competition.organizers.add(user)
