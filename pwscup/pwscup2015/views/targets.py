"""Downloading published targets and candidate tables (attack phase)."""

from django.contrib.auth.decorators import login_required

from pwscup.accounts.access import round_access
from pwscup.core.files import private_file_response
from pwscup.pwscup2015.access import target_for_attacker


@login_required
def target_download(request, competition_slug, round_slug, team_slug):
    access = round_access(request, competition_slug, round_slug)
    target = target_for_attacker(access, team_slug)
    return private_file_response(target.published_file, f"{target.team.slug}_anonymized.csv")


@login_required
def candidate_download(request, competition_slug, round_slug, team_slug):
    access = round_access(request, competition_slug, round_slug)
    target = target_for_attacker(access, team_slug)
    return private_file_response(target.candidate_file, f"{target.team.slug}_candidate.csv")
