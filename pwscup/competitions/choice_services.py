"""Writing a round's data choice: the packs the organizer offers (``choices_set``), a team's
pick (``team_choice_set``), its lock at the team's first upload (``choice_lock``, called by the
core's upload pipeline for every kind) and an organizer's change of a pick
(``organizer_choice_change``, audited)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.competitions.choice_models import CHOICE_KEY_MAX_LENGTH, DataChoice, TeamDataChoice
from pwscup.competitions.choice_selectors import round_choices, team_choice, team_kept
from pwscup.competitions.models import AuditEntry, Round
from pwscup.competitions.services import audit_record
from pwscup.core.errors import Refused
from pwscup.core.row_locks import team_row_lock
from pwscup.kinds.registry import kind_of
from scoring.identifiers import is_identifier

MAX_DATA_CHOICES = 20


def choices_check(rows) -> list[dict]:
    """The rows kept (``{"key", "label", "label_ja"}``, in order; a row with neither key nor
    label is skipped). Raises ``ValidationError`` with every error found, each naming its row
    (``params``: ``row`` from 1 and the ``field`` at fault, for a form to place it)."""
    kept, seen, errors = [], set(), []

    def refuse(field: str, message: str, **params) -> None:
        errors.append(ValidationError(message, params={"field": field, **params}))

    for number, row in enumerate(rows, start=1):
        key = (row.get("key") or "").strip()
        label = (row.get("label") or "").strip()
        label_ja = (row.get("label_ja") or "").strip()
        if not key and not label and not label_ja:
            continue
        if not key or len(key) > CHOICE_KEY_MAX_LENGTH or not is_identifier(key):
            message = _(
                "Row %(row)d: the key must be 1 to %(max)d letters, digits, - or _ "
                "(it names the pack to the scorer)."
            )
            refuse("key", message, row=number, max=CHOICE_KEY_MAX_LENGTH)
        elif key in seen:
            refuse("key", _("Row %(row)d: the key %(key)s is given twice."), row=number, key=key)
        if not label:
            refuse("label", _("Row %(row)d: give the English label."), row=number)
        seen.add(key)
        kept.append({"key": key, "label": label[:200], "label_ja": label_ja[:200]})
    if len(kept) > MAX_DATA_CHOICES:
        refuse("", _("A round offers at most %(max)d data packs."), row=0, max=MAX_DATA_CHOICES)
    if errors:
        raise ValidationError(errors)
    return kept


@transaction.atomic
def choices_set(*, user, round: Round, rows) -> bool:
    """Make the round's packs the rows given (``choices_check``), in their order; a pack a
    team has picked cannot be removed. ``True`` when anything changed (with an audit line)."""
    kept = choices_check(rows)
    existing = {choice.key: choice for choice in round_choices(round=round)}
    removed = [choice for key, choice in existing.items() if key not in {r["key"] for r in kept}]
    for choice in removed:
        pick = TeamDataChoice.objects.filter(choice=choice).select_related("team").first()
        if pick is not None:
            # ``field`` without ``row``: a form places it at the row that showed the pack.
            raise ValidationError(
                _("The pack %(key)s cannot be removed: the team %(team)s has picked it."),
                params={"field": "key", "key": choice.key, "team": pick.team.name},
            )
    before = [(c.key, c.label, c.label_ja, c.order) for c in existing.values()]
    for choice in removed:
        choice.delete()
    for order, row in enumerate(kept, start=1):
        DataChoice.objects.update_or_create(
            round=round, key=row["key"], defaults={**row, "order": order}
        )
    after = [(c.key, c.label, c.label_ja, c.order) for c in round_choices(round=round)]
    if before == after:
        return False
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=AuditEntry.Action.ROUND_EDITED,
        data_choices=[row["key"] for row in kept],
    )
    return True


def _choice_by_key(round: Round, key: str) -> DataChoice:
    choice = DataChoice.objects.filter(round=round, key=key or "").first()
    if choice is None:
        if not DataChoice.objects.filter(round=round).exists():
            raise Refused(_("This round offers no choice of data."), status=404)
        raise Refused(_("This round offers no data pack %(key)s.") % {"key": key}, status=400)
    return choice


def team_choice_set(*, user, round: Round, team, key: str) -> TeamDataChoice:
    """A member of ``team`` picks the pack ``key``; refused once the team's pick is locked
    (by default at its first upload in the round, ``choice_lock``; the kind's
    ``choice_wording.refused`` says so)."""
    if team is None or not team.members.filter(pk=user.pk).exists():
        raise Refused(_("Only a member of the team picks its data."), status=403)
    with transaction.atomic():
        # The team's row lock, as an upload takes it: a pick and a first upload never cross.
        team_row_lock(type(team).objects.filter(pk=team.pk))
        choice = _choice_by_key(round, key)
        kept = team_kept(round=round, team=team)
        if kept:
            raise Refused(
                _("Your team's data does not follow its pick: %(why)s") % {"why": kept},
                status=409,
                code="choice_kept",
            )
        pick = TeamDataChoice.objects.filter(round=round, team=team).first()
        if pick is not None and pick.locked:
            raise Refused(
                # The kind says when a pick locks and who changes it after.
                str(kind_of(round).choice_wording.refused),
                status=409,
                code="choice_locked",
            )
        pick, _created = TeamDataChoice.objects.update_or_create(
            round=round,
            team=team,
            defaults={"choice": choice, "chosen_at": timezone.now(), "chosen_by": user},
        )
    return pick


def choice_lock(*, round: Round | None, team) -> None:
    """Lock the team's pick in ``round`` (its pack by default, ``team_choice``, when it has
    not picked): called in the transaction of each upload the core keeps, for every kind. No
    effect on a round offering no choice, or a pick already locked."""
    if round is None or getattr(round, "pk", None) is None:
        return
    if TeamDataChoice.objects.filter(round=round, team=team).update(locked=True):
        return
    choice = team_choice(round=round, team=team)
    if choice is not None:
        TeamDataChoice.objects.create(
            round=round, team=team, choice=choice, chosen_at=timezone.now(), locked=True
        )


@transaction.atomic
def organizer_choice_change(*, user, round: Round, team, key: str) -> bool:
    """An organizer sets the team's pack (locked or not; its lock is kept). ``True`` when it
    changed, with an audit line naming the team and both packs. Refused (409) when the
    round's kind says the team's data can no longer change (``choice_change_refusal``)."""
    choice = _choice_by_key(round, key)
    pick = TeamDataChoice.objects.select_for_update().filter(round=round, team=team).first()
    before = pick.choice.key if pick is not None else ""
    if pick is not None and pick.choice_id == choice.pk:
        return False
    refusal = kind_of(round).choice_change_refusal(round, team)
    if refusal:
        raise Refused(refusal, status=409, code="choice_drawn")
    TeamDataChoice.objects.update_or_create(
        round=round,
        team=team,
        defaults={"choice": choice, "chosen_at": timezone.now(), "chosen_by": user},
    )
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=AuditEntry.Action.ROUND_EDITED,
        team=team.name,
        data_choice=f"{before or '-'} → {choice.key}",
    )
    return True
