"""The older-scores note (``pwscup.scorer.older_scores``) beyond the Overview and Submit
tabs: on the Results tab, in the API's round status (``notes``: ``older_scores``, in the
request's language) and in ``pwscup status`` (the client in its own process, a live test
server; the uploads scored here as the worker does). Nothing while every scored upload is
on the current version."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.kinds.tabs import RESULTS, tab_url
from pwscup.scorer.models import Release
from tests.pwscup.scorer_world import (
    demo_program_zip,
    program_version,
    release,
    release_bytes,
    scorer_world,
)
from tests.pwscup.test_scorer_older_scores import OLDER
from tests.support import run_pwscup as run

pytestmark = pytest.mark.django_db(transaction=True)


def _results_note(client, world, language) -> str:
    page = client.get(tab_url(world.round, RESULTS), HTTP_ACCEPT_LANGUAGE=language)
    found = re.search(r'data-testid="older-scores">(.*?)</p>', page.content.decode(), re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split()) if found else ""


def _status_notes(client, world, language) -> list:
    url = reverse("api:round-status", args=[world.competition.slug, world.round.slug])
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200, answer.content
    return answer.json()["notes"]


def test_the_results_tab_the_round_status_and_the_client_carry_the_note(live_server, tmp_path):
    world = scorer_world(slug="oldapi", letters="ab")
    for noise in (0, 10):
        assert release(world, "a", release_bytes(noise=noise)).status == Release.Status.FINISHED
    team_a, team_b = Client(), Client()
    team_a.force_login(world.users["a"])
    team_b.force_login(world.users["b"])
    assert _results_note(team_a, world, "en") == ""
    assert _status_notes(team_a, world, "en") == []  # every upload on v1, the current one

    program_version(world, demo_program_zip())
    for language, text in OLDER.items():
        expected = " ".join(text.split())
        assert _results_note(team_a, world, language) == expected, language
        notes = _status_notes(team_a, world, language)
        assert [(n["key"], " ".join(n["text"].split())) for n in notes] == [
            ("older_scores", expected)
        ], language
    assert _results_note(team_b, world, "en") == ""  # team B has no upload
    assert _status_notes(team_b, world, "en") == []

    home = tmp_path / "a"
    home.mkdir()
    token = api_token_create(user=world.users["a"], name="cli").secret
    login = run(["login", live_server.url, "--token-stdin"], config_dir=home, stdin=token)
    assert login.returncode == 0, login.stderr
    ref = f"{world.competition.slug}/{world.round.slug}"
    for language, text in OLDER.items():
        status = run(["status", ref], config_dir=home, language=language)
        assert status.returncode == 0, status.stderr
        assert " ".join(text.split()) in " ".join(status.stdout.split()), language
