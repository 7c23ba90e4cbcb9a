"""Who may fetch which file or upload of a round: one place for the rules, called by the HTML
views and by the REST API (pwscup/api/) alike. Each raises ``Http404`` where the page answers
404 (nothing tells a caller that the thing exists)."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from pwscup.accounts.access import RoundAccess
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of, phase_state
from pwscup.core.errors import Refused
from pwscup.pwscup2015.models import Target
from pwscup.pwscup2015.scoring_guide import original_download_name
from pwscup.pwscup2015.selectors import round_targets, team_dataset
from pwscup.submissions.selectors import upload_visible_to


def original_file_for(access: RoundAccess):
    """``(file field, download name)`` of the table the caller anonymizes: the master table for
    an organizer outside the teams, the team's own sample (per-team mode) or the original once
    the anonymization phase has opened."""
    round_, team = access.round, access.team
    if access.is_organizer and team is None:
        return round_.original_file, f"{round_.slug}_original.csv"
    if team is None:
        raise Http404
    phase = phase_of(round=round_, kind=Phase.Kind.ANONYMIZATION)
    if phase is None or phase_state(phase=phase) == "upcoming":
        raise Http404
    name = original_download_name(round=round_, team=team)
    if round_.pwscup2015.is_per_team:
        dataset = team_dataset(round=round_, team=team)
        if dataset is None:
            raise Http404
        return dataset.file, name
    return round_.original_file, name


def target_open_to(access: RoundAccess, target: Target) -> bool:
    """A published target: organizers always; another team once the round is frozen and the
    attack phase has opened; never its own team."""
    if access.is_organizer:
        return True
    phase = phase_of(round=access.round, kind=Phase.Kind.ATTACK)
    return not (
        access.team is None
        or target.team_id == access.team.pk
        or access.round.pwscup2015.frozen_at is None
        or phase is None
        or phase_state(phase=phase) == "upcoming"
    )


def target_for_attacker(access: RoundAccess, team_slug: str) -> Target:
    target = get_object_or_404(
        Target.objects.select_related("team"), round=access.round, team__slug=team_slug
    )
    if not target_open_to(access, target):
        raise Http404
    return target


def targets_for_attacker(access: RoundAccess) -> list[Target]:
    """The targets the caller may download (what ``target_for_attacker`` serves)."""
    return [t for t in round_targets(round=access.round) if target_open_to(access, t)]


def upload_for(*, user, model, pk: int, owner_only: bool = False):
    """A team's upload (anonymization or attack): its members, and organizers unless
    ``owner_only`` (a note, the final choice)."""
    upload = get_object_or_404(
        model.objects.select_related("team__competition", "phase__round__competition"), pk=pk
    )
    if not upload_visible_to(user=user, upload=upload, owner_only=owner_only):
        raise Http404
    return upload


def phase_upload_for(access: RoundAccess, *, model, phase: Phase | None, pk: int, owner_only=False):
    """A team's upload in ``phase`` of the round, for a caller known by its round access
    (the API's): ``upload_for``'s rule, its team's members, and organizers unless
    ``owner_only`` (404 otherwise, and without the phase)."""
    if phase is None:
        raise Http404
    uploads = model.objects.select_related("team", "phase__round__competition")
    upload = get_object_or_404(uploads, phase=phase, pk=pk)
    own = access.team is not None and upload.team_id == access.team.pk
    if not own and (owner_only or not access.is_organizer):
        raise Http404
    return upload


def check_uploader(access: RoundAccess, phase: Phase | None) -> None:
    """Before any upload: a team member, in a phase that exists."""
    if access.team is None:
        raise Refused(_("Only members of a team can upload."), status=403)
    if phase is None:
        raise Refused(_("This phase has not been set up."), status=404)
