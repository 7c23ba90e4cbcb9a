"""The core's one refusal outside a window (``window_check``) on the entry points the kinds'
conformance suite does not play (tests/kinds/test_uploads_conform.py plays each kind's first
upload window): a presentation window, a DP round's queries, the synthetic attack phase, the
choice of a final submission. Each names its window and the time in its time zone, in
English and in Japanese, and keeps nothing."""

import datetime as dt

import pytest
from django.utils import timezone, translation

from pwscup.core.errors import Refused
from pwscup.dp.models import Charge
from pwscup.dp.services import dp_query_answer
from pwscup.presentations.models import Slides
from pwscup.pwscup2015 import services as pwscup2015_services
from pwscup.submissions.services.windows import format_at
from pwscup.synthetic.models import SynAttack
from tests.pwscup.dp_world import build_dp_world, close_now
from tests.pwscup.factories import scored
from tests.pwscup.presentations_support import HOUR, upload, window_for
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    dcr_answer_bytes,
    freeze,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db

BEFORE = {
    "en": "{window} is not open yet: it opens at {at}.",
    "ja": "{window}はまだ始まっていません。{at} に始まります。",
}
AFTER = {
    "en": "{window} closed at {at}; uploads are no longer accepted.",
    "ja": "{window}は {at} に締め切られました。アップロードはもう受け付けていません。",
}
LANGUAGES = ("en", "ja")


def refused_in(language: str, call) -> Refused:
    with translation.override(language), pytest.raises(Refused) as refused:
        call()
    assert refused.value.status == 403
    return refused.value


@pytest.mark.parametrize("language", LANGUAGES)
def test_slides_outside_the_window_are_refused_with_the_cores_message(world, language):
    now = timezone.now()
    later = window_for(world, opens_at=now + HOUR, closes_at=now + 2 * HOUR)
    refused = refused_in(language, lambda: upload(world, later))
    at = format_at(later.zone, later.opens_at)
    assert refused.message == BEFORE[language].format(window=later.name, at=at)
    earlier = window_for(world, round=None, opens_at=now - 2 * HOUR, closes_at=now - HOUR)
    refused = refused_in(language, lambda: upload(world, earlier))
    at = format_at(earlier.zone, earlier.closes_at)
    with translation.override(language):  # a competition-wide window: "Presentations"
        name = earlier.name
    assert refused.message == AFTER[language].format(window=name, at=at)
    assert not Slides.objects.exists()


def test_published_slides_close_their_window_at_the_publication(world):
    """Publishing the slides ends the window: refused as closed then, not at its planned
    close (still ahead)."""
    window = window_for(world)
    published_at = timezone.now() - dt.timedelta(minutes=5)
    type(window).objects.filter(pk=window.pk).update(published_at=published_at)
    refused = refused_in("en", lambda: upload(world, window))
    at = format_at(window.zone, published_at)
    assert refused.message == AFTER["en"].format(window=window.name, at=at)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_dp_query_outside_the_release_phase_is_refused_with_the_cores_message(language):
    world = build_dp_world(slug=f"dpwin{language}")
    dp_round = world.dp_round

    def ask(now=None):
        dp_query_answer(
            dp_round=dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
            payload={"type": "histogram", "attributes": ["gender"], "epsilon": "0.5"}, now=now,
        )  # fmt: skip

    early = dp_round.opens_at - dt.timedelta(minutes=1)
    refused = refused_in(language, lambda: ask(early))
    at = format_at(world.round.timezone, dp_round.opens_at)
    label = {"en": "Release phase", "ja": "開示フェーズ"}[language]
    assert refused.message == BEFORE[language].format(window=label, at=at)
    close_now(world)
    dp_round.refresh_from_db()
    refused = refused_in(language, ask)
    at = format_at(world.round.timezone, dp_round.closes_at)
    assert refused.message == AFTER[language].format(window=label, at=at)
    assert not Charge.objects.exists()


def test_a_synthetic_attack_outside_the_attack_phase_is_refused_with_the_cores_message():
    world = syn_world(slug="synwin", letters="ab")
    for letter in "ab":
        release(world, letter, baseline_release(world, letter, seed=1))
    targets = freeze(world)
    target = targets[world.teams["a"].slug]
    content = dcr_answer_bytes(world, target)
    phase = world.round.phases.get(kind="attack")
    after = phase.closes_at + dt.timedelta(minutes=1)
    for language in LANGUAGES:
        refused = refused_in(language, lambda: attack(world, "b", target, content))
        at = format_at(world.round.timezone, phase.opens_at)
        label = {"en": "Attack phase", "ja": "攻撃フェーズ"}[language]
        assert refused.message == BEFORE[language].format(window=label, at=at)
        refused = refused_in(language, lambda: attack(world, "b", target, content, now=after))
        assert refused.message == AFTER[language].format(
            window=label, at=format_at(world.round.timezone, phase.closes_at)
        )
    assert not SynAttack.objects.exists()


def test_the_final_submission_cannot_change_once_the_phase_has_closed(world):
    """Choosing the final submission is refused as an upload would be, at the phase's real
    close."""
    submission = scored(world, "a", seed=1)
    closes_at = world.anonymization.closes_at
    refused = refused_in(
        "en",
        lambda: pwscup2015_services.anonymization_submission_select(
            submission=submission, team=world.teams["a"], now=closes_at
        ),
    )
    at = format_at(world.round.timezone, closes_at)
    assert refused.message == AFTER["en"].format(window="Anonymization phase", at=at)
    submission.refresh_from_db()
    assert not submission.is_selected
