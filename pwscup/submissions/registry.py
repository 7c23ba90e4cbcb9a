"""Team uploads and background jobs that belong to no round kind.

A round kind declares its jobs through ``RoundKind.jobs``; those whose model is a kept upload
(``KeptUpload``) are its team uploads. An app above the core whose teams upload files outside
a round's game (the presentations' slides, ``pwscup/presentations/``) registers its jobs here
instead, from its ``AppConfig.ready()``::

    from pwscup.submissions.registry import register_job

    class PresentationsConfig(AppConfig):
        def ready(self):
            register_job(JobKind(Slides, RENDER_PREVIEW_TASK))

Then, like every kind's, a registered job is watched by the reaper (requeued when lost with
its worker, resent when its message was lost: ``job_kinds``), its transitions bump the live
version its pages poll (``pwscup.submissions.services.live``), and a kept upload's model
counts for the team-wide bounds of the upload pipeline (failed uploads per local day, bytes
kept per team: ``pwscup.submissions.selectors.upload_models``). Registering the same job
twice keeps one.
"""

from pwscup.kinds import all_kinds

_jobs: list = []


def register_job(job) -> None:
    """Have the reaper watch ``job`` (a ``pwscup.submissions.services.jobs.JobKind``)."""
    if job not in _jobs:
        _jobs.append(job)


def registered_jobs() -> list:
    return list(_jobs)


def job_kinds() -> list:
    """Every background job of the platform: every registered round kind's
    (``RoundKind.jobs``) and those registered outside the kinds (the slides' preview). The
    reaper watches them all; the live status finds a job model's scope among them."""
    kinds = [job for kind in all_kinds() for job in kind.jobs()]
    return kinds + [job for job in registered_jobs() if job not in kinds]


def job_kind_of(model):
    """The ``JobKind`` of the job model ``model``, or ``None`` when it is not registered."""
    return next((job for job in job_kinds() if job.model is model), None)
