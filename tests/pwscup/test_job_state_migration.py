"""Every job shares the core's job state (``submissions.models.JobState``): pwscup2015's
0004 moves each target's built-in attack job (the ``builtin_*`` columns) to a row of its
own, and dp's 0005 stores a valid estimate as FINISHED. Every upload shares the core's kept
upload (``KeptUpload``): the fields renamed to its names keep their values. A database made
before keeps every row and value, and the job migrations go back as they came. Each test on
a database of its own migrated forward from nothing (``tests.history``)."""

import datetime as dt

import pytest
from django.utils import timezone

from pwscup.dp.models import Estimate
from tests.history import history_database, old_world

pytestmark = pytest.mark.django_db

BEFORE = [("pwscup2015", "0003_round_settings"), ("dp", "0004_estimate_kept_upload")]
AFTER = [("pwscup2015", "0004_builtin_attack_job_row"), ("dp", "0005_estimate_shared_status")]


def old_rows(history, apps, world) -> dict:
    now = timezone.now()
    a, b = world.teams["a"], world.teams["b"]
    Submission = history.objects(apps, "pwscup2015", "AnonymizationSubmission")
    OldTarget = history.objects(apps, "pwscup2015", "Target")
    chosen = {
        team: Submission.create(
            phase_id=world.anonymization,
            team_id=team,
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
        return OldTarget.create(
            round_id=world.round,
            team_id=team,
            submission_id=chosen[team],
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
    dp_round = history.objects(apps, "dp", "DPRound").create(
        round_id=world.round, opens_at=now, closes_at=now
    )
    estimates = {
        status: history.objects(apps, "dp", "Estimate")
        .create(dp_round_id=dp_round.pk, team_id=a, level="L1", number=n, status=status)
        .pk
        for n, status in enumerate(["valid", "failed", "queued", "running"], start=1)
    }
    return {"finished": finished, "failed": failed, "started": started, "estimates": estimates}


def assert_kept_forwards(history, apps, made: dict) -> None:
    """Each built-in job is a row of its own with every value; a valid estimate is FINISHED."""
    builtin = history.objects(apps, "pwscup2015", "BuiltinAttack")
    assert builtin.count() == history.objects(apps, "pwscup2015", "Target").count() == 2
    finished = builtin.get(pk=made["finished"])
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
    failed = builtin.get(target_id=made["failed"])
    assert (failed.status, failed.message, failed.message_code, failed.message_params) == (
        "failed",
        "Column age, row 3: value x",
        "job.attempts_exhausted",
        {"n": 3},
    )
    stored = dict(history.objects(apps, "dp", "Estimate").values_list("pk", "status"))
    assert {old: stored[pk] for old, pk in made["estimates"].items()} == {
        "valid": "finished",
        "failed": "failed",
        "queued": "queued",
        "running": "running",
    }


def test_builtin_jobs_and_valid_estimates_keep_every_value_forwards_and_back():
    """Rows made before, migrated forwards (every value kept), then back (the values on the
    old columns again)."""
    with history_database() as history:
        apps = history.migrate(BEFORE)
        made = old_rows(history, apps, old_world(history, apps))
        apps = history.migrate(AFTER)
        assert_kept_forwards(history, apps, made)
        apps = history.migrate(BEFORE)
        back = history.objects(apps, "pwscup2015", "Target").get(pk=made["finished"])
        valid = history.objects(apps, "dp", "Estimate").get(pk=made["estimates"]["valid"])
    assert (back.builtin_status, back.builtin_rates, back.builtin_attempts) == (
        "finished",
        {"E1": 0.5, "KIT": 0.25},
        2,
    )
    assert back.scorer_version == "2.1"
    assert valid.status == "valid"


def test_the_dp_pages_still_call_a_finished_estimate_valid():
    assert Estimate(status="finished").status_label == "Valid"


KEPT_BEFORE = [
    ("pwscup2015", "0004_builtin_attack_job_row"),
    ("dp", "0005_estimate_shared_status"),
    ("presentations", "0002_slides_shared_status"),
]
KEPT_AFTER = [
    ("pwscup2015", "0005_kept_upload"),
    ("dp", "0006_estimate_kept_upload_fields"),
    ("presentations", "0003_slides_kept_upload"),
]


def test_kept_uploads_keep_who_uploaded_and_the_file_name():
    """The kept-upload fields got one name in every kind (``KeptUpload``): ``submitted_by``
    (2015), ``user`` (DP) and ``original_name`` (slides) are renamed, their values kept."""
    with history_database() as history:
        apps = history.migrate(KEPT_BEFORE)
        world = old_world(history, apps)
        now = timezone.now()
        a, user = world.teams["a"], world.users["a"]
        upload = history.objects(apps, "pwscup2015", "AnonymizationSubmission").create(
            phase_id=world.anonymization,
            team_id=a,
            submitted_by_id=user,
            file="private/uploads/x.csv",
            original_filename="mine.csv",
            sha256="a" * 64,
            size=10,
            number=4,
            note="k=5",
        )
        dp_round = history.objects(apps, "dp", "DPRound").create(
            round_id=world.round, opens_at=now, closes_at=now
        )
        estimate = history.objects(apps, "dp", "Estimate").create(
            dp_round_id=dp_round.pk,
            team_id=a,
            level="L1",
            number=2,
            status="failed",
            user_id=user,
            original_filename="estimate.csv",
            sha256="b" * 64,
            size=5,
        )
        window = history.objects(apps, "presentations", "PresentationWindow").create(
            competition_id=world.competition, opens_at=now, closes_at=now
        )
        slides = history.objects(apps, "presentations", "Slides").create(
            window_id=window.pk,
            team_id=a,
            uploaded_by_id=user,
            file="s.pdf",
            original_name="talk.pdf",
            sha256="c" * 64,
            size=7,
            number=3,
        )
        apps = history.migrate(KEPT_AFTER)
        upload = history.objects(apps, "pwscup2015", "AnonymizationSubmission").get(pk=upload.pk)
        estimate = history.objects(apps, "dp", "Estimate").get(pk=estimate.pk)
        slides = history.objects(apps, "presentations", "Slides").get(pk=slides.pk)
    assert (upload.uploaded_by_id, upload.original_filename, upload.number, upload.note) == (
        user,
        "mine.csv",
        4,
        "k=5",
    )
    assert (
        estimate.uploaded_by_id,
        estimate.original_filename,
        estimate.number,
        estimate.note,
    ) == (user, "estimate.csv", 2, "")
    assert (slides.uploaded_by_id, slides.original_filename, slides.size, slides.number) == (
        user,
        "talk.pdf",
        7,
        3,
    )
