"""The demo as a lecturer runs it on a laptop, started twice on the same ``var/`` folder:
``scripts/demo``'s steps (migrate, ``load_demo``, gunicorn; the script stops at the first
that fails) in processes of the test's own on the laptop settings (SQLite in the test's
folder). Between the two starts a student signs up, registers a team and uploads; the
second start comes up, and the student logs in and finds the team and the upload.

(``scripts/demo`` itself first runs ``scripts/bootstrap``, which installs the project into
``.venv``: the test runs the steps after it.)

Monday's ``var/`` starts with a copy of the SQLite file that ``migrate`` makes from nothing on
these settings (``sqlite_migrated``: migrated once per run, by that same command): both starts
still run every step, ``migrate`` included, and the test pays for the 12 s of CPU of a
migration from nothing only once per run.

Slow (over 20 s on its own, so its module is scheduled first): the demo's steps (migrate,
``load_demo``, gunicorn) run twice on the laptop settings.
"""

import pytest
import requests

from tests.pwscup.outage_support import (
    ROOT,
    demo_gunicorn,
    django_script,
    logged_in,
    manage,
    site_env,
    sqlite_migrated,
)
from tests.support import free_port

pytestmark = pytest.mark.slow

STUDENT, PASSWORD = "student-1", "student-pw-123"
# What the demo's database holds, counted: read after the class played, in the same process
# (a Django start fewer), and after the second start.
DEMO_ROWS = """
import json
from django.contrib.auth import get_user_model
from pwscup.competitions.models import Competition
from pwscup.pwscup2015.models import AnonymizationSubmission


def demo_rows():
    demo = Competition.objects.get(slug="demo")
    return {
        "competitions": Competition.objects.count(),
        "rounds": sorted(demo.rounds.values_list("slug", flat=True)),
        "teams": sorted(demo.teams.values_list("slug", flat=True)),
        "windows": demo.presentation_windows.count(),
        "users": sorted(get_user_model().objects.values_list("username", flat=True)),
        "uploads": sorted(AnonymizationSubmission.objects.values_list("pk", flat=True)),
    }
"""
# A student signs up, registers a team and uploads; run after DEMO_ROWS (it prints demo_rows()).
CLASS_PLAYS = f"""
from pwscup.accounts.services import team_create
from pwscup.competitions.models import Phase
from pwscup.pwscup2015.services import anonymization_submission_create
from tests.support import adult_head, csv_upload, noisy_copy

demo = Competition.objects.get(slug="demo")
student = get_user_model().objects.create_user("{STUDENT}", password="{PASSWORD}")
team = team_create(competition=demo, name="Les Anonymes", captain=student)
phase = demo.rounds.get(slug="round-1").phases.get(kind=Phase.Kind.ANONYMIZATION)
upload = anonymization_submission_create(
    phase=phase, team=team, user=student, uploaded_file=csv_upload(noisy_copy(adult_head()))
)
print(json.dumps({{"team": team.slug, "upload": upload.pk, "rows": demo_rows()}}))
"""


def _demo_start(env) -> str:
    """scripts/demo's steps before its servers: each must succeed (the script runs under
    ``set -e``)."""
    manage(env, "migrate", "--noinput")
    return manage(env, "load_demo")


def test_the_demo_starts_again_with_the_class_s_data(tmp_path):
    var_dir = tmp_path / "var"
    var_dir.mkdir()
    env = site_env(var_dir, PYTHONPATH=str(ROOT))  # (the scripts import tests.support)
    sqlite_migrated(env)
    # load_demo speaks the site's default language, Japanese (docs/operations.md).
    assert "デモのコンペティション 'demo' を作成しました。" in _demo_start(env)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with demo_gunicorn(env, port, tmp_path / "gunicorn-monday.log"):
        assert requests.get(base + "/c/demo/", timeout=60).status_code == 200
    played = django_script(env, DEMO_ROWS + CLASS_PLAYS)
    before = played["rows"]
    assert STUDENT in before["users"] and played["team"] in before["teams"]
    assert played["upload"] in before["uploads"]

    # Tuesday: the same var/ folder, started again.
    out = _demo_start(env)
    assert "デモのコンペティション 'demo' は既にあります。" in out
    after = django_script(env, DEMO_ROWS + "print(json.dumps(demo_rows()))")
    assert after == before  # nothing lost, nothing made twice
    with demo_gunicorn(env, port, tmp_path / "gunicorn-tuesday.log"):
        browser = logged_in(base, STUDENT, PASSWORD)
        round_page = browser.get(base + "/c/demo/round-1/submit/", timeout=60)
        assert round_page.status_code == 200
        assert "Les Anonymes" in round_page.text
        assert f'data-testid="submission-{played["upload"]}"' in round_page.text
        demo_login = logged_in(base, "team-a", "pwscup-demo")
        assert demo_login.get(base + "/c/demo/", timeout=60).status_code == 200
