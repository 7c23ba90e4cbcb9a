"""The pages, the API's texts and the ``pwscup`` client show a metric by the one rule of
``scoring.display``: counts without decimals (U6 = 20 reads "20", even as the API's float
20.0), a small rate with two significant digits (4.4e-05 reads "0.000044", not 0.0000),
and L3's null as "∞" with what it means."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.client import cli
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.pwscup2015.ranking_cache import ranking_invalidate
from scoring.display import undefined_note
from tests.pwscup.factories import scored

pytestmark = pytest.mark.django_db


@pytest.fixture
def shown(make_world):
    """Team A's scored upload with 20 deleted rows, on a round with the indicators; its
    stored E3 is a small rate and its L3 infinite (null), as a worker writes them."""
    world = make_world(leaderboard_public=True)
    world.round.config = {**world.round.config, "indicators": {"sa": "income"}}
    world.round.save(update_fields=["config"])
    submission = scored(world, "a", delete=20)
    submission.scores = {**submission.scores, "E3": 4.4e-05, "L3": None}
    submission.save(update_fields=["scores"])
    # Whatever writes scores moves the round's ranking version (as the scoring job does):
    # the rankings cached for the version the job left would show the scores it wrote.
    ranking_invalidate(round_ids=[world.round.pk])
    assert submission.scores["U6"] == 20
    return world, submission


def _cells(page: str) -> dict[str, str]:
    """The text of each ``data-metric`` cell of a page (tags stripped)."""
    cells = re.findall(r'data-metric="(\w+)">(.*?)</td>', page)
    return {metric: html.unescape(re.sub(r"<[^>]+>", "", text)) for metric, text in cells}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_round_page_and_leaderboard_show_counts_small_rates_and_infinity(shown, lang):
    world, submission = shown
    client = Client(headers={"accept-language": lang})
    client.cookies["django_language"] = lang
    client.force_login(world.users["a"])
    args = [world.competition.slug, world.round.slug]
    for name, url in (
        ("submit", tab_url(world.round, SUBMIT)),
        ("leaderboard", reverse("leaderboard", args=args)),
    ):
        page = client.get(url).content.decode()
        cells = _cells(page)
        assert cells["U6"] == "20" and cells["S1"] == str(submission.scores["S1"]), name
        assert cells["E3"] == "0.000044", name
        assert cells["L3"] == "∞", name
        # The sign carries its meaning in the page's language.
        note = html.escape(undefined_note("L3", lang), quote=True)
        assert f'<abbr class="undefined" title="{note}">∞</abbr>' in page, name
    assert f'data-testid="undefined-note-L3">{html.escape(undefined_note("L3", lang))}<' in page


class DjangoApi:
    """The client's transport, answered by the Django test client with a team's token."""

    def __init__(self, client, token):
        self.client, self.token = client, token

    def get(self, path):
        response = self.client.get(
            "/" + path, HTTP_AUTHORIZATION=f"Bearer {self.token}", HTTP_ACCEPT_LANGUAGE="en"
        )
        assert response.status_code == 200, response.content
        return response.json()


def test_the_client_prints_what_the_pages_show(shown, client, monkeypatch, capsys):
    world, submission = shown
    token = api_token_create(user=world.users["b"], name="cli").secret
    monkeypatch.setattr(cli, "connect", lambda: DjangoApi(client, token))
    ref = (world.competition.slug, world.round.slug)

    assert cli.main(["leaderboard", "/".join(ref)]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Columns are two spaces apart; the team and the ranking number's name hold one.
    header = re.split(r"\s{2,}", lines[1])
    row = re.split(r"\s{2,}", next(line for line in lines if line.startswith("1 ")))
    assert header[2] == "Worst-case re-identification rate of the built-in attacks"
    values = dict(zip(header[3:], row[3:], strict=True))
    assert values["U6"] == "20" and values["S1"] == str(submission.scores["S1"])
    assert values["E3"] == "0.000044" and values["L3"] == "∞"

    token_a = api_token_create(user=world.users["a"], name="cli").secret
    monkeypatch.setattr(cli, "connect", lambda: DjangoApi(client, token_a))
    assert cli.main(["status", "/".join(ref)]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("#1 "))
    k = submission.scores["S1"]
    assert "0.000044" in row.split() and str(k) in row.split() and f"{k}.0000" not in row
