"""The teams' slots by a committed salt (docs/scorer.md, "Cohort assignment by a committed
salt"): the organizer commits a salt (its SHA-256 public at once, the salt kept secret),
assigns every team's slot from it, and reveals it, typically after the results; the rule is
``pwscup.scorer.salt``'s. Each step under the round's row lock, in the audit log (the
commitment, never the salt)."""

import re
import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.accounts.models import Team
from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import round_audit_record
from pwscup.core.errors import Refused
from pwscup.scorer.models import Release, ScorerRound, SlotSalt, TeamSlot
from pwscup.scorer.salt import SALT_PATTERN, salt_commitment, salt_order
from pwscup.submissions.services.two_sided import two_sided_locked

Action = AuditEntry.Action
# The audit detail ``salt``'s values (labelled in ``apps.py``).
COMMITTED, ASSIGNED, REVEALED = "committed", "assigned", "revealed"
SALT_STEPS = {
    COMMITTED: gettext_lazy("committed"),
    ASSIGNED: gettext_lazy("slots assigned from it"),
    REVEALED: gettext_lazy("revealed"),
}


def _salt_of(scorer: ScorerRound) -> SlotSalt:
    salt = SlotSalt.objects.filter(scorer=scorer).first()
    if salt is None:
        raise Refused(_("No salt is committed for this round yet."), status=409)
    return salt


def _recorded(scorer: ScorerRound, user, step: str, salt: SlotSalt, teams=None) -> None:
    """The step in the round's audit log, with the commitment (never the salt) and, for an
    assignment, the number of teams."""
    counted = {} if teams is None else {"teams": teams}
    round_audit_record(
        user=user,
        round=scorer.round,
        action=Action.ROUND_EDITED,
        salt=step,
        sha256=salt.commitment,
        **counted,
    )


def slot_salt_commit(*, scorer: ScorerRound, salt: str = "", user=None) -> SlotSalt:
    """Commit ``salt`` (blank: 32 random hex digits drawn here) for the round's slots: its
    SHA-256 is public from now on, the salt the organizers' until ``slot_salt_reveal``. Once
    committed it never changes: a second commitment is refused (``salt`` field)."""
    salt = (salt or "").strip() or secrets.token_hex(16)
    if not re.fullmatch(SALT_PATTERN, salt):
        raise ValidationError(
            {
                "salt": _(
                    "A salt is 8 to 128 characters: letters, digits, dots, hyphens and underscores."
                )
            }
        )
    with transaction.atomic():
        scorer = two_sided_locked(scorer)
        if SlotSalt.objects.filter(scorer=scorer).exists():
            raise ValidationError(
                {"salt": _("A salt is already committed for this round; it cannot be changed.")}
            )
        kept = SlotSalt.objects.create(
            scorer=scorer,
            salt=salt,
            commitment=salt_commitment(salt),
            committed_at=timezone.now(),
            committed_by=user,
        )
        _recorded(scorer, user, COMMITTED, kept)
    return kept


def slots_from_salt(*, scorer: ScorerRound, user=None) -> list[TeamSlot]:
    """Every team of the competition (disqualified ones too: a disqualification comes
    later and keeps the team's data) gets its slot from the committed salt: ordered by
    SHA-256(salt + ":" + slug), slots 1, 2, … Refused (409) without a commitment and once a
    team has uploaded a release (its slot decided its data). Again before that: the same
    order, the teams registered since included, the hand changes undone."""
    with transaction.atomic():
        scorer = two_sided_locked(scorer)
        salt = _salt_of(scorer)
        if Release.objects.filter(scorer=scorer).exists():
            raise Refused(
                _(
                    "A team has already uploaded a release: its slot decided its data, so the "
                    "slots can no longer be assigned from the salt."
                ),
                status=409,
            )
        teams = {
            team.slug: team
            for team in Team.objects.filter(competition_id=scorer.round.competition_id)
        }
        order = salt_order(salt.salt, teams)
        TeamSlot.objects.filter(scorer=scorer).delete()
        slots = TeamSlot.objects.bulk_create(
            TeamSlot(scorer=scorer, team=teams[slug], slot=number)
            for number, slug in enumerate(order, start=1)
        )
        salt.assigned = [[slug, number] for number, slug in enumerate(order, start=1)]
        salt.assigned_at = timezone.now()
        salt.hand_changes = []
        salt.save(update_fields=["assigned", "assigned_at", "hand_changes"])
        _recorded(scorer, user, ASSIGNED, salt, teams=len(order))
    return slots


def slot_salt_reveal(*, scorer: ScorerRound, user=None) -> SlotSalt:
    """Show the salt on the round's Rules tab, its API status and its archive, with each
    team's digest, so that every team can check the commitment and the order. Once."""
    with transaction.atomic():
        scorer = two_sided_locked(scorer)
        salt = _salt_of(scorer)
        if salt.revealed_at is not None:
            raise Refused(_("The salt is already revealed."), status=409)
        salt.revealed_at = timezone.now()
        salt.save(update_fields=["revealed_at"])
        _recorded(scorer, user, REVEALED, salt)
    return salt


def salt_slot_changed(*, scorer: ScorerRound, team: Team, slot: int, registered=False) -> None:
    """Note a slot given after the assignment from the salt (by hand, or to a team
    registered since), under the caller's lock: the console and the Rules tab say so."""
    salt = SlotSalt.objects.filter(scorer=scorer, assigned_at__isnull=False).first()
    if salt is None:
        return
    salt.hand_changes = [
        *salt.hand_changes,
        {
            "team": team.name,
            "slot": slot,
            "at": timezone.now().isoformat(),
            "registered": registered,
        },
    ]
    salt.save(update_fields=["hand_changes"])
