"""Every job shares the core's job state (``submissions.models.JobState``): pwscup2015's
0004 moves each target's built-in attack job (the ``builtin_*`` columns) to a row of its
own, and dp's 0005 stores a valid estimate as FINISHED. Every upload shares the core's kept
upload (``KeptUpload``): the fields renamed to its names keep their values. A database made
before keeps every row and value, and the job migrations go back as they came."""

import datetime as dt

import pytest
from django.utils import timezone

from pwscup.dp.models import Estimate
from pwscup.presentations.models import Slides
from pwscup.pwscup2015.models import AnonymizationSubmission, BuiltinAttack, Target
from tests.support import migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("pwscup2015", "0003_round_settings"), ("dp", "0004_estimate_kept_upload")]


def old_rows(apps, world) -> dict:
    now = timezone.now()
    a, b = world.teams["a"], world.teams["b"]
    Submission = apps.get_model("pwscup2015", "AnonymizationSubmission")
    OldTarget = apps.get_model("pwscup2015", "Target")
    chosen = {
        team.pk: Submission.objects.create(
            phase_id=world.anonymization.pk,
            team_id=team.pk,
            file="private/uploads/x.csv",
            original_filename="x.csv",
            sha256="a" * 64,
            size=10,
            number=1,
            status="finished",
        ).pk
        for team in (a, b)
    }
    started = now - dt.timedelta(minutes=3)

    def target(team, **builtin):
        return OldTarget.objects.create(
            round_id=world.round.pk,
            team_id=team.pk,
            submission_id=chosen[team.pk],
            published_file="p.csv",
            truth_file="t.csv",
            rows=7,
            reference_rows=9,
            **builtin,
        ).pk

    finished = target(
        a,
        builtin_status="finished",
        builtin_rates={"E1": 0.5, "KIT": 0.25},
        builtin_attempts=2,
        builtin_task_id="task-a",
        builtin_worker="celery@a",
        builtin_queued_at=now - dt.timedelta(minutes=5),
        builtin_started_at=started,
        scorer_version="2.1",
    )
    failed = target(
        b,
        builtin_status="failed",
        builtin_message="Column age, row 3: value x",
        builtin_message_code="job.attempts_exhausted",
        builtin_message_params={"n": 3},
        builtin_attempts=3,
    )
    OldDPRound = apps.get_model("dp", "DPRound")
    OldEstimate = apps.get_model("dp", "Estimate")
    dp_round = OldDPRound.objects.create(round_id=world.round.pk, opens_at=now, closes_at=now)
    estimates = {
        status: OldEstimate.objects.create(
            dp_round_id=dp_round.pk, team_id=a.pk, level="L1", number=n, status=status
        ).pk
        for n, status in enumerate(["valid", "failed", "queued", "running"], start=1)
    }
    return {"finished": finished, "failed": failed, "started": started, "estimates": estimates}


def assert_kept_forwards(made: dict) -> None:
    """Each built-in job is a row of its own with every value; a valid estimate is FINISHED."""
    assert BuiltinAttack.objects.count() == Target.objects.count() == 2
    finished = BuiltinAttack.objects.get(pk=made["finished"])
    assert finished.target_id == made["finished"]
    assert (
        finished.status,
        finished.rates,
        finished.attempts,
        finished.task_id,
        finished.worker,
        finished.started_at,
        finished.scorer_version,
    ) == ("finished", {"E1": 0.5, "KIT": 0.25}, 2, "task-a", "celery@a", made["started"], "2.1")
    failed = Target.objects.get(pk=made["failed"]).builtin
    assert (failed.status, failed.message, failed.message_code, failed.message_params) == (
        "failed",
        "Column age, row 3: value x",
        "job.attempts_exhausted",
        {"n": 3},
    )
    stored = dict(Estimate.objects.values_list("pk", "status"))
    assert {old: stored[pk] for old, pk in made["estimates"].items()} == {
        "valid": "finished",
        "failed": "failed",
        "queued": "queued",
        "running": "running",
    }
    # The DP pages still call a FINISHED estimate valid.
    assert Estimate.objects.get(pk=made["estimates"]["valid"]).status_label == "Valid"


def test_builtin_jobs_and_valid_estimates_keep_every_value_forwards_and_back(world):
    """One trip (the migrations cost most of a test's time): rows made before, migrated
    forwards (every value kept), then back (the values on the old columns again)."""
    apps = migrate(BEFORE)
    try:
        made = old_rows(apps, world)
        migrate()
        assert_kept_forwards(made)
        apps = migrate(BEFORE)
        OldTarget = apps.get_model("pwscup2015", "Target")
        back = OldTarget.objects.get(pk=made["finished"])
        assert (back.builtin_status, back.builtin_rates, back.builtin_attempts) == (
            "finished",
            {"E1": 0.5, "KIT": 0.25},
            2,
        )
        assert back.scorer_version == "2.1"
        OldEstimate = apps.get_model("dp", "Estimate")
        assert OldEstimate.objects.get(pk=made["estimates"]["valid"]).status == "valid"
    finally:
        migrate()


KEPT_BEFORE = [
    ("pwscup2015", "0004_builtin_attack_job_row"),
    ("dp", "0005_estimate_shared_status"),
    ("presentations", "0002_slides_shared_status"),
]


def test_kept_uploads_keep_who_uploaded_and_the_file_name(world):
    """The kept-upload fields got one name in every kind (``KeptUpload``): ``submitted_by``
    (2015), ``user`` (DP) and ``original_name`` (slides) are renamed, their values kept."""
    apps = migrate(KEPT_BEFORE)
    try:
        now = timezone.now()
        a, user = world.teams["a"], world.users["a"]
        upload = apps.get_model("pwscup2015", "AnonymizationSubmission").objects.create(
            phase_id=world.anonymization.pk,
            team_id=a.pk,
            submitted_by_id=user.pk,
            file="private/uploads/x.csv",
            original_filename="mine.csv",
            sha256="a" * 64,
            size=10,
            number=4,
            note="k=5",
        )
        dp_round = apps.get_model("dp", "DPRound").objects.create(
            round_id=world.round.pk, opens_at=now, closes_at=now
        )
        estimate = apps.get_model("dp", "Estimate").objects.create(
            dp_round_id=dp_round.pk,
            team_id=a.pk,
            level="L1",
            number=2,
            status="failed",
            user_id=user.pk,
            original_filename="estimate.csv",
            sha256="b" * 64,
            size=5,
        )
        window = apps.get_model("presentations", "PresentationWindow").objects.create(
            competition_id=world.competition.pk, opens_at=now, closes_at=now
        )
        slides = apps.get_model("presentations", "Slides").objects.create(
            window_id=window.pk,
            team_id=a.pk,
            uploaded_by_id=user.pk,
            file="s.pdf",
            original_name="talk.pdf",
            sha256="c" * 64,
            size=7,
            number=3,
        )
    finally:
        migrate()
    upload = AnonymizationSubmission.objects.get(pk=upload.pk)
    assert (upload.uploaded_by, upload.original_filename, upload.number, upload.note) == (
        user,
        "mine.csv",
        4,
        "k=5",
    )
    estimate = Estimate.objects.get(pk=estimate.pk)
    assert (estimate.uploaded_by, estimate.original_filename, estimate.number, estimate.note) == (
        user,
        "estimate.csv",
        2,
        "",
    )
    slides = Slides.objects.get(pk=slides.pk)
    assert (slides.uploaded_by, slides.original_filename, slides.size, slides.number) == (
        user,
        "talk.pdf",
        7,
        3,
    )
