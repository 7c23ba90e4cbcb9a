"""*Close the open phases now* on a two-sided round (synthetic, scorer) closes only the phase
open now: the release phase during the release phase, the attack phase during the attack
phase. A phase not open yet keeps its dates (PWSCup 2026's two-day data hand-over between
the phases stays planned); between the phases nothing is open, and the action says so and
changes nothing. Its confirmation page, its message and the audit log say which phase it
closes, when, and what stays planned, in English and Japanese."""

import datetime as dt
import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import AuditEntry, Phase
from pwscup.core.time_zones import in_zone_text
from tests.pwscup.test_two_sided_publish import KINDS

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {
        "closes": "Closes now: Release phase (planned to close at {closes}).",
        "stays": "Stays as planned: Attack phase, from {opens} to {closes}.",
        "done": "Closed at {at}: Release phase.",
        "nothing": "No phase is open now: nothing is closed and no date changes.",
        "audit": "Phases: Release phase",
    },
    "ja": {
        "closes": "今すぐ締め切るフェーズ：開示フェーズ（予定の締切：{closes}）。",
        "stays": "予定どおり残るフェーズ：攻撃フェーズ（{opens} から {closes} まで）。",
        "done": "{at} に締め切りました：開示フェーズ。",
        "nothing": "いま開いているフェーズはありません。何も締め切らず、日程も変わりません。",
        "audit": "フェーズ: 開示フェーズ",
    },
}


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def _round(kind: str, *, release_open: bool):
    """A round whose attack phase opens two days after its release phase closes (the
    hand-over), the release phase open now (``release_open``) or closed and frozen."""
    world, row, freeze, _publish = KINDS[kind](f"cl{kind[:3]}{int(release_open)}")
    now = timezone.now().replace(second=0, microsecond=0)
    release = world.round.phases.get(kind="release")
    if release_open:
        Phase.objects.filter(pk=release.pk).update(
            opens_at=now - dt.timedelta(days=1), closes_at=now + dt.timedelta(days=1)
        )
    else:
        freeze()
    opens = now + dt.timedelta(days=3)
    Phase.objects.filter(round=world.round, kind="attack").update(
        opens_at=opens, closes_at=opens + dt.timedelta(days=14)
    )
    client = Client()
    client.force_login(world.organizer)
    url = reverse("console:round_action", args=[world.competition.slug, world.round.slug, "close"])
    return world, row, client, url


def _dates(world) -> dict:
    return {p.kind: (p.opens_at, p.closes_at) for p in world.round.phases.all()}


@pytest.mark.parametrize("kind", KINDS)
def test_close_during_the_release_phase_leaves_the_attack_phase_planned(kind):
    world, _row, client, url = _round(kind, release_open=True)
    before = _dates(world)
    zone = world.round.timezone
    planned = {
        "opens": in_zone_text(before["attack"][0], zone),
        "closes": in_zone_text(before["attack"][1], zone),
    }
    for language, words in WORDS.items():
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        details = [_text(d) for d in re.findall(r'data-testid="confirm-detail">(.*?)</p>', page)]
        closes = in_zone_text(before["release"][1], zone)
        assert details == [words["closes"].format(closes=closes), words["stays"].format(**planned)]
        assert 'data-testid="confirm"' in page
    done = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    after = _dates(world)
    assert after["attack"] == before["attack"]  # the hand-over and the attack phase stay
    assert after["release"][1] <= timezone.now() < before["release"][1]
    at = in_zone_text(after["release"][1], zone)
    # One message, its sentences run on as Japanese writes them (no space after 。).
    said = WORDS["ja"]["done"].format(at=at) + WORDS["ja"]["stays"].format(**planned)
    assert said in _text(done)
    entry = AuditEntry.objects.get(round=world.round, action=AuditEntry.Action.PHASES_CLOSED)
    assert entry.detail["phases"] == ["release"]
    assert entry.detail["attack_phase_opens"] == before["attack"][0].isoformat()
    assert entry.detail["attack_phase_closes"] == before["attack"][1].isoformat()
    console = reverse("console:round", args=[world.competition.slug, world.round.slug])
    for language, words in WORDS.items():
        log = _text(client.get(console, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        assert words["audit"] in log, language


@pytest.mark.parametrize("kind", KINDS)
def test_close_between_the_phases_says_nothing_is_open_and_changes_nothing(kind):
    world, row, client, url = _round(kind, release_open=False)
    before = _dates(world)
    for language, words in WORDS.items():
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        refusal = re.search(r'data-testid="confirm-refusal">(.*?)</p>', page, re.S)
        assert refusal and _text(refusal.group(1)).startswith(words["nothing"]), language
        assert 'data-testid="confirm"' not in page  # no button that would change nothing
        said = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert words["nothing"] in _text(said), language
    assert _dates(world) == before
    assert not AuditEntry.objects.filter(
        round=world.round, action=AuditEntry.Action.PHASES_CLOSED
    ).exists()


@pytest.mark.parametrize("kind", KINDS)
def test_close_during_the_attack_phase_closes_it_and_only_it(kind):
    world, _row, client, url = _round(kind, release_open=False)
    now = timezone.now()
    Phase.objects.filter(round=world.round, kind="attack").update(
        opens_at=now - dt.timedelta(hours=1), closes_at=now + dt.timedelta(days=5)
    )
    before = _dates(world)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    details = [_text(d) for d in re.findall(r'data-testid="confirm-detail">(.*?)</p>', page)]
    closes = in_zone_text(before["attack"][1], world.round.timezone)
    assert details == [f"Closes now: Attack phase (planned to close at {closes})."]
    client.post(url)
    after = _dates(world)
    assert after["release"] == before["release"]
    assert after["attack"][0] == before["attack"][0]
    assert after["attack"][1] <= timezone.now() < before["attack"][1]
    entry = AuditEntry.objects.get(round=world.round, action=AuditEntry.Action.PHASES_CLOSED)
    assert entry.detail["phases"] == ["attack"]
