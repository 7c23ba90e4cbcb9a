"""The sequential round's upload forms: a release of an open step, and guesses on another
team's target in the attack phase. Each keeps the file through one service (a worker checks
or scores it) and goes back to the Submit tab (where the upload is listed, and the tab
reloads itself until it is checked) with the notice the API gives (the declared submission
type's), or why the upload was refused: the core's ``upload_answer``."""

from pwscup.sequential import KEY, selectors, services
from pwscup.sequential.access import attack_target
from pwscup.sequential.api.submissions import SUBMISSION_TYPES
from pwscup.sequential.forms import GuessUploadForm, ReleaseUploadForm
from pwscup.submissions.round_pages import release_upload_view, target_upload_view

RELEASES, ATTACKS = SUBMISSION_TYPES


def _steps(access) -> dict:
    """Every step is a valid choice here: the service refuses a closed or frozen one, with a
    message saying why (and when it closed)."""
    return {"steps": range(1, selectors.sequential_of(round=access.round).n_releases + 1)}


release_upload = release_upload_view(
    KEY,
    ReleaseUploadForm,
    lambda access, **upload: services.release_upload(
        sequential=selectors.sequential_of(round=access.round), **upload
    ),
    anchor="#uploads",
    form_kwargs=_steps,
    refused_anchor="#upload",
    notice=RELEASES.received_message,
)


attack_upload = target_upload_view(
    KEY,
    attack_target,
    GuessUploadForm,
    services.attack_upload,
    "#attack",
    notice=ATTACKS.received_message,
)
