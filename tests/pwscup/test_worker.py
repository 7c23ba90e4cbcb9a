"""Uploads scored by a real Celery worker process over the real Redis broker."""

import io
import os
import signal
import subprocess

import numpy as np
import pandas as pd
import pytest

import scoring
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
)
from pwscup.pwscup2015.selectors import target_truth
from pwscup.submissions.models import Status
from scoring import kit
from tests.support import csv_upload, noisy_copy, table_bytes, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

DONE = (Status.FINISHED, Status.FAILED)


def wait_scored(model, pk, field="status"):
    return wait_for(
        lambda: (v := model.objects.values_list(field, flat=True).get(pk=pk)) in DONE and v,
        timeout=120,
        what=f"{model.__name__} #{pk} to be scored by the worker",
    )


def test_upload_is_scored_by_the_worker(world, celery_worker_process):
    team = world.teams["a"]
    content = noisy_copy(world.original, seed=1, delete=3)
    submission = services.anonymization_submission_create(
        phase=world.anonymization,
        team=team,
        user=world.users["a"],
        uploaded_file=csv_upload(content),
    )
    assert wait_scored(AnonymizationSubmission, submission.pk) == Status.FINISHED
    submission.refresh_from_db()
    assert submission.attempts == 1
    assert set(scoring.METRICS) <= set(submission.scores)
    assert submission.scores["U6"] == 3
    original = scoring.read_table(world.original)
    expected = scoring.evaluate(
        original, scoring.read_table(content), scoring.load_config(world.round.config, original)
    )
    assert submission.scores["EUC2"] == pytest.approx(expected["EUC2"])
    assert submission.scores["U1"] == pytest.approx(expected["U1"])


def test_invalid_upload_fails_with_the_validation_message(world, celery_worker_process):
    table = pd.read_csv(io.BytesIO(world.original), dtype=str, keep_default_na=False)
    content = table_bytes(table.drop(columns=["occupation"]))
    submission = services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams["b"],
        user=world.users["b"],
        uploaded_file=csv_upload(content, "broken.csv"),
    )
    assert wait_scored(AnonymizationSubmission, submission.pk) == Status.FAILED
    submission.refresh_from_db()
    assert "occupation" in submission.message
    submission.file.open("rb")
    assert submission.file.read() == content  # kept as uploaded
    submission.file.close()


def test_attack_phase_through_the_worker(world, celery_worker_process):
    for letter in "ab":
        upload = services.anonymization_submission_create(
            phase=world.anonymization,
            team=world.teams[letter],
            user=world.users[letter],
            uploaded_file=csv_upload(noisy_copy(world.original, seed=ord(letter), delete=2)),
        )
        assert wait_scored(AnonymizationSubmission, upload.pk) == Status.FINISHED
    targets = services.round_freeze(round=world.round)
    assert len(targets) == 2
    for target in targets:
        assert wait_scored(BuiltinAttack, target.pk) == Status.FINISHED
        target.refresh_from_db()
        assert set(target.builtin.rates) == {
            *scoring.ATTACK_METRICS,
            kit.BUILTIN_ATTACKER,
            scoring.REFERENCE_ATTACK,
        }
    target_a = next(t for t in targets if t.team_id == world.teams["a"].pk)
    truth = target_truth(target=target_a)
    answer = truth.copy()
    answer[: len(answer) // 2] = 0  # half the rows: no guess
    attack = services.attack_submission_create(
        phase=world.attack,
        team=world.teams["b"],
        target=target_a,
        user=world.users["b"],
        uploaded_file=csv_upload(
            "\n".join(map(str, answer)).encode() + b"\n", "teamB_attack_teamA.csv"
        ),
    )
    assert wait_scored(AttackSubmission, attack.pk) == Status.FINISHED
    attack.refresh_from_db()
    expected = np.count_nonzero(answer) / len(answer)
    assert attack.rate == pytest.approx(expected)
    assert attack.correct == np.count_nonzero(answer)


def _pool_children(worker) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(worker.pid)], capture_output=True, text=True)
    return [int(pid) for pid in found.stdout.split()]


def test_a_worker_killed_mid_job_is_replaced_and_the_job_scored(make_world, celery_worker_process):
    """acks_late + reject_on_worker_lost: the message comes back with the same task id,
    and the RUNNING job is taken over at once (not after the reaper's hard-limit wait)."""
    world = make_world(slug="crash", rows=32561)  # the full Adult table: about a second to score
    children = wait_for(lambda: _pool_children(celery_worker_process), what="a pool process")
    submission = services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams["a"],
        user=world.users["a"],
        uploaded_file=csv_upload(noisy_copy(world.original, seed=5, delete=10)),
    )
    wait_for(
        lambda: AnonymizationSubmission.objects.filter(
            pk=submission.pk, status=Status.RUNNING
        ).exists(),
        interval=0.005,
        what="the job to start",
    )
    for pid in children:
        os.kill(pid, signal.SIGKILL)
    assert wait_scored(AnonymizationSubmission, submission.pk) == Status.FINISHED
    submission.refresh_from_db()
    assert submission.attempts == 2
    assert submission.scores["U6"] == 10
    assert _pool_children(celery_worker_process) != children  # the pool was replenished
