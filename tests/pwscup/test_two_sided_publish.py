"""A two-sided round (synthetic, scorer) publishes its results once its releases are frozen,
never before (there is nothing to publish yet), and its overview says when the attack phase
is over and the results wait for the organizers."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from pwscup.competitions.services import round_phases_close
from pwscup.core.errors import Refused
from pwscup.kinds import kind_of
from pwscup.kinds.tabs import OVERVIEW, tab_url
from pwscup.scorer import services as scorer_services
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
    "ja": "先にリリースを凍結してください。まだ公開するものがありません。",
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
