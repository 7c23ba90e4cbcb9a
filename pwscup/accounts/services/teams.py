"""Teams: names and slugs, registering and joining a team, the captain's actions, members."""

from django.db import IntegrityError, transaction
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
from pwscup.core.row_locks import team_row_lock
from pwscup.kinds import kind_of

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
        teams = Team.objects.select_related("competition")
        if competition_slug is not None:
            teams = teams.filter(competition__slug=competition_slug)
        team = team_row_lock(teams.filter(invitation_code=code)) if code else None
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
    ``by=None`` is an organizer, who may remove anyone (the captaincy then passes on). The
    team's invitation code is renewed: the link the removed member knew no longer joins it
    (the members left see the new link on their team page). The team's row is waited for no
    longer than an upload waits (``team_row_lock``), by the organizer too."""
    team = team_row_lock(Team.objects.filter(pk=team.pk), own=by is not None)
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
    team.invitation_code = new_invitation_code()
    if team.captain_id == member.pk:
        successor = team.memberships.order_by("joined_at", "pk").first()
        team.captain = successor.user if successor else None
    team.save(update_fields=["captain", "invitation_code"])


@transaction.atomic
def team_invitation_renew(*, team: Team, by) -> str:
    """A new invitation code (the old one stops working); captain only, or ``by=None``
    for an organizer."""
    team = team_row_lock(Team.objects.filter(pk=team.pk))
    if by is not None:
        _check_captain(team=team, user=by)
    team.invitation_code = new_invitation_code()
    team.save(update_fields=["invitation_code"])
    return team.invitation_code


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
