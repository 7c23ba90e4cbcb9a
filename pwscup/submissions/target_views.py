"""Downloading published targets and candidate tables (attack phase)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404

from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of, phase_state
from pwscup.core.access import private_file_response, round_access
from pwscup.submissions.models import Target


def _target_for_attacker(request, competition_slug, round_slug, team_slug) -> Target:
    access = round_access(request, competition_slug, round_slug)
    target = get_object_or_404(
        Target.objects.select_related("team"), round=access.round, team__slug=team_slug
    )
    if access.is_organizer:
        return target
    phase = phase_of(round=access.round, kind=Phase.Kind.ATTACK)
    if (
        access.team is None
        or target.team_id == access.team.pk
        or access.round.frozen_at is None
        or phase is None
        or phase_state(phase=phase) == "upcoming"
    ):
        raise Http404
    return target


@login_required
def target_download(request, competition_slug, round_slug, team_slug):
    target = _target_for_attacker(request, competition_slug, round_slug, team_slug)
    return private_file_response(target.published_file, f"{target.team.slug}_anonymized.csv")


@login_required
def candidate_download(request, competition_slug, round_slug, team_slug):
    target = _target_for_attacker(request, competition_slug, round_slug, team_slug)
    return private_file_response(target.candidate_file, f"{target.team.slug}_candidate.csv")
