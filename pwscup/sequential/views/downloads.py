"""The files of the sequential round only its pages offer: the starter kit (ZIP, with the
toolkit wheel) and the sample release, a release as uploaded and its per-person risk table.
``T(j).csv``, ``master.csv``, ``config.json`` and a target's published files are the
declared endpoints' (``api/views.py``), served at the same addresses among the pages."""

from django.http import Http404

from pwscup.accounts.access import kind_view
from pwscup.core.exports import csv_bytes_response
from pwscup.core.kits import kit_response, round_kit_name
from pwscup.core.stored import stored_bytes
from pwscup.sequential import KEY, kit, selectors
from pwscup.sequential.access import own_release
from pwscup.submissions.round_pages import refused_as_404, require_team


@kind_view(KEY)
def release_file(request, access, pk: int):
    release = own_release(access, pk)
    return csv_bytes_response(stored_bytes(release.file), f"release_{release.step}.csv")


@kind_view(KEY)
def release_risk_csv(request, access, pk: int):
    release = own_release(access, pk)
    if not release.per_person:
        raise Http404("No risk table.")
    return csv_bytes_response(
        selectors.release_risk_table(release=release), f"risk_per_person_{release.step}.csv"
    )


@kind_view(KEY)
def kit_download(request, access):
    """The team's starter kit: what its Data tab offers, the toolkit wheel and a README."""
    sequential = selectors.sequential_of(round=access.round)
    team = require_team(access)
    with refused_as_404():
        files = kit.kit_files(sequential=sequential, team=team)
    return kit_response(files, round_kit_name(access.round))


@kind_view(KEY)
def sample_download(request, access):
    """The sample ``release_<j>.csv``: the kit's baseline release of the team's next release."""
    sequential = selectors.sequential_of(round=access.round)
    team = require_team(access)
    with refused_as_404():
        step, content = kit.sample_release(sequential=sequential, team=team)
    return csv_bytes_response(content, f"release_{step}.csv")
