"""What the organizer console writes (competitions, creators, organizers, teams); every action
leaves an entry in the audit log."""

from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.accounts.models import Membership, Team, TeamDisqualification
from pwscup.accounts.services import team_member_remove, team_name_check
from pwscup.competitions.models import AuditEntry, Competition
from pwscup.competitions.selectors import may_create_competitions
from pwscup.competitions.services import (
    audit_record,
    competition_create,
    competition_organizers_add,
)
from pwscup.console.selectors import (
    USER_NAME_PREFIX,
    may_manage_creators,
    user_by_name_or_email,
)
from pwscup.core.errors import Refused
from pwscup.core.row_locks import team_row_lock
from pwscup.core.text_limits import (
    DESCRIPTION_MAX_LENGTH,
    REASON_MAX_LENGTH,
    text_length_check,
)
from pwscup.kinds import kind_of

Action = AuditEntry.Action


def _teams_standing_changed(competition: Competition) -> None:
    """Tell every round's kind that a team was disqualified, reinstated or renamed (each
    drops the rankings it keeps; ``RoundKind.teams_standing_changed``)."""
    for round_ in competition.rounds.all():
        kind_of(round_).teams_standing_changed(round_)


# --- Competitions ------------------------------------------------------------------------


def _add_competition_permission() -> Permission:
    return Permission.objects.get(
        content_type__app_label="competitions", codename="add_competition"
    )


def competition_creator_grant(*, user) -> None:
    """Let ``user`` create competitions (``competitions.add_competition``); nothing more.
    The console's *Who may create competitions* page and ``allow_competitions`` call it."""
    user.user_permissions.add(_add_competition_permission())


def competition_creator_revoke(*, user) -> None:
    """Take back what ``competition_creator_grant`` gave; the competitions ``user``
    organizes stay theirs. A superuser keeps every right."""
    user.user_permissions.remove(_add_competition_permission())


def creators_refused_message() -> str:
    return _(
        "Only a superuser of this site decides who may create competitions: ask one of the "
        "site's administrators if an account needs the right."
    )


def console_refused_message() -> str:
    """Why an account that organizes nothing and may not create competitions cannot open the
    console, and who changes that."""
    return _(
        "This account organizes no competition and may not create one yet. The right to "
        "create competitions is granted by a site administrator (a superuser of this site) "
        "on the console page “Who may create competitions”: ask one of them. To help run an "
        "existing competition, ask its organizers to invite you. The organizers' guide "
        "(docs/organizers.md, step 1) describes both."
    )


def no_account_message(*, identifier: str) -> str:
    """Why ``user_by_name_or_email`` found no account for ``identifier``, in the terms it
    was read in: an input holding ``@`` was an e-mail address (and a user name holding
    ``@`` is written ``user:NAME``)."""
    identifier = identifier.strip()
    shown = identifier[:80]
    if identifier[: len(USER_NAME_PREFIX)].lower() == USER_NAME_PREFIX:
        return _("No active account has the user name “%(value)s”.") % {
            "value": identifier[len(USER_NAME_PREFIX) :].strip()[:80]
        }
    if "@" in identifier:
        return _(
            "No single active account has the e-mail address “%(value)s”. If this is a user "
            "name holding @, write it as user:%(value)s."
        ) % {"value": shown}
    return _("No active account has the user name “%(value)s”.") % {"value": shown}


def competition_creator_set(*, user, identifier: str, allowed: bool):
    """``user`` (a superuser: ``may_manage_creators``) grants (``allowed``) or revokes the
    right to create competitions of the account named by ``identifier``
    (``user_by_name_or_email``); returns the account. The shell's ``allow_competitions``
    calls the grant and revoke below directly: whoever runs it holds the server."""
    if not may_manage_creators(user=user):
        raise PermissionDenied(creators_refused_message())
    account = user_by_name_or_email(identifier=identifier)
    if account is None:
        raise ValidationError({"identifier": no_account_message(identifier=identifier)})
    if allowed:
        competition_creator_grant(user=account)
    else:
        competition_creator_revoke(user=account)
    return account


@transaction.atomic
def console_competition_create(
    *, user, name: str, slug: str, description: str = "", is_listed: bool = True
) -> Competition:
    """A new competition organized by its creator, who needs the right to create
    competitions (``PermissionDenied`` without it, whoever calls); ``competition_create``
    checks the address with ``slug_check``."""
    if not may_create_competitions(user=user):
        raise PermissionDenied(console_refused_message())
    competition = competition_create(
        name=name, slug=slug, description=description, organizers=[user]
    )
    if not is_listed:
        Competition.objects.filter(pk=competition.pk).update(is_listed=False)
        competition.is_listed = False
    audit_record(user=user, competition=competition, action=Action.COMPETITION_CREATED, name=name)
    return competition


EDITABLE_COMPETITION_FIELDS = (
    "name",
    "description",
    "is_listed",
    "max_team_size",
    "registration_locked",
)


@transaction.atomic
def console_competition_update(*, user, competition: Competition, **values) -> list[str]:
    """Change the given fields; returns (and records) the names of those that changed."""
    text_length_check(
        field="description",
        label=_("The description"),
        value=values.get("description"),
        max_length=DESCRIPTION_MAX_LENGTH,
    )
    changed = []
    for field in EDITABLE_COMPETITION_FIELDS:
        if field in values and getattr(competition, field) != values[field]:
            setattr(competition, field, values[field])
            changed.append(field)
    if changed:
        competition.save(update_fields=changed)
        audit_record(
            user=user, competition=competition, action=Action.COMPETITION_EDITED, fields=changed
        )
    return changed


@transaction.atomic
def organizer_invite(*, user, competition: Competition, identifier: str):
    """Make the account named by ``identifier`` (username or e-mail) a co-organizer."""
    invited = user_by_name_or_email(identifier=identifier)
    if invited is None:
        raise ValidationError({"identifier": no_account_message(identifier=identifier)})
    if competition.organizers.filter(pk=invited.pk).exists():
        raise ValidationError(
            {"identifier": _("%(user)s already organizes this competition.") % {"user": invited}}
        )
    competition_organizers_add(competition=competition, users=[invited])
    audit_record(
        user=user,
        competition=competition,
        action=Action.ORGANIZER_ADDED,
        organizer=invited.username,
    )
    return invited


# --- Rounds ------------------------------------------------------------------------------


def _team_audit(*, user, team: Team, action, **detail) -> None:
    """The audit log's entry of an action on ``team``: its competition's, naming the team."""
    audit_record(user=user, competition=team.competition, action=action, team=team.name, **detail)


@transaction.atomic
def console_team_rename(*, user, team: Team, name: str) -> None:
    # One name change at a time per competition (``team_name_check`` reads the others).
    Competition.objects.select_for_update().get(pk=team.competition_id)
    try:
        name = team_name_check(competition=team.competition, name=name, team=team)
    except Refused as refusal:
        raise ValidationError({"name": refusal.message}) from None
    old = team.name
    if old == name:
        return
    Team.objects.filter(pk=team.pk).update(name=name)
    team.name = name
    audit_record(
        user=user, competition=team.competition, action=Action.TEAM_RENAMED, old=old, new=name
    )
    _teams_standing_changed(team.competition)


@transaction.atomic
def console_team_disqualify(*, user, team: Team, reason: str) -> TeamDisqualification:
    """Take ``team`` out of every ranking of its competition, with ``reason`` (told to its
    members). Refused (``ValidationError``) for a team already disqualified: one decision
    at a time, changed only by reinstating the team first. While an upload of the team holds
    its row, refused (``Refused``, 503: ``team_row_lock``) with nothing changed."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Give the reason: the team is told why.")})
    text_length_check(
        field="reason", label=_("The reason"), value=reason, max_length=REASON_MAX_LENGTH
    )
    # The team's row is locked so that two organizers posting at once make one decision;
    # waited for no longer than an upload waits (an upload of the team may hold it).
    team_row_lock(Team.objects.filter(pk=team.pk), own=False)
    if TeamDisqualification.objects.filter(team=team).exists():
        raise ValidationError(
            _(
                "%(team)s is already disqualified: nothing was changed. To give another "
                "reason, reinstate the team first, then disqualify it again."
            )
            % {"team": team.name}
        )
    disqualification = TeamDisqualification.objects.create(
        team=team, reason=reason, decided_by=user
    )
    _team_audit(user=user, team=team, action=Action.TEAM_DISQUALIFIED, reason=reason)
    _teams_standing_changed(team.competition)
    return disqualification


@transaction.atomic
def console_team_reinstate(*, user, team: Team) -> None:
    deleted, _rows = TeamDisqualification.objects.filter(team=team).delete()
    if deleted:
        _team_audit(user=user, team=team, action=Action.TEAM_REINSTATED)
        _teams_standing_changed(team.competition)


@transaction.atomic
def console_member_remove(*, user, team: Team, member_id: int) -> None:
    """An organizer removes a member (the captaincy passes on, as ``team_member_remove`` does;
    refused as it is, ``Refused``, while an upload of the team holds its row)."""
    membership = Membership.objects.filter(team=team, user_id=member_id).select_related("user")
    found = membership.first()
    if found is None:
        raise ValidationError(_("This account is not a member of the team."))
    team_member_remove(team=team, member=found.user, by=None)
    _team_audit(user=user, team=team, action=Action.MEMBER_REMOVED, member=found.user.username)
