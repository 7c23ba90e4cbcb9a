"""The laptop default (no DATABASE_URL, no REDIS_URL: SQLite and the filesystem broker) holds a
burst of uploads: gunicorn as scripts/demo starts it and a Celery worker with its beat write
the same SQLite file in the test's own folder while 24 teams upload at once, through the
page's form and the API. No upload answers 500 ("database is locked"), every one is kept,
and every one is scored.

Slow (over 20 s on its own, so its module is scheduled first): 24 uploads are scored one after
another by the demo's one Celery worker on SQLite, after the seed: the burst and its scoring
are what is tested. (The migrated SQLite file is a copy of one migrated once per run:
``sqlite_migrated``.)
"""

import re
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.pwscup.outage_support import (
    browser_session,
    csrf_token,
    demo_gunicorn,
    django_script,
    site_env,
    sqlite_migrated,
)
from tests.support import ROOT, adult_head, free_port, noisy_copy, running

pytestmark = pytest.mark.slow

TEAMS = 24
BY_API = range(0, TEAMS, 3)  # every third team uploads with its API token, the rest by the page
PASSWORD = "burst-pw-123"
ROUND_URL = "/c/burst/r1/"
SEED = f"""
import json
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from pwscup.accounts.services import membership_add, team_create
from pwscup.api.services import api_token_create
from pwscup.pwscup2015.services import round_assign_samples
from tests.support import build_world

world = build_world(slug="burst", password="{PASSWORD}")
users = [world.users[letter] for letter in "abc"]
# The same password's hash (PBKDF2, 0.3 s of CPU to make) for every further account.
hashed = users[0].password
for number in range(len(users), {TEAMS}):
    team = team_create(competition=world.competition, name=f"Team {{number}}", slug=f"t{{number}}")
    user = get_user_model().objects.create(username=f"burst-{{number}}", password=hashed)
    membership_add(team=team, user=user)
    users.append(user)
round_assign_samples(round=world.round)
# The page's teams are logged in as the log-in form leaves them (a session in the database):
# the burst, not the form, is tested, and each log-in checked the password's hash again.
sessions = {{}}
for i in range(len(users)):
    if i not in {list(BY_API)}:
        client = Client()
        client.force_login(users[i], backend="django.contrib.auth.backends.ModelBackend")
        sessions[i] = client.cookies[settings.SESSION_COOKIE_NAME].value
print(json.dumps({{
    "users": [user.username for user in users],
    "tokens": {{i: api_token_create(user=users[i], name="laptop").secret for i in {list(BY_API)}}},
    "cookie": settings.SESSION_COOKIE_NAME,
    "sessions": sessions,
}}))
"""
UPLOADS = """
import json, time
from pwscup.pwscup2015.models import AnonymizationSubmission
deadline = time.monotonic() + {wait}
while True:
    kept = list(AnonymizationSubmission.objects.order_by("pk"))
    statuses = sorted(str(s.status) for s in kept)
    if time.monotonic() > deadline or (kept and set(statuses) <= {{"finished", "failed"}}):
        break
    time.sleep(0.2)  # a poll of one query: the last score is seen at most 0.2 s late
print(json.dumps({{
    "teams": sorted(s.team.slug for s in kept),
    "statuses": statuses,
    "stored": [bool(s.file) and len(s.sha256) == 64 for s in kept],
}}))
"""


def _worker(env, var_dir, log_path):
    """The worker as scripts/demo starts it (with its beat), on the same SQLite file."""
    command = [
        *(sys.executable, "-m", "celery", "-A", "pwscup", "worker", "--beat"),
        *("--schedule", str(var_dir / "celerybeat-schedule"), "--concurrency", "1"),
        *("--loglevel", "INFO", "-n", "burst@%h"),
    ]
    return running(
        command,
        env=env,
        log_path=log_path,
        ready=lambda: log_path.exists() and " ready." in log_path.read_text(),
        what="the Celery worker to start",
    )


def session_browser(cookie: str, session: str) -> requests.Session:
    browser = browser_session()
    browser.cookies.set(cookie, session)
    return browser


def _upload_by_page(browser: requests.Session, base: str, content: bytes) -> requests.Response:
    page = browser.get(base + ROUND_URL + "submit/", timeout=120)
    form = re.search(r'action="([^"]+)"[^>]*data-testid="upload-form"', page.text)
    assert form, (page.status_code, page.url)  # a team's page: its session is logged in
    action = form.group(1)
    return browser.post(
        base + action,
        data={"csrfmiddlewaretoken": csrf_token(page.text)},
        files={"file": ("anonymized.csv", content, "text/csv")},
        headers={"Referer": base + ROUND_URL + "submit/"},
        timeout=120,
    )


def _upload_by_api(secret: str, base: str, content: bytes) -> requests.Response:
    return requests.post(
        base + "/api/v1/competitions/burst/rounds/r1/submissions/",
        headers={"Authorization": f"Bearer {secret}"},
        files={"file": ("anonymized.csv", content, "text/csv")},
        timeout=120,
    )


@pytest.mark.worker
def test_a_burst_of_uploads_on_the_laptop_default_answers_no_500_and_keeps_every_upload(
    tmp_path,
):
    var_dir = tmp_path / "var"
    env = site_env(var_dir, PWSCUP_REAPER_INTERVAL="2", PWSCUP_QUEUED_RESEND_SECONDS="10")
    sqlite_migrated(env)
    seeded = django_script({**env, "PYTHONPATH": str(ROOT)}, SEED)
    original = adult_head()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with (
        _worker(env, var_dir, tmp_path / "worker.log"),
        demo_gunicorn(env, port, tmp_path / "gunicorn.log"),
    ):
        browsers = {
            i: session_browser(seeded["cookie"], seeded["sessions"][str(i)])
            for i in range(TEAMS)
            if i not in BY_API
        }
        start = threading.Barrier(TEAMS)

        def upload(i: int):
            content = noisy_copy(original, seed=i)
            start.wait()
            began = time.monotonic()
            if i in BY_API:
                answer = _upload_by_api(seeded["tokens"][str(i)], base, content)
            else:
                answer = _upload_by_page(browsers[i], base, content)
            return i, answer, time.monotonic() - began

        began = time.monotonic()
        with ThreadPoolExecutor(TEAMS) as pool:
            answers = list(pool.map(upload, range(TEAMS)))
        burst = time.monotonic() - began
        seconds = sorted(elapsed for _i, _answer, elapsed in answers)
        print(
            f"{TEAMS} uploads at once: all answered in {burst:.2f}s; per upload "
            f"min {seconds[0]:.2f}s, median {seconds[len(seconds) // 2]:.2f}s, "
            f"max {seconds[-1]:.2f}s; statuses "
            f"{dict(Counter(answer.status_code for _i, answer, _elapsed in answers))}"
        )
        for i, answer, _elapsed in answers:
            assert answer.status_code != 500, (i, answer.text[:500])
            if i in BY_API:
                assert answer.status_code == 202, (i, answer.status_code, answer.text[:500])
            else:
                assert answer.status_code == 200, (i, answer.status_code, answer.text[:500])
                # Whether each upload was kept is read below, from the database: every one.

        began = time.monotonic()
        kept = django_script(env, UPLOADS.format(wait=240), timeout=300)
        print(
            f"scored {kept['statuses'].count('finished')} of {TEAMS} in a further "
            f"{time.monotonic() - began:.1f}s"
        )
    assert len(kept["teams"]) == TEAMS and len(set(kept["teams"])) == TEAMS
    assert all(kept["stored"])
    assert kept["statuses"] == ["finished"] * TEAMS
    assert "database is locked" not in (tmp_path / "worker.log").read_text()
    assert "database is locked" not in (tmp_path / "gunicorn.log").read_text()
