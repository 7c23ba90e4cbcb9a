"""Imported competitions play: a 2015 round imported from a bundle is scored by the real
Celery worker; a demo bundle whose last round is broken leaves nothing in the bucket. The
demo's round trip and the same refusal on the local folder are read on the module-loaded
demo of test_load_demo_loaded.py."""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.bundles import services
from pwscup.bundles.selectors import competition_bundle
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.pwscup.bundle_helpers import (
    creator,
    demo_bundle_with_a_broken_last_round_leaves_nothing,
)
from tests.support import csv_upload, noisy_copy, wait_for


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_imported_2015_round_is_played_and_scored_by_the_worker(
    make_world, celery_worker_process
):
    world = make_world(slug="played")
    organizer = creator(world.organizer)
    data = competition_bundle(competition=world.competition).data
    # The bundle's anonymization phase opens at its start: start an hour ago, it is open.
    start = timezone.now() - dt.timedelta(hours=1)
    new = services.competition_import(
        bundle_file=io.BytesIO(data), name="Replayed", slug="replayed", start=start, user=organizer
    )
    team = team_create(competition=new, name="Newcomers", slug="newcomers")
    player = user_create(username="replayer", password="pw")
    membership_add(team=team, user=player)
    client = Client()
    client.force_login(player)
    response = client.post(
        reverse("anonymization_upload", args=["replayed", "r1"]),
        {"file": csv_upload(noisy_copy(world.original, seed=3)), "note": ""},
    )
    assert response.status_code in (200, 302)
    submission = AnonymizationSubmission.objects.get(team=team)
    assert submission.phase.round.competition == new
    wait_for(
        lambda: AnonymizationSubmission.objects.filter(
            pk=submission.pk, status__in=[Status.FINISHED, Status.FAILED]
        ).exists(),
        timeout=120,
        what="the worker to score the imported round's upload",
    )
    submission.refresh_from_db()
    assert submission.status == Status.FINISHED, submission.message
    assert submission.worker.startswith("test-worker-")
    assert {"U1", "U5"} <= set(submission.scores)
    client.force_login(organizer)  # the bundle's leaderboards are not public
    leaderboard = client.get(reverse("leaderboard", args=["replayed", "r1"]))
    assert leaderboard.status_code == 200 and "Newcomers" in leaderboard.content.decode()


@pytest.mark.django_db
def test_a_demo_bundle_whose_last_round_fails_leaves_nothing_in_the_bucket(s3_bucket):
    """The demo loaded with its files in the bucket (the same check on the local folder runs
    on the module-loaded demo of test_load_demo_loaded.py)."""
    call_command("load_demo")
    demo_bundle_with_a_broken_last_round_leaves_nothing()
