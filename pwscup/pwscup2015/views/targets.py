"""Downloading published targets and candidate tables (attack phase)."""

from django.contrib.auth.decorators import login_required

from pwscup.accounts.access import RoundAccess, round_access
from pwscup.core.files import private_file_response
from pwscup.pwscup2015.access import target_for_attacker

# A target's two files: its field and the word its download name ends with.
TARGET_FILES = {"anonymized": "published_file", "candidate": "candidate_file"}


def target_file_response(access: RoundAccess, team_slug: str, which: str):
    """``team_slug``'s published target (``which``: ``"anonymized"``) or its candidate table
    (``"candidate"``), to a caller who may attack it (404 otherwise); the page and the API
    both answer with it."""
    target = target_for_attacker(access, team_slug)
    return private_file_response(
        getattr(target, TARGET_FILES[which]), f"{target.team.slug}_{which}.csv"
    )


@login_required
def target_download(request, competition_slug, round_slug, team_slug):
    access = round_access(request, competition_slug, round_slug)
    return target_file_response(access, team_slug, "anonymized")


@login_required
def candidate_download(request, competition_slug, round_slug, team_slug):
    access = round_access(request, competition_slug, round_slug)
    return target_file_response(access, team_slug, "candidate")
