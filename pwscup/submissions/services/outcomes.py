"""A team told how its upload ended, for every kind: a job model that is a team's upload in
a round (a ``KeptUpload`` whose ``JobKind`` names its round and its team) tells the team's
members once per outcome (``notify_upload_outcome``), whichever transition ended the job:
the end of its run, a refusal before any run, or its attempts used up. Other jobs (a
target's check, a console operation, the slides of a competition) tell no one here."""

from pwscup.notifications.services import notify_upload_outcome
from pwscup.submissions.models import KeptUpload, Status
from pwscup.submissions.registry import job_kind_of


def upload_outcome_told(*, model, pk: int, status: str) -> None:
    """Tell the team of upload ``pk`` of ``model`` that it ended ``status`` (FINISHED or
    FAILED; nothing for another status, a job that is not a team's upload in a round, or a
    row the platform built itself, with no file: a DP estimate from a release)."""
    if status not in (Status.FINISHED, Status.FAILED) or not issubclass(model, KeptUpload):
        return
    job = job_kind_of(model)
    if job is None or not job.round_path or job.team_path != "team":
        return
    # One read: the upload with its round and the round's competition (the link's address).
    upload = model.objects.select_related(f"{job.round_path}__competition").filter(pk=pk).first()
    if upload is None or not upload.file:  # no file: the platform's own row
        return
    round_ = upload
    for step in job.round_path.split("__"):
        round_ = getattr(round_, step)
    notify_upload_outcome(upload=upload, round=round_, status=status)
