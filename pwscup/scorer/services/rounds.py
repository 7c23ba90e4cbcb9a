"""The round itself: creation (its settings checked, its two windows), the teams' slots,
publishing the results."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import (
    round_audit_record,
    round_basics_errors,
    round_of_kind_create,
)
from pwscup.core.errors import scoring_validation_errors
from pwscup.kinds.round_basics import RoundBasics
from pwscup.scorer import KEY
from pwscup.scorer.models import ScorerRound, TeamSlot
from pwscup.scorer.services.salt import salt_slot_changed
from pwscup.submissions.services.two_sided import (
    TwoSidedWindows,
    two_sided_locked,
    two_sided_results_publish,
    two_sided_round_created,
    two_sided_windows_errors,
)
from scoring.errors import ScoringError
from scoring.scorer.round_config import parse_round_config
from scoring.scorer.score_columns import reserved_keys_check

Action = AuditEntry.Action


def scorer_config_validate(config) -> dict:
    """The kind's ``validate_config``: the settings checked, every default filled in. Raises
    ``ValidationError`` on ``config`` with every error found, each carrying its ``code``
    and ``params`` (``params["key"]``: the setting it names). A release column keyed by a
    name a round total gives the ranking program's numbers (``ranked_release``,
    ``ranked_attack``) is refused."""
    try:
        checked = parse_round_config(config if config is not None else {})
        # Checked here, not on reading the stored settings back (``selectors.round_config``).
        reserved_keys_check(checked.release_columns, "release_columns")
        return checked.as_dict()
    except ScoringError as error:
        raise scoring_validation_errors(error, field="config") from None


@transaction.atomic
def scorer_round_create(
    *,
    basics: RoundBasics,
    config: dict,
    windows: TwoSidedWindows,
    user=None,
) -> ScorerRound:
    """Create a round scored by the organizer's program with its ``basics``
    (``round_of_kind_create``'s): its settings (``config``, checked by
    ``scoring.scorer.round_config``) and its two phases (``windows``); every team of the
    competition gets its slot. The program and the data packs are uploaded afterwards, in the
    console (``program_upload``, ``pack_upload``).

    Raises ``ValidationError`` keyed by field (``config``, ``slug``, ``timezone``,
    ``attack_opens_at``...) in the reader's language: every error of the address, the time
    zone, the windows and the settings in one answer, so that the form marks them all."""
    found = {
        **round_basics_errors(
            competition=basics.competition, slug=basics.slug, timezone=basics.time_zone()
        ),
        **two_sided_windows_errors(windows=windows),
    }
    errors = {field: [message] for field, message in found.items()}
    try:
        scorer_config_validate(config)
    except ValidationError as error:
        errors = error.update_error_dict(errors)
    if errors:
        raise ValidationError(errors)
    round_ = round_of_kind_create(basics=basics, kind=KEY, config=config)
    scorer = ScorerRound.objects.create(round=round_)
    slots_for_teams(scorer=scorer)
    two_sided_round_created(round=round_, windows=windows, user=user)
    return scorer


def slots_for_teams(*, scorer: ScorerRound) -> list[TeamSlot]:
    """Give every team of the competition without a slot the next one, in the order the
    teams were created, under the round's row lock; a slot once given is kept (a team
    registered after the slots were assigned from the salt is noted as a change)."""
    with transaction.atomic():
        scorer = two_sided_locked(scorer)
        have = dict(TeamSlot.objects.filter(scorer=scorer).values_list("team_id", "slot"))
        following = max(have.values(), default=0) + 1
        new = []
        teams = Team.objects.filter(competition_id=scorer.round.competition_id).order_by("pk")
        for team in teams:
            if team.pk in have:
                continue
            new.append(TeamSlot.objects.create(scorer=scorer, team=team, slot=following))
            salt_slot_changed(scorer=scorer, team=team, slot=following, registered=True)
            following += 1
    return new


def slot_set(*, scorer: ScorerRound, team: Team, slot: int, user=None) -> TeamSlot:
    """The organizer gives ``team`` the slot ``slot`` (a team holding it swaps with it); after
    an assignment from the salt, noted as a change by hand."""
    if slot < 1:
        raise ValidationError({"slot": _("A slot is a whole number from 1.")})
    with transaction.atomic():
        scorer = two_sided_locked(scorer)
        mine = TeamSlot.objects.filter(scorer=scorer, team=team).first()
        other = TeamSlot.objects.filter(scorer=scorer, slot=slot).exclude(team=team).first()
        before = mine.slot if mine is not None else None
        if other is not None:
            # Through a free number: the pair (round, slot) is unique at every step.
            spare = (TeamSlot.objects.filter(scorer=scorer).order_by("-slot").first().slot) + 1
            TeamSlot.objects.filter(pk=other.pk).update(slot=spare)
        if mine is None:
            mine = TeamSlot.objects.create(scorer=scorer, team=team, slot=slot)
        else:
            previous = mine.slot
            TeamSlot.objects.filter(pk=mine.pk).update(slot=slot)
            mine.slot = slot
            if other is not None:
                TeamSlot.objects.filter(pk=other.pk).update(slot=previous)
        if before != slot:
            salt_slot_changed(scorer=scorer, team=team, slot=slot)
        round_audit_record(
            user=user, round=scorer.round, action=Action.ROUND_EDITED, team=team.name, slot=slot
        )
    return mine


def results_publish(*, scorer: ScorerRound, user=None) -> None:
    """Close every open phase (a published ranking never changes), show the exact attack
    scores, the matrix and the rankings to everyone, tell the participants."""
    two_sided_results_publish(state=scorer, user=user)
