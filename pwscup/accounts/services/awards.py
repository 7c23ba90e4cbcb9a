"""Judged awards: the prizes the organizers give teams beside the computed rankings.

Every entry point (the console today) calls these; each checks what it is given, writes,
bumps the ranking version of the rounds whose results pages show the award (their cached
parts and the pages' ETags then change with the commit) and leaves a line in the audit log.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.accounts.models import AWARD_NAME_MAX_LENGTH, Award, Team
from pwscup.competitions.models import AuditEntry, Competition, Round
from pwscup.competitions.services import ranking_version_bump, scoped_audit_record
from pwscup.core.text_limits import REASON_MAX_LENGTH, text_length_check

AWARD_ORDER_MAX = 32_767  # the column's bound (a PositiveSmallIntegerField)


def _award_fields_check(
    *,
    competition: Competition,
    team: Team,
    name_en: str,
    name_ja: str,
    citation: str = "",
    round: Round | None = None,
    order: int = 0,
) -> dict:
    """The award's fields cleaned (names and citation stripped), or ``ValidationError``
    keyed by field with every problem found. ``round`` ``None``: for the whole competition."""
    name_en, name_ja, citation = (name_en or "").strip(), (name_ja or "").strip(), citation or ""
    citation = citation.strip()
    errors: dict[str, str] = {}
    if team is None or team.competition_id != competition.pk:
        errors["team"] = _("Choose a team of this competition.")
    if round is not None and round.competition_id != competition.pk:
        errors["round"] = _(
            "Choose a round of this competition, or none for the whole competition."
        )
    for field, value, label in (
        ("name_en", name_en, _("The English name")),
        ("name_ja", name_ja, _("The Japanese name")),
    ):
        if not value:
            errors[field] = _("Give the award a name in English and in Japanese.")
        else:
            try:
                text_length_check(
                    field=field, label=label, value=value, max_length=AWARD_NAME_MAX_LENGTH
                )
            except ValidationError as error:
                errors.update({key: messages[0] for key, messages in error.message_dict.items()})
    try:
        text_length_check(
            field="citation", label=_("The citation"), value=citation, max_length=REASON_MAX_LENGTH
        )
    except ValidationError as error:
        errors.update({key: messages[0] for key, messages in error.message_dict.items()})
    if not isinstance(order, int) or not 0 <= order <= AWARD_ORDER_MAX:
        errors["order"] = _("The order is a whole number from 0 to %(max)s.") % {
            "max": AWARD_ORDER_MAX
        }
    if errors:
        raise ValidationError(errors)
    return {
        "team": team,
        "round": round,
        "name_en": name_en,
        "name_ja": name_ja,
        "citation": citation,
        "order": order,
    }


def _rounds_shown_changed(*rounds: Round | None) -> None:
    """The results pages of these rounds show their awards: a new ranking version for each
    (their cached awards and their pages' ETags are keyed by it)."""
    round_ids = sorted({round.pk for round in rounds if round is not None})
    if round_ids:
        ranking_version_bump(round_ids=round_ids)


def _award_audit(*, user, award: Award, action, **detail) -> None:
    """The audit log's entry of an action on ``award`` (its round's, or the competition's)."""
    scoped_audit_record(
        award, user=user, action=action, award=award.name_en, team=award.team.name, **detail
    )


@transaction.atomic
def award_create(*, user, competition: Competition, **answers) -> Award:
    """Record an award of ``competition``, shown at once; ``answers``: its team, names,
    citation, round and order, as ``_award_fields_check`` takes them."""
    fields = _award_fields_check(competition=competition, **answers)
    _rounds_shown_changed(fields["round"])
    award = Award.objects.create(competition=competition, created_by=user, **fields)
    _award_audit(user=user, award=award, action=AuditEntry.Action.AWARD_RECORDED)
    return award


@transaction.atomic
def award_update(*, user, award: Award, **answers) -> bool:
    """Change an award (``answers``: as for ``award_create``); ``False`` (and no audit line)
    when nothing changed."""
    fields = _award_fields_check(competition=award.competition, **answers)
    changed = [name for name, value in fields.items() if getattr(award, name) != value]
    if not changed:
        return False
    _rounds_shown_changed(award.round, fields["round"])
    for name, value in fields.items():
        setattr(award, name, value)
    award.save(update_fields=changed)
    _award_audit(user=user, award=award, action=AuditEntry.Action.AWARD_EDITED, changed=changed)
    return True


@transaction.atomic
def award_delete(*, user, award: Award) -> None:
    """Remove an award from every page (the archives already published keep it)."""
    _rounds_shown_changed(award.round)
    _award_audit(user=user, award=award, action=AuditEntry.Action.AWARD_REMOVED)
    award.delete()
