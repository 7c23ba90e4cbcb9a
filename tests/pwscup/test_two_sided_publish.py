"""A two-sided round (synthetic, scorer) publishes its results once its releases are frozen,
never before (there is nothing to publish yet), and its overview says when the attack phase
is over and the results wait for the organizers."""

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from pwscup.competitions.models import Phase
from pwscup.competitions.services import round_phases_close
from pwscup.core.errors import Refused
from pwscup.kinds import kind_of
from pwscup.kinds.round_basics import RoundBasics
from pwscup.kinds.tabs import OVERVIEW, tab_url
from pwscup.scorer import services as scorer_services
from pwscup.submissions.services.two_sided import two_sided_demo_windows
from pwscup.synthetic import services as syn_services
from tests.pwscup import scorer_world, syn_world

pytestmark = pytest.mark.django_db


def _synthetic(slug):
    world = syn_world.syn_world(slug=slug, letters="ab", release_open=False)
    publish = lambda: syn_services.results_publish(  # noqa: E731
        synthetic=world.synthetic, user=world.organizer
    )
    return world, world.synthetic, lambda: syn_world.freeze(world), publish


def _scorer(slug):
    world = scorer_world.scorer_world(slug=slug, letters="ab", release_open=False, build=False)
    publish = lambda: scorer_services.results_publish(  # noqa: E731
        scorer=world.scorer, user=world.organizer
    )
    return world, world.scorer, lambda: scorer_world.freeze(world), publish


KINDS = {"synthetic": _synthetic, "scorer": _scorer}
REFUSED = {
    "en": "Freeze the releases first: there is nothing to publish yet.",
    "ja": "先に公開データを凍結してください。まだ公開するものがありません。",
}


@pytest.mark.parametrize("kind", KINDS)
def test_publishing_is_refused_and_not_offered_before_the_freeze(kind):
    world, row, freeze, publish = KINDS[kind](f"pub{kind[:3]}")
    assert "publish" not in kind_of(world.round).console_actions(world.round)
    for language, message in REFUSED.items():
        with translation.override(language), pytest.raises(Refused) as refused:
            publish()
        assert refused.value.message == message
        assert refused.value.status == 409
    row.refresh_from_db()
    assert not row.results_published
    freeze()
    assert "publish" in kind_of(world.round).console_actions(world.round)
    publish()
    row.refresh_from_db()
    assert row.results_published


def _here(page: str) -> str:
    """The number of the flow's box marked "the round is here"."""
    marked = page.split('aria-current="step"')[1]
    return marked.split('class="flow-number" aria-hidden="true">')[1].split("<")[0]


@pytest.mark.parametrize("kind", KINDS)
def test_the_overview_says_the_attack_phase_is_over_once_both_phases_closed(kind):
    world, _row, freeze, _publish = KINDS[kind](f"over{kind[:3]}")
    freeze()
    browser = Client()
    browser.force_login(world.users["a"])
    overview = tab_url(world.round, OVERVIEW)
    page = browser.get(overview).content.decode()
    assert "The releases are frozen: the attack phase." in page  # the attack phase is open
    assert _here(page) == "4"
    round_phases_close(round=world.round)
    for language, status in (
        ("en", "The attack phase is over: the results wait for the organizers."),
        ("ja", "攻撃フェーズは終了しました。結果は運営者の公開を待っています。"),
    ):
        page = browser.get(overview, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        state = page.split('data-testid="round-state">')[1].split("</p>")[0]
        assert state == status, language
        assert _here(page) == "5", language


def test_the_console_answers_publish_asked_before_the_freeze():
    """A console page opened earlier: *publish* asked before the freeze lands on the round's
    page saying why (not a 404, not a publication)."""
    world = syn_world.syn_world(slug="pubconsole", letters="ab", release_open=False)
    browser = Client()
    browser.force_login(world.organizer)
    args = [world.competition.slug, world.round.slug]
    answer = browser.post(reverse("console:round_action", args=[*args, "publish"]), follow=True)
    assert answer.redirect_chain == [(reverse("console:round", args=args), 302)]
    assert REFUSED["en"] in answer.content.decode()
    world.synthetic.refresh_from_db()
    assert not world.synthetic.results_published


NOTES = {
    "frozen": {"en": "Releases frozen · attack phase", "ja": "公開データ凍結済み・攻撃フェーズ"},
    "over": {
        "en": "Attack phase over · results wait for the organizers",
        "ja": "攻撃フェーズ終了・結果は運営者の公開待ち",
    },
    "published": {"en": "Results published", "ja": "結果は公開済み"},
}


def _console_note(browser, world, language: str) -> str:
    """The note under the round's kind in the console's list of rounds."""
    page = browser.get(
        reverse("console:competition", args=[world.competition.slug]),
        HTTP_ACCEPT_LANGUAGE=language,
    ).content.decode()
    cell = page.split(f'data-testid="console-round-kind-{world.round.slug}">')[1]
    return cell.split('<span class="muted small">')[1].split("</span>")[0]


@pytest.mark.parametrize("kind", KINDS)
def test_the_console_s_round_list_says_the_attack_phase_is_over_once_it_has_closed(kind):
    """The note follows the overview's rule: frozen with the attack phase not open yet or
    open, then over once it has closed (the results wait), then published."""
    world, _row, freeze, publish = KINDS[kind](f"note{kind[:3]}")
    freeze()
    browser = Client()
    browser.force_login(world.organizer)
    attack = world.round.phases.get(kind="attack")
    later = attack.closes_at + dt.timedelta(days=1)
    Phase.objects.filter(pk=attack.pk).update(opens_at=attack.closes_at, closes_at=later)
    # not open yet (test_two_sided_gap)
    assert _console_note(browser, world, "en") == "Releases frozen · attack phase not open yet"
    Phase.objects.filter(pk=attack.pk).update(opens_at=attack.opens_at, closes_at=later)
    assert _console_note(browser, world, "en") == NOTES["frozen"]["en"]  # open
    round_phases_close(round=world.round)
    for language, note in NOTES["over"].items():
        assert _console_note(browser, world, language) == note, language
    publish()
    for language, note in NOTES["published"].items():
        assert _console_note(browser, world, language) == note, language
    # The round's own console page states it in the same words (not the notification
    # kind's label, "結果の公開").
    page = browser.get(
        reverse("console:round", args=[world.competition.slug, world.round.slug]),
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    assert f">{NOTES['published']['ja']}<" in page


def test_the_lists_of_rounds_read_every_round_s_phases_in_one_query(admin_client):
    """The notes read the rounds' phases: the console's list of rounds and the admin's load
    them with the rounds (one query for all of them, not one per round)."""
    world, _row, freeze, _publish = _scorer("notequeries")
    freeze()
    scorer_services.scorer_round_create(
        basics=RoundBasics(competition=world.competition, name="Second", slug="s2"),
        config=scorer_world.CONFIG,
        windows=two_sided_demo_windows(timezone.now()),
        user=world.organizer,
    )
    browser = Client()
    browser.force_login(world.organizer)
    lists = (
        (browser, reverse("console:competition", args=[world.competition.slug])),
        (admin_client, reverse("admin:competitions_round_changelist")),
    )
    for client, url in lists:
        with CaptureQueriesContext(connection) as captured:
            page = client.get(url).content.decode()
        assert "Second" in page, url
        phases = [q["sql"] for q in captured.captured_queries if '"competitions_phase"' in q["sql"]]
        assert len(phases) == 1, (url, phases)
