"""Promises of the README that had no test: one team per account and competition (the
database enforces it), the admin's draw-samples action, and a quota of one under two
simultaneous uploads (real PostgreSQL transactions in two threads)."""

import threading
import time

import pytest
from django.db import IntegrityError, connections, transaction
from django.urls import reverse

from pwscup.accounts.models import Membership
from pwscup.accounts.services import membership_add, team_create
from pwscup.core.errors import Refused
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission, TeamDataset
from pwscup.submissions.services import uploads
from tests.pwscup.brokers import broker_at
from tests.support import csv_upload, noisy_copy


@pytest.mark.django_db
def test_an_account_is_in_one_team_per_competition_enforced_by_the_database(world, make_world):
    user = world.users["a"]
    with pytest.raises(IntegrityError), transaction.atomic():
        # Straight to the database, past every service and form.
        Membership.objects.create(team=world.teams["b"], user=user, competition=world.competition)
    with pytest.raises(IntegrityError), transaction.atomic():
        membership_add(team=world.teams["c"], user=user)
    assert list(Membership.objects.filter(user=user).values_list("team__slug", flat=True)) == [
        "teamA"
    ]
    # Another competition is another matter: the same account may play there.
    other = make_world(slug="other")
    membership_add(team=other.teams["a"], user=user)
    assert Membership.objects.filter(user=user).count() == 2


@pytest.mark.django_db
def test_the_admin_draw_samples_action_draws_for_teams_without_one(make_world, client):
    from django.contrib.auth import get_user_model

    world = make_world(data_mode="per_team")
    before = {d.team_id: d.sample_index for d in TeamDataset.objects.filter(round=world.round)}
    assert len(before) == 3
    newcomer = team_create(competition=world.competition, name="Team D", slug="teamD")
    admin = get_user_model().objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(admin)
    response = client.post(
        reverse("admin:competitions_round_changelist"),
        {"action": "draw_samples", "_selected_action": [world.round.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "Drew 1 samples." in response.content.decode()
    after = {d.team_id: d for d in TeamDataset.objects.filter(round=world.round)}
    assert set(after) == {*before, newcomer.pk}
    assert after[newcomer.pk].rows == 60 and len(set(after[newcomer.pk].sample_index)) == 60
    # The teams that had a sample keep it.
    assert {pk: after[pk].sample_index for pk in before} == before


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_uploads_against_a_quota_of_one_accept_exactly_one(
    make_world, monkeypatch
):
    world = make_world(slug="race", total_limit=1)
    checked = uploads.check_limits

    def slow_check(**kwargs):
        # Widen the window between reading the count and inserting the row: without the
        # team's row lock both uploads would pass the check.
        checked(**kwargs)
        time.sleep(0.5)

    monkeypatch.setattr(uploads, "check_limits", slow_check)
    start = threading.Barrier(2)
    outcomes = []
    sent = []

    def upload(seed: int) -> None:
        try:
            start.wait()
            submission = services.anonymization_submission_create(
                phase=world.anonymization,
                team=world.teams["a"],
                user=world.users["a"],
                uploaded_file=csv_upload(noisy_copy(world.original, seed=seed)),
            )
            outcomes.append("accepted")
            sent.append(submission.dispatch.sent)
        except Refused as refusal:
            outcomes.append(refusal.message)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=upload, args=(seed,)) for seed in (1, 2)]
    # The accepted upload commits and is sent to the broker. A session Celery worker started
    # by an earlier test would score it while this test's teardown empties the tables (a
    # failed flush, and rows left to the next test): send to a broker nobody answers, so the
    # job stays queued, as the upload service promises when the broker is down.
    with broker_at("redis://127.0.0.1:1/0"):
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert sorted(outcomes) == [
        "Your team has used all 1 submissions of this phase.",
        "accepted",
    ]
    assert AnonymizationSubmission.objects.filter(team=world.teams["a"]).count() == 1
    assert sent == [False], "the job went to the broker nobody answers, not the run's"
