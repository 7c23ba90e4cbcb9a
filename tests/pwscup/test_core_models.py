"""Every kind's jobs, uploads and upload windows are the core's models (``JobState``,
``KeptUpload``, ``UploadDates`` / ``UploadLimits``): one declaration of each field, one
vocabulary of job states, whatever kinds are registered."""

from pwscup.competitions.models import Phase, UploadDates, UploadLimits
from pwscup.dp.models import DPRound, Estimate
from pwscup.presentations.models import PresentationWindow, Slides
from pwscup.pwscup2015 import models as first
from pwscup.scorer import models as scorer
from pwscup.sequential.models import Release, SeqAttack, SequentialRound
from pwscup.submissions.models import JobState, KeptUpload, Status
from pwscup.submissions.selectors import upload_models
from pwscup.submissions.services.maintenance import job_kinds
from pwscup.synthetic import models as synthetic

JOB_FIELDS = {
    "status",
    "queued_at",
    "started_at",
    "finished_at",
    "task_id",
    "worker",
    "attempts",
    "message",
    "message_code",
    "message_params",
}


def test_every_job_the_reaper_watches_has_the_core_job_state():
    models = [kind.model for kind in job_kinds()]
    assert {model.__name__ for model in models} >= {
        "AnonymizationSubmission",
        "AttackSubmission",
        "BuiltinAttack",
        "RoundOperation",
        "Estimate",
        "Release",
        "SeqAttack",
        "Slides",
    }
    for model in models:
        assert issubclass(model, JobState), model
        fields = {field.name: field for field in model._meta.get_fields()}
        assert JOB_FIELDS <= set(fields), model
        assert fields["status"].choices == Status.choices, model
        assert fields["status"].default == Status.QUEUED, model


def test_the_upload_models_are_the_kept_uploads_among_the_jobs():
    """No kind lists its uploads: they are its jobs' kept uploads (the rounds' own jobs, a
    2015 built-in attack, a synthetic target, a scorer's program or ranking run, are not)."""
    assert set(upload_models()) == {
        first.AnonymizationSubmission,
        first.AttackSubmission,
        Estimate,
        Release,
        SeqAttack,
        synthetic.SynRelease,
        synthetic.SynAttack,
        scorer.Release,
        scorer.Attack,
        Slides,
    }
    assert len(upload_models()) == len(set(upload_models()))


def test_every_upload_model_is_a_kept_upload():
    models = upload_models()
    for model in models:
        assert issubclass(model, KeptUpload), model
        names = {field.name for field in model._meta.get_fields()}
        assert {"file", "original_filename", "sha256", "size", "number", "note"} <= names
        assert {"uploaded_by", "created_at", "team"} <= names, model


def test_a_kind_labels_a_state_without_storing_another_value():
    estimate = Estimate(status=Status.FINISHED)
    slides = Slides(status=Status.FINISHED)
    release = Release(status=Status.RUNNING)
    assert (estimate.status_label, slides.status_label, release.status_label) == (
        "Valid",
        "Ready",
        "Checking",
    )
    assert Estimate(status=Status.FAILED).status_label == "Failed"  # the core's word
    assert Estimate.Status is Slides.Status is Status


def test_every_upload_window_declares_the_core_fields():
    for model in (Phase, PresentationWindow, DPRound):
        assert issubclass(model, UploadDates), model
    for model in (Phase, PresentationWindow, SequentialRound):
        assert issubclass(model, UploadLimits), model
