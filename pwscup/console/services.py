"""What the organizer console writes; every action leaves an entry in the audit log.

The round operations (freeze, rescore, publish, samples) are the platform's services; this
module adds who asked, and records it.
"""

from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.accounts.models import Membership, Team
from pwscup.accounts.services import team_member_remove
from pwscup.competitions.models import Competition, Round
from pwscup.competitions.ranking_cache import ranking_invalidate
from pwscup.competitions.services import (
    competition_create,
    competition_organizers_add,
    phase_set,
    round_create,
    round_phases_close,
    round_settings_check,
)
from pwscup.console.models import AuditEntry, TeamDisqualification
from pwscup.console.selectors import user_by_name_or_email
from pwscup.submissions.models import RoundOperation
from pwscup.submissions.services import round_assign_samples
from pwscup.submissions.services.operations import (
    round_freeze_request,
    round_publish_request,
    round_rescore_request,
    round_results_set,
)

Action = AuditEntry.Action


def audit_record(
    *, user, competition: Competition, action: str, round: Round | None = None, **detail
) -> AuditEntry:
    """Keep one organizer action; ``detail`` holds plain words and numbers only."""
    return AuditEntry.objects.create(
        competition=competition, round=round, user=user, action=action, detail=detail
    )


def _competition_rounds(competition: Competition) -> list[int]:
    return list(competition.rounds.values_list("pk", flat=True))


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


def competition_creator_set(*, identifier: str, allowed: bool):
    """Grant (``allowed``) or revoke the right to create competitions of the account named
    by ``identifier`` (username or e-mail); returns the account."""
    account = user_by_name_or_email(identifier=identifier)
    if account is None:
        raise ValidationError(
            {
                "identifier": _("No single account has the username or e-mail %(value)s.")
                % {"value": repr(identifier.strip())[:80]}
            }
        )
    if allowed:
        competition_creator_grant(user=account)
    else:
        competition_creator_revoke(user=account)
    return account


@transaction.atomic
def console_competition_create(
    *, user, name: str, slug: str, description: str = "", is_listed: bool = True
) -> Competition:
    """A new competition organized by its creator (``competition_create`` checks the
    address with ``slug_check``)."""
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
        raise ValidationError(
            {
                "identifier": _("No single account has the username or e-mail %(value)s.")
                % {"value": repr(identifier.strip())[:80]}
            }
        )
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


def round_phases_set(*, round: Round, phases: dict) -> None:
    """``phases``: kind → dict of ``phase_set``'s keyword arguments (windows, limits, …)."""
    for kind, values in phases.items():
        phase_set(round=round, kind=kind, **values)


@transaction.atomic
def console_round_create(
    *,
    user,
    competition: Competition,
    original: bytes,
    original_filename: str,
    config: dict,
    data: dict,
    phases: dict,
    rules: dict,
    name: str,
    slug: str,
    timezone: str,
    allow_attack_before_close: bool = False,
) -> Round:
    """Create a round with both phases from the wizard's answers (checked once more here)."""
    round_settings_check(
        slug=slug,
        competition=competition,
        timezone=timezone,
        utility_gates=rules["utility_gates"],
        tie_break_metric=rules["tie_break_metric"],
        data_mode=data["data_mode"],
        sample_size=data.get("sample_size"),
        phases={kind: (v["opens_at"], v["closes_at"]) for kind, v in phases.items()},
        allow_attack_before_close=allow_attack_before_close,
    )
    round_ = round_create(
        competition=competition,
        name=name,
        slug=slug,
        original=original,
        original_filename=original_filename,
        config_raw=config,
        timezone=timezone,
        order=competition.rounds.count() + 1,
        **data,
        **rules,
    )
    round_phases_set(round=round_, phases=phases)
    round_assign_samples(round=round_)
    audit_record(
        user=user,
        competition=competition,
        round=round_,
        action=Action.ROUND_CREATED,
        name=round_.name,
        rows=round_.original_rows,
    )
    return round_


@transaction.atomic
def console_round_update(
    *, user, round: Round, values: dict, phases: dict, config: dict | None = None
) -> list[str]:
    """Apply an edit of a round (settings, phases, and the configuration when given).

    Returns the changed field names (recorded in the audit log). ``config`` is the checked
    configuration (``round_data_check``): the caller offers "Rescore everything" then.
    """
    changed = [field for field, value in values.items() if getattr(round, field) != value]
    for field in changed:
        setattr(round, field, values[field])
    if config is not None and config != round.config:
        round.config = config
        changed.append("config")
    if changed:
        round.save(update_fields=changed)
    for kind, wanted in phases.items():
        phase = round.phases.filter(kind=kind).first()
        if phase is None or any(getattr(phase, k) != v for k, v in wanted.items()):
            changed.append(f"{kind}_phase")
    round_phases_set(round=round, phases=phases)
    if changed:
        audit_record(
            user=user,
            competition=round.competition,
            round=round,
            action=Action.ROUND_EDITED,
            fields=changed,
        )
        ranking_invalidate(round_ids=[round.pk])
    return changed


def console_round_freeze(*, user, round: Round) -> RoundOperation:
    """Ask for a freeze (a background operation); its progress shows on the control page."""
    operation = round_freeze_request(round=round, requested_by=user)
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=Action.ROUND_FROZEN,
        operation=operation.pk,
    )
    return operation


def console_round_rescore(*, user, round: Round) -> RoundOperation:
    operation = round_rescore_request(round=round, requested_by=user)
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=Action.ROUND_RESCORED,
        operation=operation.pk,
    )
    return operation


def console_round_publish(*, user, round: Round) -> RoundOperation:
    operation = round_publish_request(round=round, requested_by=user)
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=Action.RESULTS_PUBLISHED,
        operation=operation.pk,
    )
    return operation


@transaction.atomic
def console_round_phases_close(*, user, round: Round) -> int:
    """*Close now*: every phase still open closes (the round's lifecycle service)."""
    closed = round_phases_close(round=round)
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=Action.PHASES_CLOSED,
        phases=closed,
    )
    ranking_invalidate(round_ids=[round.pk])
    return closed


@transaction.atomic
def console_round_hide_results(*, user, round: Round) -> None:
    round_results_set(round=round, published=False)
    audit_record(
        user=user, competition=round.competition, round=round, action=Action.RESULTS_HIDDEN
    )
    ranking_invalidate(round_ids=[round.pk])


def console_round_draw_samples(*, user, round: Round) -> int:
    created = round_assign_samples(round=round)
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=Action.SAMPLES_DRAWN,
        samples=len(created),
    )
    return len(created)


def archive_downloaded_record(*, user, round: Round) -> None:
    audit_record(
        user=user, competition=round.competition, round=round, action=Action.ARCHIVE_DOWNLOADED
    )


# --- Teams -------------------------------------------------------------------------------


@transaction.atomic
def console_team_rename(*, user, team: Team, name: str) -> None:
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("A team needs a name.")})
    if Team.objects.filter(competition=team.competition, name=name).exclude(pk=team.pk).exists():
        raise ValidationError(
            {"name": _("Another team of this competition is named %(name)s.") % {"name": name}}
        )
    old = team.name
    if old == name:
        return
    Team.objects.filter(pk=team.pk).update(name=name)
    team.name = name
    audit_record(
        user=user, competition=team.competition, action=Action.TEAM_RENAMED, old=old, new=name
    )
    ranking_invalidate(round_ids=_competition_rounds(team.competition))


@transaction.atomic
def console_team_disqualify(*, user, team: Team, reason: str) -> TeamDisqualification:
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Give the reason: the team is told why.")})
    disqualification, _created = TeamDisqualification.objects.update_or_create(
        team=team, defaults={"reason": reason, "decided_by": user}
    )
    audit_record(
        user=user,
        competition=team.competition,
        action=Action.TEAM_DISQUALIFIED,
        team=team.name,
        reason=reason,
    )
    ranking_invalidate(round_ids=_competition_rounds(team.competition))
    return disqualification


@transaction.atomic
def console_team_reinstate(*, user, team: Team) -> None:
    deleted, _rows = TeamDisqualification.objects.filter(team=team).delete()
    if deleted:
        audit_record(
            user=user, competition=team.competition, action=Action.TEAM_REINSTATED, team=team.name
        )
        ranking_invalidate(round_ids=_competition_rounds(team.competition))


@transaction.atomic
def console_member_remove(*, user, team: Team, member_id: int) -> None:
    """An organizer removes a member (the captaincy passes on, as ``team_member_remove`` does)."""
    membership = Membership.objects.filter(team=team, user_id=member_id).select_related("user")
    found = membership.first()
    if found is None:
        raise ValidationError(_("This account is not a member of the team."))
    team_member_remove(team=team, member=found.user, by=None)
    audit_record(
        user=user,
        competition=team.competition,
        action=Action.MEMBER_REMOVED,
        team=team.name,
        member=found.user.username,
    )
