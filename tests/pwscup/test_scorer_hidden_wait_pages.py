"""A scorer round imported from a bundle without its hidden data (the export's default) waits
for it: its uploads are refused (``test_scorer_bundle``), and its team pages say so instead of
offering the upload form and asking the team to upload (a new class met an open form, then a
refusal). Every schedule of the round says so too: its release phase is *on hold* (``held``,
with the reason) on the Overview, the competition page and in the API's round status, whose
release upload is not open, until the hidden data is uploaded."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from pwscup.api.services import api_token_create
from pwscup.client import cli
from pwscup.scorer import services
from pwscup.scorer.models import DataPack
from tests.pwscup.scorer_world import scorer_world, upload_file, zipped

pytestmark = pytest.mark.django_db

WAITING = (
    "This round is not open yet: the organizers have still to upload its hidden data (truth.zip)."
)


def _tab(client, world, tab: str) -> str:
    address = reverse("round_tab", args=[world.competition.slug, world.round.slug, tab])
    return client.get(address).content.decode()


def _flow_here(page: str) -> str:
    """The title of the flow card's box marked "the round is here"."""
    (title,) = re.findall(r'aria-current="step">.*?<strong>(.*?)</strong>', page, re.DOTALL)
    return title


def _upload_hidden_data(world) -> None:
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.TRUTH,
        uploaded_file=upload_file(
            zipped({"truth/answers.csv": b"id,answer\n1,2\n"}), "truth.zip", "application/zip"
        ),
    )


def test_a_team_sees_the_round_wait_for_its_hidden_data_then_the_form(client):
    world = scorer_world(slug="hw1", letters="a")
    services.hidden_packs_await(scorer=world.scorer, packs=[("truth", "")])
    client.force_login(world.users["a"])
    submit = _tab(client, world, "submit")
    assert 'data-testid="upload-form"' not in submit
    assert submit.count(WAITING) == 1
    overview = client.get(f"/c/{world.competition.slug}/{world.round.slug}/").content.decode()
    # Said once, where the team reads first ("What to do now"); the schedule says on hold.
    assert overview.count(WAITING) == 1
    assert overview.index(WAITING) < overview.index('data-testid="schedule"')
    assert 'class="state state-held">on hold<' in overview
    assert "The release phase is on hold." in overview
    assert "Upload a release; the organizer" not in overview
    _upload_hidden_data(world)
    submit = _tab(client, world, "submit")
    assert 'data-testid="upload-form"' in submit and WAITING not in submit


def _release_line(schedule: list[dict]) -> dict:
    (line,) = [line for line in schedule if line["label"] == "Release phase"]
    return line


class _Answering:
    """The client's API reader answering the round status the server gave."""

    def __init__(self, answer: dict):
        self.answer = answer

    def get(self, path: str) -> dict:
        return self.answer


def test_the_schedule_and_the_api_say_the_release_phase_is_held(client, capsys, monkeypatch):
    world = scorer_world(slug="hw2", letters="a")
    services.hidden_packs_await(scorer=world.scorer, packs=[("truth", "")])
    token = api_token_create(user=world.users["a"], name="script").secret
    address = reverse("api:round-status", args=[world.competition.slug, world.round.slug])

    def status() -> dict:
        answer = client.get(address, HTTP_AUTHORIZATION=f"Bearer {token}")
        assert answer.status_code == 200
        return answer.json()

    waiting = status()
    assert _release_line(waiting["schedule"])["state"] == "held"
    assert _release_line(waiting["schedule"])["held"] == WAITING
    assert [kind["open"] for kind in waiting["submission_types"]] == [False]
    # ``pwscup status`` prints it as it came.
    monkeypatch.setenv("PWSCUP_LANG", "en")
    args = cli.build_parser().parse_args(["status", f"{world.competition.slug}/{world.round.slug}"])
    assert args.run(_Answering(waiting), args) == 0
    printed = capsys.readouterr().out
    assert "on hold" in printed and WAITING in printed
    client.force_login(world.users["a"])
    page = reverse("competition_detail", args=[world.competition.slug])
    text = client.get(page).content.decode()
    assert 'class="state state-held">on hold<' in text
    assert f'data-testid="held-reason">{WAITING}<' in text and text.count(WAITING) == 1
    overview = client.get(f"/c/{world.competition.slug}/{world.round.slug}/").content.decode()
    assert "The releases are not frozen yet: the release phase." not in overview
    _upload_hidden_data(world)
    ready = status()
    assert _release_line(ready["schedule"]) | {"opens_at": None, "closes_at": None} == {
        "label": "Release phase",
        "opens_at": None,
        "closes_at": None,
        "planned_closes_at": None,
        "state": "open",
        "held": "",
    }
    assert [kind["open"] for kind in ready["submission_types"]] == [True]
    text = client.get(reverse("competition_detail", args=[world.competition.slug])).content
    assert b"state-held" not in text and b"held-reason" not in text


def test_the_overview_says_why_once_to_a_visitor_and_the_organizer_in_both_languages(client):
    """No "What to do now" list for them: the reason is the line below the schedule."""
    world = scorer_world(slug="hw3", letters="a")
    services.hidden_packs_await(scorer=world.scorer, packs=[("truth", "")])
    overview = f"/c/{world.competition.slug}/{world.round.slug}/"
    for user in (None, world.organizer):
        if user is not None:
            client.force_login(user)
        text = client.get(overview).content.decode()
        assert text.count(WAITING) == 1, user
        assert f'data-testid="held-reason">{WAITING}<' in text, user
        assert 'class="state state-held">on hold<' in text, user
        # Nobody can upload: the flow is at its start, as before the release phase opens
        # (it marked "Upload a release" for them).
        assert _flow_here(text) == "Download the data", user
    client.force_login(world.users["a"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    with translation.override("ja"):
        waiting = gettext(
            "This round is not open yet: the organizers have still to upload its hidden "
            "data (%(packs)s)."
        ) % {"packs": "truth.zip"}
    assert waiting != WAITING
    text = client.get(overview).content.decode()
    assert text.count(waiting) == 1
    assert 'class="state state-held">保留中<' in text
    assert "開示フェーズは保留中です。" in text
