"""Redis down costs no page and no upload: gunicorn and a Celery worker (with its beat) run
on a Redis server of the test's own, used as cache and broker as one REDIS_URL would; the
test kills it while a team is logged in and a visitor reads the leaderboard, then starts it
again, empty, and the uploads made meanwhile are scored."""

import re
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.pwscup.brokers import broker_at, start_worker, stop_worker, wait_for_worker
from tests.support import (
    child_env,
    free_port,
    gunicorn_command,
    http_status,
    noisy_copy,
    running,
    wait_for,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

RESEND_SECONDS = 3  # the worker's reaper sends a QUEUED job again after this long


@pytest.fixture
def site(redis_server, tmp_path):
    """gunicorn on the test's Redis (cache and broker), and a worker running the reaper."""
    port = free_port()
    redis = {"TEST_CACHE_URL": redis_server.url}
    env = child_env(broker_url=redis_server.url, GUNICORN_BIND=f"127.0.0.1:{port}", **redis)
    env.update(GUNICORN_WORKERS="1", GUNICORN_THREADS="4")
    base = f"http://127.0.0.1:{port}"
    name = f"outage-{port}@pwscup-test"
    log_path = Path(settings.MEDIA_ROOT) / f"outage-worker-{port}.log"
    with broker_at(redis_server.url):
        worker = start_worker(
            broker_url=redis_server.url,
            name=name,
            log_path=log_path,
            beat_interval=1,
            extra_env={**redis, "PWSCUP_QUEUED_RESEND_SECONDS": str(RESEND_SECONDS)},
        )
        try:
            wait_for_worker(worker, name, log_path)
            with running(
                gunicorn_command(),
                env=env,
                log_path=tmp_path / "gunicorn.log",
                ready=lambda: http_status(base + "/healthz") == 200,
                what="gunicorn to answer /healthz",
            ):
                yield base
        finally:
            stop_worker(worker)


def _logged_in(base: str, username: str) -> requests.Session:
    browser = requests.Session()
    login = base + reverse("login")
    page = browser.get(login, timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    answer = browser.post(
        login,
        {"username": username, "password": "pw", "csrfmiddlewaretoken": token},
        headers={"Referer": login},
        timeout=10,
    )
    assert answer.status_code == 200 and answer.url.rstrip("/") == base, answer.url
    return browser


def _upload_form(browser: requests.Session, base: str, round_url: str, content: bytes):
    """The Submit tab's upload form, posted as a browser does (back to Submit)."""
    page = browser.get(base + round_url + "submit/", timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    action = re.search(r'action="([^"]+)"[^>]*data-testid="upload-form"', page.text).group(1)
    return browser.post(
        base + action,
        data={"csrfmiddlewaretoken": token},
        files={"file": ("anonymized.csv", content, "text/csv")},
        headers={"Referer": base + round_url + "submit/"},
        timeout=30,
    )


def test_pages_and_uploads_survive_a_redis_outage(make_world, site, redis_server):
    world = make_world(leaderboard_public=True)
    round_url = reverse("round_detail", args=[world.competition.slug, world.round.slug])
    leaderboard = reverse("leaderboard", args=[world.competition.slug, world.round.slug])
    api_upload = reverse("api:submissions", args=[world.competition.slug, world.round.slug])
    secret = api_token_create(user=world.users["b"], name="script").secret
    team = _logged_in(site, world.users["a"].username)
    visitor = requests.Session()
    assert team.get(site + round_url, timeout=10).status_code == 200
    assert visitor.get(site + leaderboard, timeout=10).status_code == 200
    assert requests.get(site + "/healthz", timeout=10).json()["cache"] == "ok"

    redis_server.kill()  # cache, throttles and broker: all gone at once (sessions are not)
    for url in ("/", round_url, leaderboard):
        answer = team.get(site + url, timeout=30)
        assert answer.status_code == 200, (url, answer.status_code)
    page = team.get(site + round_url, timeout=30).text
    assert world.teams["a"].name in page  # still logged in: the session is in the database
    assert visitor.get(site + leaderboard, timeout=30).status_code == 200
    uploaded = _upload_form(team, site, round_url, noisy_copy(world.original, seed=1))
    assert uploaded.status_code == 200 and "queued" in uploaded.text
    by_api = requests.post(
        site + api_upload,
        headers={"Authorization": f"Bearer {secret}"},
        files={"file": ("anonymized.csv", noisy_copy(world.original, seed=2), "text/csv")},
        timeout=30,
    )
    assert by_api.status_code == 202, by_api.text
    health = requests.get(site + "/healthz", timeout=30)
    assert health.status_code == 503
    assert health.json()["cache"].startswith("error") and health.json()["broker"] != "ok"
    kept = list(AnonymizationSubmission.objects.order_by("pk"))
    assert [s.status for s in kept] == [Status.QUEUED, Status.QUEUED]
    assert all(s.file and len(s.sha256) == 64 for s in kept)  # stored as uploaded

    redis_server.start()  # back, empty: no message of the two uploads survived
    wait_for(
        lambda: (
            set(AnonymizationSubmission.objects.values_list("status", flat=True))
            == {Status.FINISHED}
        ),
        timeout=120,
        what="both uploads made during the outage to be scored",
    )
    assert requests.get(site + "/healthz", timeout=30).json()["cache"] == "ok"
    assert team.get(site + round_url, timeout=10).status_code == 200
