"""A two-sided round (synthetic, scorer) publishes its results once its releases are frozen,
never before (there is nothing to publish yet)."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from pwscup.core.errors import Refused
from pwscup.kinds import kind_of
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
