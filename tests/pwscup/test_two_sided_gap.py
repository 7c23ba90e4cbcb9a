"""A two-sided round between its phases (PWSCup 2026's two-day "data hand-over"): the releases
are frozen but the attack phase opens later. The team's overview, its "What to do now" line,
the console's panel and the console's list of rounds say so and when it opens, in English
and Japanese, instead of "attack phase" or "the results are shown once published"."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import Phase
from pwscup.kinds.tabs import OVERVIEW, tab_url
from tests.pwscup.test_two_sided_publish import KINDS, _console_note

pytestmark = pytest.mark.django_db

GAP = {
    "state": {
        "en": "The releases are frozen; the attack phase opens at {at}.",
        "ja": "公開データは凍結済みです。攻撃フェーズは {at} に始まります。",
    },
    # "What to do now" is the action only (the kind's words for the targets' files): when
    # the attack phase opens is the state line's, said once (PWSCup 2026 walk: both said it).
    "now": {
        "synthetic": {
            "en": "Download the other teams' releases, challenge sets and the auxiliary table.",
            "ja": "他チームの公開データ、チャレンジセット、補助テーブルをダウンロードしてください。",
        },
        "scorer": {
            "en": "Download the other teams' frozen releases.",
            "ja": "他チームの凍結された公開データをダウンロードしてください。",
        },
    },
    "panel": {
        "en": "Releases frozen at {frozen}; the attack phase opens at {at}.",
        "ja": "{frozen} に公開データを凍結しました。攻撃フェーズは {at} に始まります。",
    },
    "closed": {
        "en": "The release phase is closed; the releases are not frozen yet.",
        "ja": "開示フェーズは終了しました。公開データはまだ凍結されていません。",
    },
    "note": {
        "en": "Releases frozen · attack phase not open yet",
        "ja": "公開データ凍結済み・攻撃フェーズ開始前",
    },
}


def _gap(kind: str):
    """A round frozen with its attack phase opening two days after now (the hand-over)."""
    world, row, freeze, _publish = KINDS[kind](f"gap{kind[:3]}")
    freeze()
    row.refresh_from_db()
    attack = world.round.phases.get(kind="attack")
    opens = (timezone.now() + dt.timedelta(days=2)).replace(second=0, microsecond=0)
    Phase.objects.filter(pk=attack.pk).update(
        opens_at=opens, closes_at=opens + dt.timedelta(days=14)
    )
    return world, row, opens


def _local(at, round_) -> str:
    """``at`` as the pages write it, in the round's time zone (``Y-m-d H:i T``)."""
    import zoneinfo

    return at.astimezone(zoneinfo.ZoneInfo(round_.timezone)).strftime("%Y-%m-%d %H:%M %Z")


def _text(fragment: str) -> str:
    """The text of a fragment of a page: its tags dropped."""
    import html as entities
    import re

    return entities.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


@pytest.mark.parametrize("kind", KINDS)
def test_the_overview_says_when_the_attack_phase_opens_between_the_phases(kind):
    world, _row, opens = _gap(kind)
    browser = Client()
    browser.force_login(world.users["a"])
    at = _local(opens, world.round)
    for language in ("en", "ja"):
        page = browser.get(
            tab_url(world.round, OVERVIEW), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        state = page.split('data-testid="round-state">')[1].split("</p>")[0]
        assert _text(state) == GAP["state"][language].format(at=at), language
        steps = page.split('class="next-steps">')[1].split("</ol>")[0]
        line = steps.split("<li>")[1].split(" <a ")[0]
        assert _text(line) == GAP["now"][kind][language], language
        assert "/data/" in steps and steps.count("<li>") == 1, language


@pytest.mark.parametrize("kind", KINDS)
def test_the_console_says_the_attack_phase_is_not_open_yet_between_the_phases(kind):
    world, row, opens = _gap(kind)
    browser = Client()
    browser.force_login(world.organizer)
    testid = {"synthetic": "syn-state", "scorer": "scorer-state"}[kind]
    args = [world.competition.slug, world.round.slug]
    for language in ("en", "ja"):
        page = browser.get(
            reverse("console:round", args=args), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        panel = _text(page.split(f'data-testid="{testid}">')[1].split("</dd>")[0])
        expected = GAP["panel"][language].format(
            frozen=_local(row.frozen_at, world.round), at=_local(opens, world.round)
        )
        assert panel.startswith(expected), (language, panel)
        assert _console_note(browser, world, language) == GAP["note"][language]


@pytest.mark.parametrize("kind", KINDS)
def test_the_overview_says_the_release_phase_is_closed_before_the_freeze(kind):
    """Between the release phase's close and the freeze the round is not in its release
    phase any more: the state line says it is closed, the releases not frozen yet, and so
    does the console's panel."""
    world, _row, _freeze, _publish = KINDS[kind](f"shut{kind[:3]}")
    browser = Client()
    browser.force_login(world.users["a"])
    for language in ("en", "ja"):
        page = browser.get(
            tab_url(world.round, OVERVIEW), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        state = page.split('data-testid="round-state">')[1].split("</p>")[0]
        assert _text(state) == GAP["closed"][language], language
    browser.force_login(world.organizer)
    testid = {"synthetic": "syn-state", "scorer": "scorer-state"}[kind]
    console = reverse("console:round", args=[world.competition.slug, world.round.slug])
    for language in ("en", "ja"):
        page = browser.get(console, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        panel = _text(page.split(f'data-testid="{testid}">')[1].split("</dd>")[0])
        assert panel == GAP["closed"][language], (language, panel)
