"""Round operations run by a real Celery worker process over the real Redis broker."""

import os
import signal
import subprocess

import pytest
from django.core.management import call_command
from django.urls import reverse

from pwscup.accounts.services import organizer_grant
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import RoundOperation, Target
from pwscup.submissions.models import Status
from tests.pwscup.factories import scored
from tests.support import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

DONE = (Status.FINISHED, Status.FAILED)


def wait_finished(operation_id: int) -> RoundOperation:
    wait_for(
        lambda: RoundOperation.objects.filter(pk=operation_id, status__in=DONE).exists(),
        timeout=120,
        what=f"operation #{operation_id} to end",
    )
    return RoundOperation.objects.get(pk=operation_id)


def wait_builtins(round_) -> list[str]:
    def states():
        found = list(Target.objects.filter(round=round_).values_list("builtin__status", flat=True))
        return found if found and all(s in DONE for s in found) else None

    return wait_for(states, timeout=120, what="every built-in attack job to end")


def test_freeze_from_the_admin_runs_on_the_worker_with_its_progress(
    world, client, celery_worker_process
):
    for letter, seed in (("a", 1), ("b", 2), ("c", 3)):
        scored(world, letter, seed=seed)
    organizer_grant(user=world.organizer, competition=world.competition)
    client.force_login(world.organizer)
    response = client.post(
        reverse("admin:competitions_round_changelist"),
        {"action": "freeze", "_selected_action": [world.round.pk]},
        follow=True,
    )
    assert f"{world.round}: freeze started." in response.content.decode()
    operation = RoundOperation.objects.get(round=world.round)
    done = wait_finished(operation.pk)
    assert (done.status, done.progress_done, done.progress_total, done.attempts) == (
        Status.FINISHED,
        3,
        3,
        1,
    )
    assert done.worker.startswith("test-worker-") and done.requested_by == world.organizer
    assert wait_builtins(world.round) == [Status.FINISHED] * 3
    summary = client.get(
        reverse("operations_json", args=[world.competition.slug, world.round.slug])
    ).json()
    assert summary["builtin"]["finished"] == 3
    assert [(o["kind"], o["status"], o["done"]) for o in summary["operations"]] == [
        ("freeze", "finished", 3)
    ]


def test_the_commands_wait_for_the_worker(world, capsys, celery_worker_process):
    scored(world, "a", seed=1)
    call_command("freeze_round", world.competition.slug, world.round.slug, "--wait")
    out = capsys.readouterr().out
    assert f"{world.round}: freeze started. (operation " in out
    assert "Finished: published=1, targets=1, unchanged=0" in out
    assert Target.objects.get(round=world.round).version == 1
    call_command("rescore_round", world.competition.slug, world.round.slug, "--wait")
    assert "Finished: anonymizations=1, attacks=0, targets=1" in (capsys.readouterr().out)


def _pool_children(worker) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(worker.pid)], capture_output=True, text=True)
    return [int(pid) for pid in found.stdout.split()]


def test_a_worker_killed_mid_freeze_is_replaced_and_the_freeze_completes_with_the_same_targets(
    make_world, celery_worker_process
):
    """The freeze's message comes back with the same task id (acks_late), the RUNNING
    operation is taken over, and what it had published stays published as it was."""
    world = make_world(slug="killed", rows=32561)  # the full Adult table: a slow publish
    for letter, seed in (("a", 1), ("b", 2), ("c", 3)):
        scored(world, letter, seed=seed)
    children = wait_for(lambda: _pool_children(celery_worker_process), what="a pool process")
    operation = services.round_freeze_request(round=world.round)
    wait_for(
        lambda: RoundOperation.objects.filter(
            pk=operation.pk, status=Status.RUNNING, progress_done__gte=1
        ).exists(),
        interval=0.005,
        what="the freeze to publish its first target",
    )
    before = {
        t.pk: (t.team_id, t.published_file.name, t.truth_file.name, t.version)
        for t in Target.objects.filter(round=world.round)
    }
    for pid in children:
        os.kill(pid, signal.SIGKILL)
    done = wait_finished(operation.pk)
    assert (done.status, done.attempts, done.progress_done, done.progress_total) == (
        Status.FINISHED,
        2,
        3,
        3,
    )
    assert done.result["targets"] == 3 and done.result["unchanged"] >= len(before) >= 1
    targets = Target.objects.filter(round=world.round)
    assert sorted(t.team_id for t in targets) == sorted(t.pk for t in world.teams.values())
    after = {
        t.pk: (t.team_id, t.published_file.name, t.truth_file.name, t.version) for t in targets
    }
    for pk, published in before.items():
        assert after[pk] == published  # not published again
    assert {t.version for t in targets} == {1}
    assert wait_builtins(world.round) == [Status.FINISHED] * 3
    assert _pool_children(celery_worker_process) != children
