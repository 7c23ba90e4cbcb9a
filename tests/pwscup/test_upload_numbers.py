"""One name for an upload everywhere: the team's own number in the phase (``label``, "#2"),
never the global id, on the round page, in its messages, in the console, in the API and in
the ``pwscup`` client's output."""

import contextlib
import io
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.client import cli
from pwscup.kinds.tabs import RESULTS, SUBMIT, tab_url
from pwscup.pwscup2015.models import AnonymizationSubmission
from tests.pwscup.factories import score, upload
from tests.support import csv_upload, noisy_copy

pytestmark = pytest.mark.django_db


class ClientApi:
    """``pwscup.client.transport.Api`` over Django's test client (same JSON, no network)."""

    def __init__(self, client, user):
        self.client = client
        self.base = "http://testserver"
        self.auth = {
            "HTTP_AUTHORIZATION": "Bearer " + api_token_create(user=user, name="cli").secret
        }

    def get(self, path):
        return self.client.get("/" + path.lstrip("/"), **self.auth).json()

    def post_multipart(self, path, *, fields, file_field, file_path):
        with open(file_path, "rb") as handle:
            data = {**fields, file_field: csv_upload(handle.read())}
        return self.client.post("/" + path.lstrip("/"), data, **self.auth).json()


def run_cli(monkeypatch, api, *argv) -> tuple[str, str]:
    monkeypatch.setattr(cli, "connect", lambda: api)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert cli.main(list(argv)) == 0
    return out.getvalue(), err.getvalue()


def cells(html: str, testid: str) -> list[str]:
    return [c.strip() for c in re.findall(rf'data-testid="{testid}"[^>]*>([^<]*)<', html)]


def test_every_place_names_an_upload_by_the_teams_number(world, client, monkeypatch, tmp_path):
    # Other uploads first, so that the global ids and the team's numbers differ.
    for seed in (1, 2, 3):
        upload(world, "b", noisy_copy(world.original, seed=seed))
    score(upload(world, "a", noisy_copy(world.original, seed=4)))
    args = [world.competition.slug, world.round.slug]

    # The round page's upload: its flash message.
    client.force_login(world.users["a"])
    response = client.post(
        reverse("anonymization_upload", args=args),
        {"file": csv_upload(noisy_copy(world.original, seed=5))},
    )
    second = AnonymizationSubmission.objects.get(team=world.teams["a"], number=2)
    assert second.pk != 2 and second.label == "#2"
    flashed = [str(m) for m in get_messages(response.wsgi_request)]
    assert len(flashed) == 1 and "Upload received (#2)" in flashed[0], flashed
    score(second)

    # The Results tab: the table and the score history; the "is scored" notice of the
    # fragment Submit polls.
    page = client.get(tab_url(world.round, RESULTS)).content.decode()
    assert cells(page, "number") == ["#2", "#1"]
    # Not by its id anywhere, colours apart (a chart's fill="#333" when the id is 333).
    uncoloured = re.sub(r"""(?:[:=]\s*["']?)#[0-9a-fA-F]{3,8}\b""", "", page)
    assert not re.search(rf"#{second.pk}(?![0-9a-fA-F])", uncoloured)
    assert "<title>#2, " in page  # the score history's point of this upload
    fragment = client.get(
        tab_url(world.round, SUBMIT) + f"?fragment=1&watch=anonymization-{second.pk}"
    ).content.decode()
    assert "Upload #2 is scored." in fragment

    # Making it final: the message.
    response = client.post(reverse("submission_select", args=[second.pk]))
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Submission #2 is now your final one."
    ]

    # The console's overview of the teams.
    client.force_login(world.organizer)
    console = client.get(reverse("console:round", args=args)).content.decode()
    row = console.split('data-testid="overview-teamA"')[1].split("</tr>")[0]
    assert re.search(r'data-testid="final-number">#2 <span', row), row

    # The API: the list and the detail carry the number (and the id, for the URLs).
    api = ClientApi(client, world.users["a"])
    listed = api.get(reverse("api:submissions", args=args))
    assert [(s["number"], s["id"]) for s in listed] == [(2, second.pk), (1, second.pk - 1)]

    # The client: its status table, and a new upload's message and output.
    out, _err = run_cli(monkeypatch, api, "status", "cup/r1")
    assert re.search(rf"^#2\s+{second.pk}\s+finished \(final\)", out, re.M), out
    csv_path = tmp_path / "third.csv"
    csv_path.write_bytes(noisy_copy(world.original, seed=6))
    out, err = run_cli(monkeypatch, api, "submit", "cup/r1", str(csv_path))
    third = AnonymizationSubmission.objects.get(team=world.teams["a"], number=3)
    assert "Upload received (#3)" in err
    assert out == f"#3 (id {third.pk})\n"
    assert api.get(reverse("api:submission", args=[*args, third.pk]))["number"] == 3
