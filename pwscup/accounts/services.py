"""Accounts and teams: sign-up, registering and joining a team, the captain's actions."""

import logging

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pwscup.accounts.models import Membership, Team, new_invitation_code
from pwscup.accounts.names import (
    characters_named,
    hidden_characters,
    look_alike_characters,
    name_normal,
    name_skeleton,
)
from pwscup.competitions.models import Competition
from pwscup.core.errors import Refused
from pwscup.kinds import all_kinds, kind_of

log = logging.getLogger(__name__)

ORGANIZER_GROUP = "Organizers"
# What an organizer does in the admin with the core's models, on the competitions that list
# them as organizers: run rounds and teams. Competitions and their organizers are created by
# a superuser. Each kind adds its own models (``RoundKind.organizer_permissions``).
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
}


def organizer_permissions() -> dict[str, dict[str, tuple[str, ...]]]:
    """``{app label: {model name: actions}}``: the core's ``ORGANIZER_PERMISSIONS`` and
    every registered kind's ``organizer_permissions()``."""
    wanted = {app: dict(models) for app, models in ORGANIZER_PERMISSIONS.items()}
    for kind in all_kinds():
        for model, actions in kind.organizer_permissions().items():
            meta = model._meta
            wanted.setdefault(meta.app_label, {})[meta.model_name] = tuple(actions)
    return wanted


SLUG_MAX_LENGTH = 40


def team_slug_generate(*, competition: Competition, name: str) -> str:
    """A file-name prefix for a new team: ASCII letters, digits and hyphens, unique in the
    competition (``team-2``…). A name with no ASCII letter (日本語チーム) gives ``team``."""
    base = slugify(name).replace("_", "-").strip("-")[:SLUG_MAX_LENGTH].strip("-") or "team"
    taken = set(
        Team.objects.filter(competition=competition, slug__startswith=base).values_list(
            "slug", flat=True
        )
    )
    slug, number = base, 1
    while slug in taken:
        number += 1
        slug = f"{base[: SLUG_MAX_LENGTH - len(str(number)) - 1]}-{number}"
    return slug


TEAM_NAME_MAX_LENGTH = Team._meta.get_field("name").max_length


def team_name_check(*, competition: Competition, name: str, team: Team | None = None) -> str:
    """The one rule for a team's name; returns the name to store (``names.name_normal``).

    Every entry point calls it: registering on the site (``team_create``), the console's
    rename, the admin's form for a new team, ``load_demo``. A name is refused when it is
    empty, longer than the column, holds an invisible or control character
    (``names.hidden_characters``: zero-width, bidirectional and other format characters), or
    is the same as another team's name of ``competition`` once folded (``names.name_skeleton``:
    case, full-width forms and Cyrillic or Greek look-alikes of Latin letters); ``team`` is
    the team being renamed, not compared with itself. The caller holds the competition's row
    lock when two requests could race (``team_create``, ``console_team_rename``)."""
    hidden = hidden_characters(name_normal(name))
    if hidden:
        raise Refused(
            _("A team name cannot hold invisible or control characters (here: %(chars)s).")
            % {"chars": characters_named(hidden)}
        )
    name = name_normal(name)
    if not name:
        raise Refused(_("Give the team a name."))
    if len(name) > TEAM_NAME_MAX_LENGTH:
        raise Refused(
            _("A team name has at most %(limit)s characters.") % {"limit": TEAM_NAME_MAX_LENGTH}
        )
    skeleton = name_skeleton(name)
    others = Team.objects.filter(competition=competition)
    if team is not None:
        others = others.exclude(pk=team.pk)
    for other in others.values_list("name", flat=True):
        if name_skeleton(other) != skeleton:
            continue
        if other.casefold() == name.casefold():
            raise Refused(_("A team named “%(name)s” already exists.") % {"name": name})
        look_alikes = look_alike_characters(name)
        if look_alikes:
            raise Refused(
                _(
                    "“%(name)s” reads as “%(other)s”, the name of another team of this "
                    "competition: it holds letters of another alphabet that look like Latin "
                    "ones (%(chars)s). Type the name with Latin letters only, or choose "
                    "another name."
                )
                % {"name": name, "other": other, "chars": characters_named(look_alikes)}
            )
        raise Refused(
            _(
                "“%(name)s” looks like the name of team “%(other)s” of this competition: "
                "choose a name that reads differently."
            )
            % {"name": name, "other": other}
        )
    return name


def team_create(
    *, competition: Competition, name: str, slug: str | None = None, captain=None
) -> Team:
    """A new team. With a ``captain`` it is a participant registering: the competition's
    registration must be open and the captain in no other team of it; the captain becomes
    its first member, and the team gets its sample in every per-team round.
    Without one it is an organizer's team (no rule but the database's)."""
    with transaction.atomic():
        # One registration at a time per competition: names, slugs and the lock are read
        # and written without a race.
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        if captain is not None:
            _check_registration_open(competition=competition)
            _check_not_in_a_team(competition=competition, user=captain)
        name = team_name_check(competition=competition, name=name)
        slug = slug or team_slug_generate(competition=competition, name=name)
        team = Team.objects.create(competition=competition, name=name, slug=slug, captain=captain)
        if captain is not None:
            try:
                with transaction.atomic():
                    Membership.objects.create(team=team, user=captain, competition=competition)
            except IntegrityError:
                raise Refused(
                    _("You are already in a team of this competition."), status=409
                ) from None
    if captain is not None:
        _team_samples_draw(team=team)
    return team


def _check_registration_open(*, competition: Competition) -> None:
    if competition.registration_locked:
        raise Refused(
            _(
                "Registration for %(competition)s is closed: teams can no longer be created or joined."
            )
            % {"competition": competition.name},
            status=403,
        )


def _check_not_in_a_team(*, competition: Competition, user) -> None:
    team = Team.objects.filter(competition=competition, members=user).first()
    if team is not None:
        raise Refused(
            _("You are already in team %(team)s of this competition.") % {"team": team.name},
            status=409,
        )


def _team_samples_draw(*, team: Team) -> None:
    """Tell every round's kind that the competition's teams changed (a kind that gives each
    team its own data draws it for the new team)."""
    for round_ in team.competition.rounds.all():
        kind_of(round_).teams_changed(round_)


def team_join(*, code: str, user, competition_slug: str | None = None) -> Team:
    """Join the team whose invitation code this is, within the competition's rules:
    registration open, one team per account, at most ``max_team_size`` members.
    With ``competition_slug`` the code must be one of that competition's."""
    code = code.strip()
    with transaction.atomic():
        teams = Team.objects.select_for_update(of=("self",)).select_related("competition")
        if competition_slug is not None:
            teams = teams.filter(competition__slug=competition_slug)
        team = teams.filter(invitation_code=code).first() if code else None
        if team is None:
            raise Refused(
                _(
                    "This invitation code is not valid (any more): ask your captain for the current one."
                ),
                status=404,
            )
        _check_registration_open(competition=team.competition)
        _check_not_in_a_team(competition=team.competition, user=user)
        size = team.memberships.count()
        if size >= team.competition.max_team_size:
            raise Refused(
                ngettext(
                    "Team %(team)s is full: a team has at most %(count)d member.",
                    "Team %(team)s is full: a team has at most %(count)d members.",
                    team.competition.max_team_size,
                )
                % {"team": team.name, "count": team.competition.max_team_size},
                status=409,
            )
        try:
            with transaction.atomic():
                Membership.objects.create(team=team, user=user, competition=team.competition)
        except IntegrityError:
            # Another request put the account in a team of this competition meanwhile.
            raise Refused(_("You are already in a team of this competition."), status=409) from None
        if team.captain_id is None:
            team.captain = user
            team.save(update_fields=["captain"])
    return team


def _check_captain(*, team: Team, user) -> None:
    if team.captain_id != user.pk:
        raise Refused(_("Only the team's captain can do this."), status=403)


@transaction.atomic
def team_member_remove(*, team: Team, member, by) -> None:
    """The captain (``by``) removes ``member``; the captain cannot remove themselves.
    ``by=None`` is an organizer, who may remove anyone (the captaincy then passes on)."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    if by is not None:
        _check_captain(team=team, user=by)
        if member.pk == by.pk:
            raise Refused(_("The captain cannot remove themselves from the team."))
    deleted, _rows = Membership.objects.filter(team=team, user=member).delete()
    if not deleted:
        raise Refused(
            _("%(user)s is not a member of team %(team)s.")
            % {"user": member.get_username(), "team": team.name},
            status=404,
        )
    if team.captain_id == member.pk:
        successor = team.memberships.order_by("joined_at", "pk").first()
        team.captain = successor.user if successor else None
        team.save(update_fields=["captain"])


@transaction.atomic
def team_invitation_renew(*, team: Team, by) -> str:
    """A new invitation code (the old one stops working); captain only, or ``by=None``
    for an organizer."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    if by is not None:
        _check_captain(team=team, user=by)
    team.invitation_code = new_invitation_code()
    team.save(update_fields=["invitation_code"])
    return team.invitation_code


def user_name_validate(*, username: str) -> None:
    """A new user name's rules beyond the user model's, raising ``ValidationError``.

    ASCII letters, digits and ``@.+-_`` only: a look-alike (``оrganizer`` with a Cyrillic
    ``о``) cannot pass for another account. User names are log-in identifiers typed in forms and
    commands; what others see of a participant is the team name, which may be in any script.
    And unique whatever the case: ``Organizer`` is taken when ``organizer`` is.
    """
    ASCIIUsernameValidator()(username)
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise ValidationError(_("A user with that username already exists."), code="unique")


def user_sign_up(*, username: str, email: str, password: str, password_reset_url: str):
    """A participant's own account (no staff rights).

    The answer never tells whether the e-mail address is registered: an address already in use
    gets the account all the same (the user name is the identity, not the address), and its
    owner an e-mail saying so, with ``password_reset_url`` in case they forgot they had one.
    """
    user_name_validate(username=username)
    user_model = get_user_model()
    password_validation.validate_password(password, user_model(username=username, email=email))
    owners = list(
        user_model.objects.filter(email__iexact=email, is_active=True).values_list(
            "username", flat=True
        )
    )
    user = user_model.objects.create_user(username=username, email=email, password=password)
    if owners:
        _sign_up_notice_send(
            email=email, new_username=username, owners=owners, password_reset_url=password_reset_url
        )
    return user


def _sign_up_notice_send(
    *, email: str, new_username: str, owners: list[str], password_reset_url: str
) -> None:
    context = {
        "new_username": new_username,
        "owners": ", ".join(owners),
        "password_reset_url": password_reset_url,
    }
    subject = " ".join(
        render_to_string("registration/signup_email_in_use_subject.txt", context).split()
    )
    body = render_to_string("registration/signup_email_in_use.txt", context)
    try:
        send_mail(subject, body, None, [email])
    except Exception:  # noqa: BLE001 - a mail server down must not fail the sign-up
        log.exception("sending the e-mail-in-use notice failed")


@transaction.atomic
def user_password_set(*, user, password: str):
    """Give ``user`` a new password (reset by e-mail or changed on the site): whoever held the
    old password, or a token made with it, is out.

    Nothing to do here for that, as for a password set in the admin or by
    ``changepassword``: Django checks each session against a hash of the password on every
    request (the page that made the change keeps its session by
    ``update_session_auth_hash``), and an API token carries such a hash too
    (``pwscup.api.models.password_binding``)."""
    user.set_password(password)
    user.save(update_fields=["password"])
    return user


@transaction.atomic
def membership_add(*, team: Team, user) -> Membership:
    membership, _created = Membership.objects.get_or_create(
        team=team, user=user, defaults={"competition": team.competition}
    )
    if team.captain_id is None:
        # An organizer's team: its first member is the captain.
        Team.objects.filter(pk=team.pk, captain__isnull=True).update(captain=user)
        team.refresh_from_db(fields=["captain"])
    return membership


def user_create(*, username: str, password: str, email: str = "", is_staff: bool = False):
    user_model = get_user_model()
    user, _ = user_model.objects.get_or_create(username=username, defaults={"email": email})
    user.set_password(password)
    user.is_staff = is_staff
    user.save()
    return user


def user_get_or_create(
    *, username: str, password: str, is_staff: bool = False, is_superuser: bool = False
):
    """``(user, created)``: an existing account is returned untouched (password, flags). A
    superuser is made staff too (the admin lets in staff only)."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is not None:
        return user, False
    return user_model.objects.create_user(
        username=username,
        password=password,
        is_staff=is_staff or is_superuser,
        is_superuser=is_superuser,
    ), True


@transaction.atomic
def organizer_group_ensure() -> Group:
    """The group holding ``organizer_permissions()`` (created, or brought up to date)."""
    group, _ = Group.objects.get_or_create(name=ORGANIZER_GROUP)
    by_app = organizer_permissions()
    wanted = [
        (app, f"{action}_{model}")
        for app, models in by_app.items()
        for model, actions in models.items()
        for action in actions
    ]
    permissions = list(
        Permission.objects.filter(
            content_type__app_label__in=by_app,
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
