"""Windows, quotas and size limits, enforced on the server (a script posting directly)."""

import datetime as dt
import zoneinfo
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.services import phase_set
from pwscup.core.errors import Refused
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission
from pwscup.submissions.models import Status
from tests.pwscup.factories import answer_bytes, freeze, score, scored, truth_of, upload
from tests.support import csv_upload, noisy_copy

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")


def stored_files() -> set[Path]:
    root = Path(settings.MEDIA_ROOT) / "private" / "uploads"
    return {p for p in root.rglob("*") if p.is_file()} if root.exists() else set()


def post_upload(client, world, content: bytes, *, as_json: bool = True, name="anonymized.csv"):
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    extra = JSON if as_json else {}
    return client.post(url, {"file": csv_upload(content, name)}, **extra)


def assert_refused(response, status: int, *words: str):
    assert response.status_code == status, response.content
    error = response.json()["error"]
    for word in words:
        assert word in error, error
    return error


@pytest.fixture
def team_a(client, world):
    client.force_login(world.users["a"])
    return client


def test_accepted_upload_answers_202_json_with_the_id(world, team_a):
    response = post_upload(team_a, world, noisy_copy(world.original, seed=1))
    assert response.status_code == 202
    body = response.json()
    submission = AnonymizationSubmission.objects.get(pk=body["id"])
    assert body["status"] == Status.QUEUED == submission.status
    assert submission.team == world.teams["a"]


def test_browser_upload_redirects_back_to_the_submit_tab(world, team_a):
    before = stored_files()
    response = post_upload(team_a, world, noisy_copy(world.original, seed=1), as_json=False)
    assert response.status_code == 302
    assert response["Location"] == tab_url(world.round, SUBMIT)
    assert AnonymizationSubmission.objects.count() == 1
    assert len(stored_files() - before) == 1


def test_upload_before_the_window_opens_is_refused_and_nothing_stored(world, team_a):
    now = timezone.now()
    phase_set(
        round=world.round,
        kind=world.anonymization.kind,
        opens_at=now + dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(hours=5),
    )
    before = stored_files()
    response = post_upload(team_a, world, noisy_copy(world.original, seed=1))
    assert_refused(response, 403, "opens at", "Asia/Tokyo")
    assert AnonymizationSubmission.objects.count() == 0
    assert stored_files() == before
    # The browser form gets the same refusal as a message, and nothing stored either.
    response = post_upload(team_a, world, noisy_copy(world.original, seed=1), as_json=False)
    assert response.status_code == 302
    assert AnonymizationSubmission.objects.count() == 0


def test_upload_after_the_window_closed_is_refused_and_nothing_stored(make_world, client):
    world = make_world(anonymization_open=False)
    client.force_login(world.users["a"])
    before = stored_files()
    response = post_upload(client, world, noisy_copy(world.original, seed=1))
    error = assert_refused(response, 403, "closed at")
    closes = world.anonymization.closes_at.astimezone(TOKYO)
    assert f"{closes:%Y-%m-%d %H:%M}" in error
    assert AnonymizationSubmission.objects.count() == 0
    assert stored_files() == before


def test_one_second_before_the_end_is_accepted_and_at_the_end_refused(world):
    closes = world.anonymization.closes_at
    upload(world, "a", noisy_copy(world.original, seed=1), now=closes - dt.timedelta(seconds=1))
    with pytest.raises(Refused) as refusal:
        upload(world, "a", noisy_copy(world.original, seed=2), now=closes)
    assert refusal.value.status == 403
    assert AnonymizationSubmission.objects.count() == 1


def test_daily_limit_refuses_the_next_upload_with_the_reset_time(make_world, client):
    world = make_world(daily_limit=2)
    client.force_login(world.users["a"])
    for seed in (1, 2):
        assert post_upload(client, world, noisy_copy(world.original, seed=seed)).status_code == 202
    before = stored_files()
    error = assert_refused(
        post_upload(client, world, noisy_copy(world.original, seed=3)), 429, "2", "resets at"
    )
    tomorrow = timezone.now().astimezone(TOKYO).date() + dt.timedelta(days=1)
    assert f"{tomorrow:%Y-%m-%d} 00:00 (Asia/Tokyo)" in error
    assert AnonymizationSubmission.objects.count() == 2
    assert stored_files() == before
    # The limit is per team: team B still uploads.
    client.force_login(world.users["b"])
    assert post_upload(client, world, noisy_copy(world.original, seed=4)).status_code == 202


def test_total_limit_refuses_the_next_upload(make_world, client):
    world = make_world(total_limit=2)
    client.force_login(world.users["a"])
    for seed in (1, 2):
        assert post_upload(client, world, noisy_copy(world.original, seed=seed)).status_code == 202
    assert_refused(post_upload(client, world, noisy_copy(world.original, seed=3)), 429, "all 2")
    assert AnonymizationSubmission.objects.filter(team=world.teams["a"]).count() == 2


def test_failed_uploads_do_not_use_up_the_quota(make_world, client):
    world = make_world(daily_limit=1, total_limit=1)
    client.force_login(world.users["a"])
    invalid = world.original.replace(b"State-gov", b"Moon-gov", 1)
    for _ in range(3):
        response = post_upload(client, world, invalid)
        assert response.status_code == 202
        assert score(AnonymizationSubmission.objects.get(pk=response.json()["id"])).status == (
            Status.FAILED
        )
    response = post_upload(client, world, noisy_copy(world.original, seed=1))
    assert response.status_code == 202
    # A queued (not yet scored) upload counts: it may well be valid.
    assert_refused(post_upload(client, world, noisy_copy(world.original, seed=2)), 429)
    assert AnonymizationSubmission.objects.exclude(status=Status.FAILED).count() == 1


def test_daily_count_resets_at_midnight_in_the_rounds_time_zone(world):
    """Tokyo is UTC+9: two uploads on one Tokyo day straddle a UTC midnight and vice versa."""
    now = timezone.now()
    phase_set(
        round=world.round,
        kind=world.anonymization.kind,
        opens_at=now - dt.timedelta(days=1),
        closes_at=now + dt.timedelta(days=5),
        daily_limit=1,
    )
    world.anonymization.refresh_from_db()
    day = now.astimezone(TOKYO).date() + dt.timedelta(days=2)

    def tokyo(days: int, hour: int, minute: int = 0) -> dt.datetime:
        return dt.datetime.combine(day + dt.timedelta(days=days), dt.time(hour, minute), TOKYO)

    # 00:30 and 09:30 Tokyo are on different UTC days but the same Tokyo day: refused.
    upload(world, "a", noisy_copy(world.original, seed=1), now=tokyo(0, 0, 30))
    with pytest.raises(Refused) as refusal:
        upload(world, "a", noisy_copy(world.original, seed=2), now=tokyo(0, 9, 30))
    assert refusal.value.status == 429
    assert f"{day + dt.timedelta(days=1):%Y-%m-%d} 00:00 (Asia/Tokyo)" in refusal.value.message
    # 23:59 Tokyo is still that day: refused.
    with pytest.raises(Refused):
        upload(world, "a", noisy_copy(world.original, seed=3), now=tokyo(0, 23, 59))
    # 00:01 the next Tokyo day (still the same UTC day as 09:30 Tokyo): accepted.
    upload(world, "a", noisy_copy(world.original, seed=4), now=tokyo(1, 0, 1))
    assert AnonymizationSubmission.objects.filter(team=world.teams["a"]).count() == 2


def test_oversize_file_is_refused_with_413_and_nothing_stored(world, team_a):
    content = noisy_copy(world.original, seed=1)
    before = stored_files()
    with override_settings(PWSCUP_MAX_UPLOAD_BYTES=len(content) - 1):
        response = post_upload(team_a, world, content)
        assert_refused(response, 413, str(len(content)), str(len(content) - 1))
    assert AnonymizationSubmission.objects.count() == 0
    assert stored_files() == before
    with override_settings(PWSCUP_MAX_UPLOAD_BYTES=len(content)):
        assert post_upload(team_a, world, content).status_code == 202


def test_empty_or_missing_file_is_refused(world, team_a):
    assert_refused(post_upload(team_a, world, b""), 400)
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    response = team_a.post(url, {}, **JSON)
    assert response.status_code == 400
    assert response.json()["error"].startswith("Anonymized CSV:")  # names the missing field
    assert AnonymizationSubmission.objects.count() == 0


def test_only_team_members_can_upload(world, client):
    content = noisy_copy(world.original, seed=1)
    # A visitor is sent to the login page.
    response = post_upload(client, world, content)
    assert response.status_code == 302 and "login" in response["Location"]
    # An organizer without a team is refused.
    client.force_login(world.organizer)
    assert_refused(post_upload(client, world, content), 403)
    assert AnonymizationSubmission.objects.count() == 0
    # GET is not an upload.
    client.force_login(world.users["a"])
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    opened = client.get(url, HTTP_ACCEPT_LANGUAGE="ja")
    assert opened.status_code == 405 and opened["Allow"] == "POST"
    # A page, not a blank screen: what the address is for, and the way back to its round.
    page = opened.content.decode()
    assert 'data-testid="error-405"' in page and "直接開くページではありません" in page
    round_url = reverse("round_detail", args=[world.competition.slug, world.round.slug])
    assert f'href="{round_url}" data-testid="back-to-round"' in page
    assert AnonymizationSubmission.objects.count() == 0


# --- the attack phase has the same guards ---------------------------------------------------


def attack_post(client, world, target, content: bytes):
    url = reverse("attack_upload", args=[world.competition.slug, world.round.slug])
    data = {"target": str(target.pk), "file": csv_upload(content, "attack.csv")}
    return client.post(url, data, **JSON)


def test_attack_upload_outside_its_window_is_refused(world, client):
    scored(world, "a", seed=1)
    targets = freeze(world)
    answer = answer_bytes(truth_of(targets["a"]))
    client.force_login(world.users["b"])
    now = timezone.now()
    for opens, closes, words in (
        (now + dt.timedelta(hours=1), now + dt.timedelta(hours=2), "opens at"),
        (now - dt.timedelta(hours=2), now - dt.timedelta(hours=1), "closed at"),
    ):
        phase_set(round=world.round, kind=world.attack.kind, opens_at=opens, closes_at=closes)
        assert_refused(attack_post(client, world, targets["a"], answer), 403, words)
    assert AttackSubmission.objects.count() == 0
    phase_set(
        round=world.round,
        kind=world.attack.kind,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(hours=1),
        daily_limit=1,
    )
    assert attack_post(client, world, targets["a"], answer).status_code == 202
    assert_refused(attack_post(client, world, targets["a"], answer), 429)
    assert AttackSubmission.objects.count() == 1


def test_no_anonymization_upload_once_the_round_is_frozen(world, team_a):
    """Freezing fixes each team's final anonymization: a later upload would silently change
    the 'last valid' submission that the leaderboard shows but the target does not."""
    scored(world, "a", seed=1)
    freeze(world)
    assert world.anonymization.is_open()
    before = stored_files()
    assert_refused(post_upload(team_a, world, noisy_copy(world.original, seed=2)), 403, "closed")
    assert AnonymizationSubmission.objects.count() == 1
    assert stored_files() == before
    # The round page's Submit tab no longer offers the upload form either.
    page = team_a.get(tab_url(world.round, SUBMIT))
    assert 'data-testid="frozen"' in page.content.decode()
    assert 'data-testid="upload-form"' not in page.content.decode()
