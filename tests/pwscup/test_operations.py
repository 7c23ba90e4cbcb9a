"""Freeze, rescore and publish as background operations (run here in process; the real
worker runs them in ``test_operations_worker.py``)."""

import datetime as dt
import threading

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

import scoring
from pwscup import celery_app
from pwscup.accounts.services import organizer_grant
from pwscup.competitions.models import Round
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission, RoundOperation, Target
from pwscup.pwscup2015.selectors import target_truth
from pwscup.pwscup2015.services import freeze as freeze_module
from pwscup.pwscup2015.services import operations
from pwscup.submissions.models import Status
from pwscup.submissions.services import maintenance
from pwscup.submissions.services.jobs import job_claim
from pwscup.submissions.services.maintenance import jobs_reap
from tests.pwscup.factories import read_field, run_operations, scored
from tests.pwscup.races import waiting_on_a_lock
from tests.support import wait_for

pytestmark = pytest.mark.django_db

FREEZE = RoundOperation.Kind.FREEZE


def tasks_sent(callbacks) -> list:
    """The on-commit callbacks that send a job's message (others may invalidate caches)."""
    return [c for c in callbacks if c.__qualname__.startswith("job_send.")]


def test_a_freeze_request_returns_at_once_and_asking_again_returns_the_same_operation(
    world, django_capture_on_commit_callbacks
):
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = services.round_freeze_request(round=world.round, requested_by=world.organizer)
        again = services.round_freeze_request(round=world.round)
    assert (first.status, first.created, first.requested_by) == (
        Status.QUEUED,
        True,
        world.organizer,
    )
    assert (again.pk, again.created) == (first.pk, False)
    assert len(tasks_sent(callbacks)) == 1  # one job message for the two requests
    assert not Target.objects.exists() and world.round.pwscup2015.frozen_at is None

    (done,) = run_operations()
    assert (done.pk, done.status, done.progress_done, done.progress_total, done.attempts) == (
        first.pk,
        Status.FINISHED,
        2,
        2,
        1,
    )
    assert done.result == {"targets": 2, "published": 2, "unchanged": 0}
    assert done.finished_at is not None and done.message == ""
    world.round.refresh_from_db()
    assert world.round.pwscup2015.frozen_at == done.created_at  # frozen as of the request
    assert Target.objects.filter(round=world.round).count() == 2
    # Finished: a new request is a new operation; nothing changed, nothing republished.
    later = services.round_freeze_request(round=world.round)
    assert later.pk != first.pk and later.created
    (refrozen,) = run_operations()
    assert refrozen.result == {"targets": 2, "published": 0, "unchanged": 2}
    assert set(Target.objects.values_list("version", flat=True)) == {1}


def test_two_simultaneous_requests_make_one_operation(world, monkeypatch):
    """The partial unique constraint decides when both requests saw no operation."""
    first = services.round_freeze_request(round=world.round)
    seen = []

    def nothing_yet(*, round, kind):
        seen.append(kind)
        if len(seen) == 1:
            return None  # as if this request had looked before the other one committed
        return RoundOperation.objects.get(round=round, kind=kind, status=Status.QUEUED)

    monkeypatch.setattr(operations, "_active_operation", nothing_yet)
    second = services.round_freeze_request(round=world.round)
    assert second.pk == first.pk and seen == [FREEZE, FREEZE]
    assert RoundOperation.objects.count() == 1
    monkeypatch.undo()
    # Another kind is another operation.
    assert services.round_rescore_request(round=world.round).pk != first.pk


def test_a_run_taken_over_stops_and_the_next_run_ends_with_the_same_targets(world, monkeypatch):
    for letter, seed in (("a", 1), ("b", 2), ("c", 3)):
        scored(world, letter, seed=seed)
    operation = services.round_freeze_request(round=world.round)
    publish = operations.target_publish
    published = []

    def publish_then_lose_the_run(**kwargs):
        target = publish(**kwargs)
        published.append((target.pk, target.published_file.name, target.version))
        if len(published) == 1:
            # Meanwhile the reaper found this run's worker gone and requeued it.
            RoundOperation.objects.filter(pk=operation.pk).update(status=Status.QUEUED)
        return target

    monkeypatch.setattr(operations, "target_publish", publish_then_lose_the_run)
    services.round_operation_run(operation_id=operation.pk)
    stopped = RoundOperation.objects.get(pk=operation.pk)
    assert (stopped.status, stopped.progress_done, stopped.result) == (Status.QUEUED, 0, {})
    assert Target.objects.count() == 1  # it stopped at its next step
    first_target = published[0]

    monkeypatch.setattr(operations, "target_publish", publish)
    services.round_operation_run(operation_id=operation.pk)
    done = RoundOperation.objects.get(pk=operation.pk)
    assert (done.status, done.attempts, done.progress_done) == (Status.FINISHED, 2, 3)
    assert done.result == {"targets": 3, "published": 2, "unchanged": 1}
    kept = Target.objects.get(pk=first_target[0])
    assert (kept.pk, kept.published_file.name, kept.version) == first_target


def test_a_failing_freeze_fails_with_a_reason(world, monkeypatch):
    scored(world, "a", seed=1)
    operation = services.round_freeze_request(round=world.round)

    def broken(**kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(operations, "target_publish", broken)
    services.round_operation_run(operation_id=operation.pk)
    failed = RoundOperation.objects.get(pk=operation.pk)
    assert (failed.status, failed.message_code, failed.message_params) == (
        Status.FAILED,
        "job.internal_error",
        {"kind": "OSError"},
    )
    assert services.round_freeze_request(round=world.round).pk != operation.pk


def test_rescore_and_publish_operations(world):
    submission = scored(world, "a", seed=1)
    services.round_freeze(round=world.round)
    services.round_rescore_request(round=world.round)
    (rescore,) = run_operations()
    assert (rescore.status, rescore.progress_done, rescore.progress_total) == (
        Status.FINISHED,
        2,
        2,
    )
    assert rescore.result == {"anonymizations": 1, "targets": 1, "attacks": 0}
    assert AnonymizationSubmission.objects.get(pk=submission.pk).status == Status.QUEUED
    services.round_publish_request(round=world.round)
    world.round.refresh_from_db()
    assert not world.round.pwscup2015.results_published  # not before a worker runs it
    (publish,) = run_operations()
    world.round.refresh_from_db()
    assert (publish.status, publish.progress_done, world.round.pwscup2015.results_published) == (
        Status.FINISHED,
        1,
        True,
    )


def test_the_reaper_requeues_an_operation_whose_worker_is_gone(
    world, monkeypatch, django_capture_on_commit_callbacks
):
    operation = services.round_freeze_request(round=world.round)
    half_a_minute_ago = timezone.now() - dt.timedelta(seconds=30)
    job_claim(
        model=RoundOperation, pk=operation.pk, now=half_a_minute_ago, task_id="t1", worker="w1@h"
    )
    monkeypatch.setattr(maintenance.broker, "worker_census", lambda: {"reaper@h": {"r"}})
    with django_capture_on_commit_callbacks() as callbacks:
        counts = jobs_reap(worker="reaper@h")
    assert counts["requeued"] == 1 and len(tasks_sent(callbacks)) == 1
    operation.refresh_from_db()
    assert (operation.status, operation.worker, operation.attempts) == (Status.QUEUED, "", 1)
    (done,) = run_operations()
    assert (done.status, done.attempts) == (Status.FINISHED, 2)


def test_the_automatic_freeze_asks_once_for_an_operation(make_world):
    closed = make_world(slug="closed", anonymization_open=False)
    assert services.rounds_auto_freeze() == [closed.round.pk]
    assert services.rounds_auto_freeze() == []  # its freeze is queued: not asked again
    (operation,) = RoundOperation.objects.all()
    assert (operation.kind, operation.requested_by) == (FREEZE, None)


def test_the_organizer_follows_the_progress_on_the_admin_page_and_the_json(world, client):
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    organizer_grant(user=world.organizer, competition=world.competition)
    client.force_login(world.organizer)
    response = client.post(
        reverse("admin:competitions_round_changelist"),
        {"action": "freeze", "_selected_action": [world.round.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert f"{world.round}: freeze started." in page
    change_url = reverse("admin:competitions_round_change", args=[world.round.pk])
    assert f'<a href="{change_url}#operations">Follow its progress</a>' in page
    assert "Freeze</strong>: Queued" in client.get(change_url).content.decode()
    json_url = reverse("operations_json", args=[world.competition.slug, world.round.slug])
    queued = client.get(json_url).json()
    assert [(o["kind"], o["status"], o["active"]) for o in queued["operations"]] == [
        ("freeze", "queued", True)
    ]
    assert queued["frozen_at"] is None and queued["builtin"]["targets"] == 0

    run_operations()
    page = client.get(change_url).content.decode()
    assert "Freeze</strong>: Finished — 2 of 2 done" in page
    assert "Built-in attacks: 0 of 2 targets scored (0 failed)." in page
    for target in Target.objects.all():
        services.target_builtin_score(target_id=target.pk)
    done = client.get(json_url)
    # Never stored (the progress changes); private too, as every answer to a logged-in user.
    assert set(done["Cache-Control"].split(", ")) == {"no-store", "private"}
    summary = done.json()
    (freeze,) = summary["operations"]
    assert (freeze["status"], freeze["done"], freeze["total"], freeze["active"]) == (
        "finished",
        2,
        2,
        False,
    )
    assert freeze["result"] == {"targets": 2, "published": 2, "unchanged": 0}
    assert summary["builtin"] == {
        "targets": 2,
        "queued": 0,
        "running": 0,
        "finished": 2,
        "failed": 0,
    }
    assert summary["frozen_at"] is not None and summary["results_published"] is False
    matrix = client.get(reverse("matrix", args=[world.competition.slug, world.round.slug]))
    assert "Built-in attacks: 2 of 2 targets scored (0 failed)." in matrix.content.decode()


def test_the_progress_panel_is_for_organizers_only(world, client):
    scored(world, "a", seed=1)
    services.round_freeze_request(round=world.round)
    run_operations()
    world.round.pwscup2015.results_published = True
    world.round.pwscup2015.save(update_fields=["results_published"])
    args = [world.competition.slug, world.round.slug]
    client.force_login(world.users["b"])
    for name in ("matrix", "final_ranking"):
        page = client.get(reverse(name, args=args)).content.decode()
        assert 'data-testid="operations"' not in page
    client.force_login(world.organizer)
    for name in ("matrix", "final_ranking"):
        page = client.get(reverse(name, args=args)).content.decode()
        assert 'data-testid="operation-freeze" data-status="finished"' in page


def test_asking_while_running_says_so_with_the_progress(world, client):
    scored(world, "a", seed=1)
    organizer_grant(user=world.organizer, competition=world.competition)
    operation = services.round_freeze_request(round=world.round)
    job_claim(model=RoundOperation, pk=operation.pk, task_id="t1", worker="w1@h")
    RoundOperation.objects.filter(pk=operation.pk).update(progress_total=5, progress_done=2)
    client.force_login(world.organizer)
    response = client.post(
        reverse("admin:competitions_round_changelist"),
        {"action": "freeze", "_selected_action": [world.round.pk]},
        follow=True,
    )
    assert f"{world.round}: Freeze is already under way (2 of 5 done)." in (
        response.content.decode()
    )
    assert RoundOperation.objects.count() == 1


def test_the_built_in_attacks_of_every_target_share_one_prepared_reference(world, monkeypatch):
    """The original is loaded once per worker process for all targets of a freeze, and
    the rates are those of the reference read afresh for each target."""
    for letter, seed in (("a", 1), ("b", 2), ("c", 3)):
        scored(world, letter, seed=seed, delete=seed)
    services.round_freeze(round=world.round)
    freeze_module._REFERENCE.clear()
    loads = []
    load_table = freeze_module.scoring.load_table
    monkeypatch.setattr(
        freeze_module.scoring,
        "load_table",
        lambda *args, **kwargs: loads.append(kwargs.get("name")) or load_table(*args, **kwargs),
    )
    targets = list(Target.objects.select_related("round").order_by("pk"))
    for target in targets:
        services.target_builtin_score(target_id=target.pk)
    assert loads == [world.round.original_file.name]
    original = scoring.read_table(world.original)
    config = scoring.load_config(world.round.config, original)
    for target in targets:
        target.refresh_from_db()
        published = scoring.read_table(read_field(target.published_file))
        expected = scoring.builtin_attack_rates(
            original, published, target_truth(target=target), config
        )
        assert target.builtin.status == Status.FINISHED
        assert {k: target.builtin.rates[k] for k in expected} == pytest.approx(expected)


@pytest.mark.django_db(transaction=True)
def test_a_freeze_job_waits_for_another_freeze_holding_the_round(world, monkeypatch):
    """Concurrent freezes serialise on the round's row lock: once another freeze
    (``round_freeze``) holds the round, the job publishes nothing more until it is done.
    A freeze again after the teams' final choices changed: it republishes (updates) the
    targets, which a lock on the round's row alone stops."""
    first = {}
    for letter, seed in (("a", 1), ("b", 2), ("c", 3)):
        first[letter] = scored(world, letter, seed=seed)
        scored(world, letter, seed=seed + 10)
    services.round_freeze(round=world.round)  # publishes the latest of each team
    AnonymizationSubmission.objects.filter(pk__in=[s.pk for s in first.values()]).update(
        is_selected=True
    )
    operation = services.round_freeze_request(round=world.round)
    first_published, held, release = threading.Event(), threading.Event(), threading.Event()
    publish = operations.target_publish

    def publish_then_let_the_other_freeze_in(**kwargs):
        target = publish(**kwargs)
        if not first_published.is_set():
            # Once this step has committed (and released the round), the other freeze
            # takes the round before the job goes on.
            transaction.on_commit(lambda: first_published.set() or held.wait(10))
        return target

    monkeypatch.setattr(operations, "target_publish", publish_then_let_the_other_freeze_in)

    def other_freeze():
        try:
            assert first_published.wait(30)
            with transaction.atomic():
                Round.objects.select_for_update().get(pk=world.round.pk)
                held.set()
                release.wait(30)
        finally:
            connection.close()

    def job():
        try:
            services.round_operation_run(operation_id=operation.pk)
        finally:
            connection.close()

    holder, runner = threading.Thread(target=other_freeze), threading.Thread(target=job)
    holder.start()
    runner.start()
    try:
        assert held.wait(30)
        # The job goes on and waits for the round (a lock wait, seen in PostgreSQL), having
        # published nothing more meanwhile.
        wait_for(lambda: waiting_on_a_lock() >= 1, timeout=60, what="the job to wait")
        waiting = RoundOperation.objects.get(pk=operation.pk)
        assert (waiting.status, waiting.progress_done, waiting.progress_total) == (
            Status.RUNNING,
            1,
            3,
        )
        assert Target.objects.filter(round=world.round, version=2).count() == 1
    finally:
        release.set()
        holder.join(30)
        runner.join(60)
    done = RoundOperation.objects.get(pk=operation.pk)
    assert (done.status, done.progress_done, done.result["published"]) == (Status.FINISHED, 3, 3)
    assert sorted(Target.objects.values_list("submission_id", "version")) == sorted(
        (s.pk, 2) for s in first.values()
    )


def test_the_freeze_plan_reads_every_team_s_choice_in_four_queries(
    world, django_assert_num_queries
):
    """The phase, the round's game settings (its selection rule), every team's submission by
    the rule (one window query), the teams: as many queries for 3 teams as for 300."""
    chosen = {letter: scored(world, letter, seed=seed) for letter, seed in (("a", 1), ("c", 3))}
    round_ = Round.objects.get(pk=world.round.pk)
    with django_assert_num_queries(4):
        plan = freeze_module.freeze_plan(round=round_)
    assert [(team.pk, submission.pk) for team, submission in plan] == sorted(
        (world.teams[letter].pk, s.pk) for letter, s in chosen.items()
    )


def test_a_request_while_the_broker_is_down_is_kept_and_the_reaper_sends_it_later(
    world, monkeypatch, django_capture_on_commit_callbacks
):
    def broker_down(*args, **kwargs):
        raise ConnectionRefusedError("redis is down")

    monkeypatch.setattr(celery_app, "send_task", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        operation = services.round_freeze_request(round=world.round)
    assert operation.dispatch.sent is False
    assert RoundOperation.objects.get(pk=operation.pk).status == Status.QUEUED
    # The broker is back, empty: the reaper sends the operation's message again.
    sent = []
    monkeypatch.setattr(celery_app, "send_task", lambda task, args, **options: sent.append(args))
    later = timezone.now() + dt.timedelta(seconds=settings.PWSCUP_QUEUED_RESEND_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs_reap(now=later)["resent"] == 1
    assert sent == [(operation.pk,)]
    (done,) = run_operations()
    assert done.status == Status.FINISHED
