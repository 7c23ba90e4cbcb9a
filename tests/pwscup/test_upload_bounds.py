"""Failed uploads are free of the quota but bounded: per team per day, and bytes per team."""

import datetime as dt
import zoneinfo

import pytest
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.services import phase_set
from pwscup.core.errors import Refused
from pwscup.presentations.models import Slides
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import team_uploads_held
from tests.pwscup.factories import score, upload
from tests.pwscup.presentations_support import upload as upload_slides
from tests.pwscup.presentations_support import window_for
from tests.pwscup.test_quotas_and_deadlines import stored_files
from tests.support import csv_upload, noisy_copy

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")


def post_upload(client, world, content: bytes):
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    return client.post(url, {"file": csv_upload(content, "anonymized.csv")}, **JSON)


def invalid_copy(world) -> bytes:
    return world.original.replace(b"State-gov", b"Moon-gov", 1)


def test_the_defaults_are_fifty_failed_uploads_a_day_and_two_gib_per_team():
    assert settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY == 50
    assert settings.PWSCUP_MAX_STORED_BYTES_PER_TEAM == 2 * 1024**3


def test_failed_uploads_are_capped_per_team_per_day(make_world, client, settings):
    settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY = 3
    world = make_world(daily_limit=1)
    client.force_login(world.users["a"])
    for _ in range(3):
        response = post_upload(client, world, invalid_copy(world))
        assert response.status_code == 202
        assert score(AnonymizationSubmission.objects.get(pk=response.json()["id"])).status == (
            Status.FAILED
        )
    before = stored_files()
    # Even a valid file, with the daily quota untouched (failed uploads cost none), is refused.
    response = post_upload(client, world, noisy_copy(world.original, seed=1))
    assert response.status_code == 429
    tomorrow = timezone.now().astimezone(TOKYO).date() + dt.timedelta(days=1)
    assert response.json()["error"] == (
        "Your team has had 3 failed uploads today, the most allowed; uploads are accepted "
        f"again at {tomorrow:%Y-%m-%d} 00:00 (Asia/Tokyo). Check your file with the scoring "
        "command-line tool first (python -m scoring check)."
    )
    assert stored_files() == before
    assert AnonymizationSubmission.objects.filter(team=world.teams["a"]).count() == 3
    # Per team: team B still uploads.
    client.force_login(world.users["b"])
    assert post_upload(client, world, noisy_copy(world.original, seed=2)).status_code == 202


def test_the_failed_upload_cap_resets_at_midnight_in_the_rounds_time_zone(world, settings):
    settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY = 1
    now = timezone.now()
    phase_set(
        round=world.round,
        kind=world.anonymization.kind,
        opens_at=now - dt.timedelta(days=1),
        closes_at=now + dt.timedelta(days=5),
    )
    world.anonymization.refresh_from_db()
    day = now.astimezone(TOKYO).date() + dt.timedelta(days=2)

    def tokyo(days: int, hour: int, minute: int = 0) -> dt.datetime:
        return dt.datetime.combine(day + dt.timedelta(days=days), dt.time(hour, minute), TOKYO)

    # 00:30 Tokyo fails; 23:59 the same Tokyo day (another UTC day) is refused.
    score(upload(world, "a", invalid_copy(world), now=tokyo(0, 0, 30)))
    with pytest.raises(Refused) as refusal:
        upload(world, "a", noisy_copy(world.original, seed=1), now=tokyo(0, 23, 59))
    assert refusal.value.status == 429
    assert f"{day + dt.timedelta(days=1):%Y-%m-%d} 00:00 (Asia/Tokyo)" in refusal.value.message
    # 00:01 the next Tokyo day: accepted.
    upload(world, "a", noisy_copy(world.original, seed=2), now=tokyo(1, 0, 1))
    assert AnonymizationSubmission.objects.filter(team=world.teams["a"]).count() == 2


def test_stored_bytes_are_capped_per_team(world, client, settings):
    first = noisy_copy(world.original, seed=1)
    second = invalid_copy(world)
    third = noisy_copy(world.original, seed=3)
    settings.PWSCUP_MAX_STORED_BYTES_PER_TEAM = len(first) + len(second) + len(third) - 1
    client.force_login(world.users["a"])
    assert post_upload(client, world, first).status_code == 202
    response = post_upload(client, world, second)
    assert response.status_code == 202
    score(AnonymizationSubmission.objects.get(pk=response.json()["id"]))  # failed ones count too
    before = stored_files()
    response = post_upload(client, world, third)
    assert response.status_code == 413
    stored = filesizeformat(len(first) + len(second))
    limit = filesizeformat(settings.PWSCUP_MAX_STORED_BYTES_PER_TEAM)
    assert response.json()["error"] == (
        f"Your team's uploads already take {stored} of the {limit} the platform keeps per "
        f"team; this file ({filesizeformat(len(third))}) does not fit. Ask the organizers "
        "for room."
    )
    assert stored_files() == before
    # Per team: team B has its own room.
    client.force_login(world.users["b"])
    assert post_upload(client, world, third).status_code == 202


def test_the_team_wide_bounds_are_read_in_one_query_over_every_kind_s_uploads(
    world, django_assert_num_queries
):
    """``team_uploads_held``: the failed uploads since a time and the bytes kept, summed over
    every upload model (here the 2015 kind's and the slides), the team's only."""
    window = window_for(world)
    slides = upload_slides(world, window)
    kept = [upload(world, "a", noisy_copy(world.original, seed=seed)) for seed in (1, 2, 3)]
    since = timezone.now() - dt.timedelta(hours=1)
    failed, earlier, finished = (row.pk for row in kept)
    AnonymizationSubmission.objects.filter(pk__in=[failed, earlier]).update(status=Status.FAILED)
    AnonymizationSubmission.objects.filter(pk=earlier).update(
        created_at=since - dt.timedelta(minutes=1)
    )
    AnonymizationSubmission.objects.filter(pk=finished).update(status=Status.FINISHED)
    Slides.objects.filter(pk=slides.pk).update(status=Status.FAILED)
    upload(world, "b", noisy_copy(world.original, seed=4))  # another team's
    with django_assert_num_queries(1):
        held = team_uploads_held(team=world.teams["a"], since=since)
    assert held.failed_since == 2  # the slides and one upload since ``since``; not the earlier
    assert held.stored_bytes == slides.size + sum(row.size for row in kept)
