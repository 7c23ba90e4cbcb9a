"""Real failures on a Redis server of the test's own: Redis killed and restarted without
its data while jobs are queued, and a whole worker killed mid-job. A real Celery worker
with its beat runs the reaper every 2 s (``PWSCUP_REAPER_INTERVAL``), so each bound below
is measured, not assumed.

Slow (over 20 s on its own, so its module is scheduled first):
``test_jobs_queued_when_redis_restarts_empty_all_finish_once`` scores 8 uploads of the whole
Adult table after the beat finds them lost, and the whole-worker crash waits for the reaper's
sweep.
"""

import os
import time
from pathlib import Path

import pytest
from django.conf import settings

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.pwscup.brokers import (
    broker_at,
    kill_group,
    start_worker,
    stop_worker,
    wait_for_worker,
)
from tests.support import csv_upload, noisy_copy, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BOUND = 120  # seconds: lost jobs are sent again within 2 minutes of the broker being back
# A QUEUED job's message is sent again this long after its last one (production: 60 s): the
# resend itself is what is proved, not the production interval's length. As short as the
# Redis-outage and multi-host tests' 3 s: the jobs still waiting behind the first ones get
# extra messages while they wait, which ``attempts == 1`` below finds harmless.
RESEND_SECONDS = 3
# A RUNNING job whose worker is gone is requeued once its claim is this old (production: 10 s):
# the dead worker's detection is what is proved, not the production grace's length.
CLAIM_GRACE_SECONDS = 3
FULL_ADULT = 32561  # about a second to score each upload


@pytest.fixture
def workers(redis_server):
    """Start workers on the test's Redis; every one is stopped at the end."""
    started = []
    logs = Path(settings.MEDIA_ROOT)

    def start(label: str, *, beat: bool):
        name = f"{label}-{os.getpid()}@pwscup-test"
        log_path = logs / f"{label}.log"
        process = start_worker(
            broker_url=redis_server.url,
            name=name,
            log_path=log_path,
            beat_interval=2 if beat else None,
            extra_env={
                "PWSCUP_QUEUED_RESEND_SECONDS": str(RESEND_SECONDS),
                "PWSCUP_REAPER_CLAIM_GRACE_SECONDS": str(CLAIM_GRACE_SECONDS),
            },
        )
        started.append(process)
        wait_for_worker(process, name, log_path)
        return process, name

    with broker_at(redis_server.url):
        yield start
        for process in started:
            stop_worker(process)


def upload_now(world, letter: str, content: bytes):
    return services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=csv_upload(content),
    )


def statuses(pks) -> list[str]:
    return list(
        AnonymizationSubmission.objects.filter(pk__in=pks)
        .order_by("pk")
        .values_list("status", flat=True)
    )


def test_jobs_queued_when_redis_restarts_empty_all_finish_once(make_world, workers, redis_server):
    world = make_world(slug="restart", rows=FULL_ADULT)
    contents = [noisy_copy(world.original, seed=i, delete=i) for i in range(8)]
    workers("restart", beat=True)
    pks = [upload_now(world, "abc"[i % 3], content).pk for i, content in enumerate(contents)]
    redis_server.kill()  # every queued message is lost with it
    queued_at_kill = statuses(pks).count(Status.QUEUED)
    assert queued_at_kill >= 3, "the test must kill Redis while jobs wait in its queue"
    during_outage = upload_now(world, "a", contents[0])
    assert during_outage.dispatch.sent is False
    assert during_outage.status == Status.QUEUED
    pks.append(during_outage.pk)
    time.sleep(2)
    redis_server.start()  # back, empty
    back = time.monotonic()
    wait_for(
        lambda: statuses(pks) == [Status.FINISHED] * len(pks),
        timeout=BOUND,
        interval=0.5,
        what=f"all {len(pks)} jobs ({queued_at_kill} lost with Redis) to finish",
    )
    took = time.monotonic() - back
    attempts = list(
        AnonymizationSubmission.objects.filter(pk__in=pks).values_list("attempts", flat=True)
    )
    assert attempts == [1] * len(pks), "each job was scored exactly once"
    print(f"{queued_at_kill} lost jobs + 1 upload during the outage finished {took:.1f}s after")


def test_a_whole_worker_killed_mid_job_is_detected_and_its_job_scored(make_world, workers):
    """Main process and pool child SIGKILLed: its message stays unacknowledged in Redis
    (for the hour of the visibility timeout), so only the reaper can notice."""
    world = make_world(slug="wholecrash", rows=FULL_ADULT)
    content = noisy_copy(world.original, seed=5, delete=10)
    doomed, doomed_name = workers("doomed", beat=False)
    submission = upload_now(world, "a", content)
    wait_for(
        lambda: AnonymizationSubmission.objects.filter(
            pk=submission.pk, status=Status.RUNNING
        ).exists(),
        interval=0.005,
        what="the job to start",
    )
    kill_group(doomed)  # main process and pool child: nothing comes back by itself
    killed = time.monotonic()
    submission.refresh_from_db()
    assert (submission.status, submission.worker) == (Status.RUNNING, doomed_name)
    # Restarted under the same hostname (a restart policy): it answers, but runs
    # nothing of the dead run.
    _restarted, restarted_name = workers("doomed", beat=True)
    assert restarted_name == doomed_name
    wait_for(
        lambda: statuses([submission.pk]) == [Status.FINISHED],
        timeout=BOUND,
        interval=0.5,
        what="the dead worker's job to be requeued and scored",
    )
    took = time.monotonic() - killed
    submission.refresh_from_db()
    assert (submission.attempts, submission.worker) == (2, restarted_name)
    assert submission.scores["U6"] == 10
    print(f"job of a SIGKILLed worker finished {took:.1f}s after the kill")
