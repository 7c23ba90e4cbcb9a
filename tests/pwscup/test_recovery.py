"""Nothing lost, nothing stuck: uploads while the broker is down, messages a broker restart
lost, a reaper that cannot undo a finished run, and one rule for in-flight uploads at the
freeze. The real worker and real Redis restart are in ``test_broker_restart.py``."""

import datetime as dt
import json
from base64 import b64decode

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.services import phase_set
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.leaderboards.selectors import anonymization_leaderboard, final_ranking
from pwscup.pwscup2015.models import AnonymizationSubmission, Target
from pwscup.pwscup2015.selectors import representative_submission
from pwscup.submissions.models import Status
from pwscup.submissions.services import maintenance
from pwscup.submissions.services.jobs import job_claim, job_complete, job_requeue
from pwscup.submissions.services.maintenance import jobs_reap
from tests.pwscup.brokers import RedisServer, broker_at
from tests.pwscup.factories import run_operations, score, scored, upload
from tests.support import csv_upload, noisy_copy, tasks_sent

HARD_LIMIT = dt.timedelta(seconds=settings.PWSCUP_SCORING_HARD_TIME_LIMIT)
RESEND = dt.timedelta(seconds=settings.PWSCUP_QUEUED_RESEND_SECONDS)
AFTER_RESEND = RESEND + dt.timedelta(seconds=1)
SCORE_TASK = "pwscup.pwscup2015.tasks.score_anonymization"


@pytest.fixture
def redis_server():
    server = RedisServer()
    yield server
    server.kill()


def queued_pks(server: RedisServer) -> list[int]:
    """The submission ids of the scoring messages waiting in the test queue, read raw."""
    pks = []
    for raw in server.client().lrange(settings.CELERY_TASK_DEFAULT_QUEUE, 0, -1):
        message = json.loads(raw)
        assert message["headers"]["task"] == SCORE_TASK
        pks.append(json.loads(b64decode(message["body"]))[0][0])
    return sorted(pks)


# --- An upload while the broker is down -------------------------------------------------


@pytest.mark.django_db(transaction=True)  # commits like production: the send runs at once
def test_an_upload_while_the_broker_is_down_is_kept_answered_and_sent_when_it_is_back(
    world, client, redis_server
):
    client.force_login(world.users["a"])
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    content = noisy_copy(world.original, seed=1)
    with broker_at(redis_server.url):  # nothing listens there yet: the broker is down
        page = client.post(url, {"file": csv_upload(content)}, follow=True)
        as_json = client.post(url, {"file": csv_upload(content)}, HTTP_ACCEPT="application/json")
        in_japanese = client.post(
            url, {"file": csv_upload(content)}, follow=True, HTTP_ACCEPT_LANGUAGE="ja"
        )
        stored = list(AnonymizationSubmission.objects.order_by("pk"))
        assert [s.status for s in stored] == [Status.QUEUED] * 3
        first, second, third = (s.pk for s in stored)
        assert page.status_code == 200
        assert (
            "Upload received (#1) and queued; scoring starts when the scorer is back."
            in page.content.decode()
        )
        assert as_json.status_code == 202
        assert as_json.json() == {
            "id": second,
            "number": 2,
            "status": Status.QUEUED,
            "message": "Upload received (#2) and queued; scoring starts when the scorer is back.",
        }
        assert (
            "アップロードを受け付けました（#3）。採点待ちです。採点サーバーが復旧すると採点が始まります。"
            in in_japanese.content.decode()
        )
        # The broker comes back: the reaper sends the three jobs once they have waited.
        redis_server.start()
        assert jobs_reap(now=timezone.now())["resent"] == 0
        counts = jobs_reap(now=timezone.now() + AFTER_RESEND)
    assert counts["resent"] == 3
    assert queued_pks(redis_server) == [first, second, third]


@pytest.mark.django_db(transaction=True)
def test_an_upload_with_the_broker_up_says_it_is_being_scored(world, client, redis_server):
    client.force_login(world.users["a"])
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    with broker_at(redis_server.start().url):
        page = client.post(url, {"file": csv_upload(world.original)}, follow=True)
    submission = AnonymizationSubmission.objects.get()
    assert "Upload received (#1); it is being scored." in page.content.decode()
    assert queued_pks(redis_server) == [submission.pk]


# --- Messages lost by a broker restart ---------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_reaper_resends_a_job_that_waited_too_long_once_per_interval(world, redis_server):
    with broker_at(redis_server.start().url):
        uploads = [
            upload(world, letter, noisy_copy(world.original, seed=i))
            for i, letter in enumerate("abcab")
        ]
        pks = sorted(u.pk for u in uploads)
        assert queued_pks(redis_server) == pks
        # Sent just now: nothing is sent again.
        assert jobs_reap(now=timezone.now() + RESEND / 2)["resent"] == 0
        # Redis restarts without its data: every message is gone; once they have waited,
        # every job is sent again, each once.
        redis_server.kill()
        redis_server.start()
        assert queued_pks(redis_server) == []
        later = timezone.now() + AFTER_RESEND
        assert jobs_reap(now=later)["resent"] == 5
        assert queued_pks(redis_server) == pks
        # Sent again at ``later``: not again within the next interval, then once more.
        assert jobs_reap(now=later + RESEND / 2)["resent"] == 0
        assert jobs_reap(now=later + AFTER_RESEND)["resent"] == 5
        # A job claimed meanwhile is not QUEUED any more: never sent again.
        job_claim(model=AnonymizationSubmission, pk=pks[0])
        assert jobs_reap(now=later + 3 * AFTER_RESEND)["resent"] == 4


@pytest.mark.django_db(transaction=True)
def test_the_embedded_filesystem_broker_gets_the_resent_job_too(world, tmp_path):
    """The laptop setup (no Redis): messages are files; a lost one is sent again."""
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(tmp_path),
        "store_processed": False,
    }
    with broker_at("filesystem://", **options):
        submission = upload(world, "a", world.original)
        (message,) = folder.glob("*.msg")
        message.unlink()
        assert jobs_reap(now=timezone.now() + AFTER_RESEND)["resent"] == 1
        (resent,) = folder.glob("*.msg")
        body = json.loads(b64decode(json.loads(resent.read_bytes())["body"]))
    assert body[0] == [submission.pk]


def test_the_default_reaper_schedule_keeps_the_two_minute_promise():
    """Worst cases with the default settings: a message lost (with Redis, with the worker
    holding it, or never sent), and a run whose worker died (ping: 1 s)."""
    interval = dt.timedelta(seconds=settings.CELERY_BEAT_SCHEDULE["reap-stuck-jobs"]["schedule"])
    assert (
        interval
        == dt.timedelta(seconds=settings.PWSCUP_REAPER_INTERVAL)
        <= dt.timedelta(seconds=30)
    )
    ping = dt.timedelta(seconds=1)
    bound = dt.timedelta(minutes=2)
    assert RESEND + interval <= bound
    assert maintenance.claim_grace() + interval + ping <= bound


# --- A conditional requeue -----------------------------------------------------------------


@pytest.mark.django_db
def test_requeue_leaves_a_run_that_finished_since_it_was_read(world):
    submission = upload(world, "a", world.original)
    token = job_claim(model=AnonymizationSubmission, pk=submission.pk)
    assert job_complete(
        model=AnonymizationSubmission,
        pk=submission.pk,
        token=token,
        status=Status.FINISHED,
        scores={"U1": 0.5},
    )
    assert not job_requeue(model=AnonymizationSubmission, pk=submission.pk, token=token)
    submission.refresh_from_db()
    assert (submission.status, submission.scores) == (Status.FINISHED, {"U1": 0.5})


@pytest.mark.django_db
def test_the_reaper_cannot_reset_a_run_that_finishes_between_its_read_and_its_update(
    world, monkeypatch, django_capture_on_commit_callbacks
):
    """The interleaving is forced: the run completes right after the reaper read it as
    lost (past the hard time limit) and right before the reaper's update."""
    submission = upload(world, "a", world.original)
    long_ago = timezone.now() - HARD_LIMIT - dt.timedelta(minutes=5)
    token = job_claim(model=AnonymizationSubmission, pk=submission.pk, now=long_ago)
    real_requeue = maintenance.job_requeue

    def the_run_finishes_first(**kwargs):
        job_complete(
            model=AnonymizationSubmission,
            pk=submission.pk,
            token=token,
            status=Status.FINISHED,
            scores={"U1": 0.25},
        )
        return real_requeue(**kwargs)

    monkeypatch.setattr(maintenance, "job_requeue", the_run_finishes_first)
    with django_capture_on_commit_callbacks() as callbacks:
        counts = jobs_reap()
    assert counts["requeued"] == 0
    assert tasks_sent(callbacks) == [], "a finished job is not sent again"
    submission.refresh_from_db()
    assert (submission.status, submission.scores, submission.attempts) == (
        Status.FINISHED,
        {"U1": 0.25},
        1,
    )


@pytest.mark.django_db
def test_a_run_is_requeued_only_when_its_worker_no_longer_runs_it(
    world, monkeypatch, django_capture_on_commit_callbacks
):
    """Who runs what, as the workers answer (the real crash is in test_broker_restart)."""
    submission = upload(world, "a", world.original)
    half_a_minute_ago = timezone.now() - dt.timedelta(seconds=30)
    job_claim(
        model=AnonymizationSubmission,
        pk=submission.pk,
        now=half_a_minute_ago,
        task_id="task-1",
        worker="w1@host",
    )

    def reap_with(census):
        monkeypatch.setattr(maintenance.broker, "worker_census", lambda: census)
        with django_capture_on_commit_callbacks() as callbacks:
            counts = jobs_reap(worker="reaper@host")
        return counts["requeued"], len(callbacks)

    # The reaper's own worker is not among the answers: they are not trusted.
    assert reap_with({"w1@host": set()}) == (0, 0)
    assert reap_with({"reaper@host": {"reap"}, "w1@host": {"task-1"}}) == (0, 0)
    assert AnonymizationSubmission.objects.get(pk=submission.pk).status == Status.RUNNING
    # Restarted under the same name, or gone: the run is requeued and sent again.
    assert reap_with({"reaper@host": {"reap"}, "w1@host": {"task-9"}}) == (1, 1)
    submission.refresh_from_db()
    assert (submission.status, submission.worker, submission.attempts) == (Status.QUEUED, "", 1)


# --- Freeze and in-flight uploads ----------------------------------------------------------


@pytest.mark.django_db
def test_an_upload_scored_after_the_freeze_does_not_replace_the_frozen_one_anywhere(world):
    """Worker stopped: team A's second upload waits in the queue while the round freezes."""
    first = scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    in_flight = upload(world, "a", noisy_copy(world.original, seed=3, delete=5))
    targets = {t.team_id: t for t in services.round_freeze(round=world.round)}
    team_a = world.teams["a"]
    assert targets[team_a.pk].submission_id == first.pk
    # The worker comes back and scores it (the latest upload, under the default rule).
    assert score(in_flight).status == Status.FINISHED
    world.round.refresh_from_db()
    world.anonymization.refresh_from_db()
    shown = {
        row.team.pk: row.submission.pk
        for row in anonymization_leaderboard(phase=world.anonymization)
    }
    final_rows, _attack_rows = final_ranking(round=world.round)
    final = {row.team.pk: row.target.submission_id for row in final_rows}
    published = Target.objects.get(round=world.round, team=team_a).submission_id
    assert shown[team_a.pk] == final[team_a.pk] == published == first.pk
    assert representative_submission(phase=world.anonymization, team=team_a).pk == first.pk
    # Freezing again publishes what the rule picks now, and every page follows.
    services.round_freeze(round=world.round)
    world.round.refresh_from_db()
    world.anonymization.refresh_from_db()
    republished = Target.objects.get(round=world.round, team=team_a)
    assert (republished.submission_id, republished.version) == (in_flight.pk, 2)
    shown = {
        row.team.pk: row.submission.pk
        for row in anonymization_leaderboard(phase=world.anonymization)
    }
    assert shown[team_a.pk] == in_flight.pk


@pytest.mark.django_db
def test_the_automatic_freeze_waits_for_uploads_accepted_before_the_phase_closed(world):
    phase = world.anonymization
    during = timezone.now() - dt.timedelta(minutes=1)
    earlier = during - dt.timedelta(minutes=5)
    first = score(upload(world, "a", noisy_copy(world.original, seed=1), now=earlier))
    last_minute = upload(world, "a", noisy_copy(world.original, seed=2), now=during)
    closes_at = timezone.now()
    phase_set(
        round=world.round,
        kind=phase.kind,
        opens_at=phase.opens_at,
        closes_at=closes_at,
        daily_limit=phase.daily_limit,
        total_limit=phase.total_limit,
        leaderboard_public=phase.leaderboard_public,
    )
    just_after = closes_at + dt.timedelta(minutes=1)
    assert services.rounds_auto_freeze(now=just_after) == []  # still being scored
    world.round.refresh_from_db()
    assert world.round.pwscup2015.frozen_at is None
    assert score(last_minute).status == Status.FINISHED
    assert services.rounds_auto_freeze(now=just_after) == [world.round.pk]
    run_operations()
    target = Target.objects.get(round=world.round, team=world.teams["a"])
    assert target.submission_id == last_minute.pk != first.pk


@pytest.mark.django_db
def test_the_automatic_freeze_does_not_wait_forever(world):
    phase = world.anonymization
    scored(world, "a", seed=1)
    upload(world, "b", noisy_copy(world.original, seed=2))  # never scored
    too_late = phase.closes_at + maintenance.AUTO_FREEZE_WAITS_AT_MOST + dt.timedelta(minutes=1)
    assert services.rounds_auto_freeze(now=too_late) == [world.round.pk]
    run_operations()
    assert list(Target.objects.filter(round=world.round).values_list("team", flat=True)) == [
        world.teams["a"].pk
    ]
