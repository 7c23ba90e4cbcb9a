"""Team uploads and background jobs that belong to no round kind.

A round kind declares its uploads and jobs through ``RoundKind.upload_models`` and
``RoundKind.jobs``. An app above the core whose teams upload files outside a round's game (the
presentations' slides, ``pwscup/presentations/``) registers them here instead, from its
``AppConfig.ready()``::

    from pwscup.submissions.registry import register_job, register_upload_model

    class PresentationsConfig(AppConfig):
        def ready(self):
            register_upload_model(Slides)
            register_job(JobKind(Slides, RENDER_PREVIEW_TASK))

Then, like every kind's, a registered upload model counts for the team-wide bounds of the
upload pipeline (failed uploads per local day, bytes kept per team:
``pwscup.submissions.selectors.upload_models``), and a registered job is watched by the reaper
(requeued when lost with its worker, resent when its message was lost:
``job_kinds``), and its transitions bump the live version its pages poll
(``pwscup.submissions.services.live``). Registering the same model or job twice keeps one.
"""

from pwscup.kinds import all_kinds

_upload_models: list[type] = []
_jobs: list = []


def register_upload_model(model: type) -> None:
    """Count ``model``'s rows (fields ``team``, ``size``, ``status``, ``created_at``) among
    every team's uploads."""
    if model not in _upload_models:
        _upload_models.append(model)


def register_job(job) -> None:
    """Have the reaper watch ``job`` (a ``pwscup.submissions.services.jobs.JobKind``)."""
    if job not in _jobs:
        _jobs.append(job)


def registered_upload_models() -> list[type]:
    return list(_upload_models)


def registered_jobs() -> list:
    return list(_jobs)


def job_kinds() -> list:
    """Every background job of the platform: every registered round kind's
    (``RoundKind.jobs``) and those registered outside the kinds (the slides' preview). The
    reaper watches them all; the live status finds a job model's scope among them."""
    kinds = [job for kind in all_kinds() for job in kind.jobs()]
    return kinds + [job for job in registered_jobs() if job not in kinds]
