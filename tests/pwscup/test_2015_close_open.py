"""*Close the open phases now* on a 2015 round closes only the phase open now, as on the
two-sided rounds (``pwscup.competitions.phase_close``): during the anonymization phase, with
the attack phase not open yet, the attack phase keeps its dates; the confirmation page says
which phase closes and what stays planned, the audit log records it, and once nothing is
open the page says so and offers no button (it closed the attack phase before it opened,
and said it would)."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import AuditEntry
from pwscup.core.time_zones import in_zone_text
from tests.support import build_world

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {
        "closes": "Closes now: Anonymization phase (planned to close at {closes}).",
        "stays": "Stays as planned: Attack phase, from {opens} to {closes}.",
        "nothing": "No phase is open now: nothing is closed and no date changes.",
    },
    "ja": {
        "closes": "今すぐ締め切るフェーズ：匿名加工フェーズ（予定の締切：{closes}）。",
        "stays": "予定どおり残るフェーズ：攻撃フェーズ（{opens} から {closes} まで）。",
        "nothing": "いま開いているフェーズはありません。何も締め切らず、日程も変わりません。",
    },
}


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def test_close_during_the_anonymization_phase_leaves_the_attack_phase_planned():
    world = build_world(slug="cl15", attack_open=False)
    client = Client()
    client.force_login(world.organizer)
    url = reverse("console:round_action", args=[world.competition.slug, world.round.slug, "close"])
    zone = world.round.timezone
    attack = (world.attack.opens_at, world.attack.closes_at)
    planned = {"opens": in_zone_text(attack[0], zone), "closes": in_zone_text(attack[1], zone)}
    closes = in_zone_text(world.anonymization.closes_at, zone)
    for language, words in WORDS.items():
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        details = [_text(d) for d in re.findall(r'data-testid="confirm-detail">(.*?)</p>', page)]
        assert details == [words["closes"].format(closes=closes), words["stays"].format(**planned)]
        assert "not yet open" not in page and "まだ開いていない" not in page  # the old wording
    client.post(url)
    world.anonymization.refresh_from_db()
    world.attack.refresh_from_db()
    assert world.anonymization.closes_at <= timezone.now()
    assert (world.attack.opens_at, world.attack.closes_at) == attack
    entry = AuditEntry.objects.get(round=world.round, action=AuditEntry.Action.PHASES_CLOSED)
    assert entry.detail["phases"] == ["anonymization"]
    assert entry.detail["attack_phase_opens"] == attack[0].isoformat()
    for language, words in WORDS.items():
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        refusal = re.search(r'data-testid="confirm-refusal">(.*?)</p>', page, re.S)
        assert refusal and _text(refusal.group(1)).startswith(words["nothing"]), language
        assert 'data-testid="confirm"' not in page
