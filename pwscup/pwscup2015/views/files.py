"""What a team downloads from the *Data* tab: its data, the configuration and the sample
submission (the starter kit is ``views.kit``, the targets ``views.targets``)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse

from pwscup.accounts.access import round_access
from pwscup.core.exports import csv_bytes_response
from pwscup.core.files import private_file_response
from pwscup.pwscup2015.access import original_file_for
from pwscup.pwscup2015.sample import sample_submission
from pwscup.pwscup2015.scoring_guide import config_download_name, round_scoring_config


@login_required
def original_download(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug)
    field, name = original_file_for(access)
    return private_file_response(field, name)


@login_required
def sample_download(request, competition_slug, round_slug):
    """The sample submission of the reader's own data: whoever may download the data."""
    access = round_access(request, competition_slug, round_slug)
    original_file_for(access)  # the same rule as the data download (404 otherwise)
    sample = sample_submission(round=access.round, team=access.team)
    return csv_bytes_response(sample.content, sample.filename)


@login_required
def config_download(request, competition_slug, round_slug):
    """The configuration the server scores with (no data), for teams and organizers."""
    access = round_access(request, competition_slug, round_slug)
    if access.team is None and not access.is_organizer:
        raise Http404
    response = JsonResponse(
        round_scoring_config(round=access.round), json_dumps_params={"indent": 2}
    )
    name = config_download_name(round=access.round)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
