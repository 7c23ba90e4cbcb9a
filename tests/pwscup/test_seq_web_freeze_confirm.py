"""'Freeze release j' is confirmed on the server, like the first kind's freeze: the console's
button opens a confirmation page, and only a POST carrying the release's number freezes."""

import html

import pytest
from django.urls import reverse

from pwscup.competitions.models import AuditEntry
from tests.pwscup.seq_web_world import fixture, publish, seq_world

pytestmark = pytest.mark.django_db


def freeze_url(world):
    return reverse("sequential:action", args=[world.competition.slug, world.round.slug, "freeze"])


def frozen(world) -> int:
    world.sequential.refresh_from_db()
    return world.sequential.frozen_steps


def test_a_post_without_the_confirmation_freezes_nothing(client):
    world = seq_world(slug="fz1")
    client.force_login(world.organizer)
    response = client.post(freeze_url(world))
    assert frozen(world) == 0
    assert response.status_code == 302 and response["Location"] == freeze_url(world)
    # Digits that are not ASCII ("²" passes str.isdigit, then int() refuses it): no 500.
    for bad in ("", "x", "-1", "1.0", "99999999", "²", "١"):
        assert client.post(freeze_url(world), {"step": bad}).status_code == 302, bad
        assert frozen(world) == 0, bad
    page = client.get(freeze_url(world), follow=True)
    assert "Nothing was frozen" in html.unescape(page.content.decode())


def test_the_confirmation_page_then_its_form_freeze_once(client):
    world = seq_world(slug="fz2")
    publish(world, "a", 1, fixture("zhang_release_1.csv"))
    client.force_login(world.organizer)
    console = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    text = console.content.decode()
    assert f'href="{freeze_url(world)}" data-testid="seq-freeze"' in text
    assert f'action="{freeze_url(world)}"' not in text  # no one-click POST form
    # The panel names the publication mode in the reader's language (the raw "online" before).
    console_url = reverse("console:round", args=[world.competition.slug, world.round.slug])
    ja = client.get(console_url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    mode = "オンライン公開" if world.sequential.config["mode"] == "online" else "一括公開"
    assert f" · {mode} · " in ja
    page = client.get(freeze_url(world))
    assert page.status_code == 200 and frozen(world) == 0
    text = html.unescape(page.content.decode())
    assert '<input type="hidden" name="step" value="1">' in text
    assert "1 of 3 teams have a valid upload of release 1." in text
    assert "Team B, Team C" in text  # their sequences become incomplete
    response = client.post(freeze_url(world), {"step": "1"})
    assert response.status_code == 302 and frozen(world) == 1
    # The console's audit log records the round as the freeze left it (release 1 frozen).
    entry = AuditEntry.objects.filter(round=world.round).latest("pk")
    assert entry.action == AuditEntry.Action.ROUND_FROZEN
    assert entry.detail == {"frozen_steps": 1}
    # The same form sent again (a double click, a second tab) does not freeze release 2.
    again = client.post(freeze_url(world), {"step": "1"}, follow=True)
    assert frozen(world) == 1
    assert "release 1 is not the next release to freeze" in html.unescape(again.content.decode())
    assert 'value="2"' in client.get(freeze_url(world)).content.decode()


def test_every_release_frozen_the_page_says_so(client):
    world = seq_world(slug="fz3")
    client.force_login(world.organizer)
    for step in (1, 2):
        client.post(freeze_url(world), {"step": str(step)})
    assert frozen(world) == 2
    response = client.get(freeze_url(world), follow=True)
    assert "Every release of this round is frozen already." in response.content.decode()
    client.post(freeze_url(world), {"step": "3"})
    assert frozen(world) == 2


def test_teams_cannot_open_the_confirmation_and_other_actions_stay_post_only(client):
    world = seq_world(slug="fz4")
    client.force_login(world.users["a"])
    assert client.get(freeze_url(world)).status_code == 403
    assert client.post(freeze_url(world), {"step": "1"}).status_code == 403
    assert frozen(world) == 0
    client.force_login(world.organizer)
    draw = reverse("sequential:action", args=[world.competition.slug, world.round.slug, "master"])
    assert client.get(draw).status_code == 405
