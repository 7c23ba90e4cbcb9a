"""What the organizer console reads: competitions' creators, teams and members (who may use
the console is ``pwscup.competitions.selectors.may_use_console``)."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from pwscup.accounts.models import Membership, Team
from pwscup.competitions.models import Competition
from pwscup.core.time_zones import answer_moment


def console_team(*, competition: Competition, pk: int) -> Team:
    return get_object_or_404(Team, competition=competition, pk=pk)


def console_team_member(*, team: Team, user_id: int):
    """The account ``user_id`` as a member of ``team``, or a 404 when it is not one."""
    return get_object_or_404(
        Membership.objects.select_related("user"), team=team, user_id=user_id
    ).user


def may_manage_creators(*, user) -> bool:
    """Who decides which accounts may create competitions: a superuser, and no one else. The
    right is site-wide, so no competition's organizer (staff or not) holds it."""
    return bool(user.is_authenticated and user.is_active and user.is_superuser)


def competition_creators():
    """The active accounts allowed to create competitions by their own permission, or as
    superusers (a permission given through a group is the admin's business)."""
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(
            Q(is_superuser=True)
            | Q(
                user_permissions__content_type__app_label="competitions",
                user_permissions__codename="add_competition",
            )
        )
        .distinct()
        .order_by("username")
    )


# ``user:NAME`` names an account by its user name even when the name holds an ``@`` (user
# names are ASCII letters, digits and ``@.+-_``, so ``:`` is never part of one).
USER_NAME_PREFIX = "user:"


def user_by_name_or_email(*, identifier: str):
    """The one active account ``identifier`` names (case-insensitive), else ``None``: an
    input holding ``@`` is an e-mail address and matches e-mail addresses only (a user name
    may hold ``@`` too, and must not be taken for one); ``user:NAME`` matches the user name
    NAME only; anything else matches user names only."""
    identifier = identifier.strip()
    if identifier[: len(USER_NAME_PREFIX)].lower() == USER_NAME_PREFIX:
        field, value = "username__iexact", identifier[len(USER_NAME_PREFIX) :].strip()
    elif "@" in identifier:
        field, value = "email__iexact", identifier
    else:
        field, value = "username__iexact", identifier
    if not value:
        return None
    found = list(get_user_model().objects.filter(is_active=True, **{field: value})[:2])
    return found[0] if len(found) == 1 else None


def competition_teams(*, competition: Competition) -> QuerySet[Team]:
    return (
        competition.teams.select_related("disqualification")
        .prefetch_related("memberships__user")
        .order_by("name")
    )


def competition_participants(*, competition: Competition) -> QuerySet[Membership]:
    """Every member of every team, with the account's e-mail: for the organizers only."""
    return (
        Membership.objects.filter(competition=competition)
        .select_related("user", "team")
        .order_by("team__name", "user__username")
    )


PARTICIPANTS_CSV_HEADER = [
    "account",
    "email",
    "team",
    "team_slug",
    "captain",
    "joined_at",
    "status",
]


def participant_rows(*, competition: Competition) -> list[list]:
    """One row per member (``PARTICIPANTS_CSV_HEADER``): the team by the name the rankings'
    CSV files use, ``captain`` yes/no, ``joined_at`` in ISO 8601 with the server's offset, ``status`` ``ranked`` or
    ``disqualified``. For the organizers only (it holds e-mail addresses)."""
    memberships = competition_participants(competition=competition).select_related(
        "team__disqualification"
    )
    return [
        [
            m.user.username,
            m.user.email,
            m.team.name,
            m.team.slug,
            "yes" if m.team.captain_id == m.user_id else "no",
            answer_moment(m.joined_at),
            "disqualified" if _disqualified(m.team) else "ranked",
        ]
        for m in memberships
    ]


def _disqualified(team: Team) -> bool:
    try:
        return team.disqualification is not None
    except ObjectDoesNotExist:
        return False
