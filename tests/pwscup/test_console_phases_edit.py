"""The console's page *Dates and limits* (``pwscup.console.phase_views``): an organizer who is
not a superuser changes a two-sided round's phases (synthetic data, the organizer's scoring
program) after the round exists, and the teams' upload windows follow; the order rule of
the creation and the game's own refusals hold; others are refused; a kind with its own edit
page (the 2015 game) is not offered it."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.competitions.models import AuditEntry, Phase
from pwscup.core.errors import Refused
from pwscup.submissions.services.two_sided import two_sided_attack_open
from pwscup.synthetic import services as syn_services
from pwscup.synthetic.models import SynTarget
from tests.pwscup import scorer_world as sco
from tests.pwscup import syn_world as syn
from tests.pwscup.rendered_forms import post_as_rendered

pytestmark = pytest.mark.django_db

FORM = "round-phases-form"
HOUR = dt.timedelta(hours=1)


def page_url(round_) -> str:
    return reverse("console:round_phases", args=[round_.competition.slug, round_.slug])


def control_url(round_) -> str:
    return reverse("console:round", args=[round_.competition.slug, round_.slug])


def signed_in(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def typed(round_, at: dt.datetime) -> str:
    """``at`` as the browser's date and time picker sends it, in the round's time zone."""
    return at.astimezone(ZoneInfo(round_.timezone)).strftime("%Y-%m-%dT%H:%M")


def phase(round_, key) -> Phase:
    return Phase.objects.get(round=round_, kind=key)


def extend_attack(client, round_, days: int = 3, **fill):
    closes = phase(round_, "attack").closes_at + dt.timedelta(days=days)
    fill = {"attack_closes_at": typed(round_, closes), **fill}
    return post_as_rendered(client, page_url(round_), FORM, fill), closes


def test_an_organizer_extends_a_synthetic_rounds_attack_phase_and_a_team_attacks_then():
    world = syn.syn_world(letters="ab")
    assert not world.organizer.is_superuser
    for letter in "ab":
        syn.release(world, letter, syn.baseline_release(world, letter))
    # *Open the attack phase now*: the release phase closes now (seconds and all), the
    # releases are frozen.
    targets, _attack = syn_services.attack_phase_open_now(
        synthetic=world.synthetic, user=world.organizer
    )
    for target in targets:
        syn_services.target_score(target_id=target.pk)
    target = SynTarget.objects.get(synthetic=world.synthetic, team=world.teams["b"])
    late = phase(world.round, "attack").closes_at + HOUR
    with pytest.raises(Refused):
        syn.attack(world, "a", target, syn.dcr_answer_bytes(world, target), now=late)

    client = signed_in(world.organizer)
    assert page_url(world.round) in client.get(control_url(world.round)).content.decode()
    answer, closes = extend_attack(client, world.round, attack_daily_limit="5")
    assert answer.status_code == 302, answer.content.decode()
    said = client.get(answer.url).content.decode()
    assert "The round&#x27;s dates and limits are saved." in said
    attack = phase(world.round, "attack")
    assert attack.closes_at == closes.replace(second=0, microsecond=0)
    assert attack.daily_limit == 5
    assert attack.planned_closes_at is None  # the organizer's date is the new plan
    hit = syn.attack(world, "a", target, syn.dcr_answer_bytes(world, target), now=late)
    assert hit.status == "finished", hit.message
    edits = AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_EDITED)
    assert edits.latest("pk").detail["fields"] == ["attack_closes_at", "attack_daily_limit"]


def test_an_organizer_extends_a_scorer_rounds_attack_phase_and_its_window_follows():
    world = sco.scorer_world(letters="ab", build=False)
    sco.attack_phase(world)  # the release phase closes now (seconds and all), the round freezes
    state = world.scorer
    late = phase(world.round, "attack").closes_at + HOUR
    team = world.teams["a"]
    with pytest.raises(Refused):
        two_sided_attack_open(state=state, team=team, target=None, now=late)

    answer, closes = extend_attack(signed_in(world.organizer), world.round, attack_target_limit="2")
    assert answer.status_code == 302, answer.content.decode()
    attack = phase(world.round, "attack")
    assert attack.closes_at == closes.replace(second=0, microsecond=0)
    assert attack.target_limit == 2
    two_sided_attack_open(state=state, team=team, target=None, now=late)  # open now


def test_both_order_errors_at_once_each_under_its_field_and_nothing_saved():
    world = sco.scorer_world(letters="a", build=False)
    stored = {key: phase(world.round, key).closes_at for key in ("release", "attack")}
    release = phase(world.round, "release")
    answer = post_as_rendered(
        signed_in(world.organizer),
        page_url(world.round),
        FORM,
        {
            # The release phase closes before it opens; the attack phase opens before the
            # release phase closes.
            "release_closes_at": typed(world.round, release.opens_at - HOUR),
            "attack_opens_at": typed(world.round, release.opens_at - 2 * HOUR),
        },
    )
    assert answer.status_code == 200
    errors = answer.context["form"].errors
    assert errors["release_closes_at"] == ["A phase must close after it opens."]
    assert errors["attack_opens_at"] == [
        "The attack phase opens once the release phase has closed."
    ]
    assert {key: phase(world.round, key).closes_at for key in stored} == stored


def test_the_release_phase_of_a_frozen_round_does_not_reopen():
    world = syn.syn_world(letters="ab", release_open=False)
    syn.freeze(world)
    release = phase(world.round, "release")
    answer = post_as_rendered(
        signed_in(world.organizer, "ja"),
        page_url(world.round),
        FORM,
        {"release_closes_at": typed(world.round, release.closes_at + 3 * HOUR)},
    )
    assert answer.status_code == 200
    message = answer.context["form"].errors["release_closes_at"][0]
    assert "凍結" in message
    assert phase(world.round, "release").closes_at == release.closes_at


def test_a_non_organizer_is_refused_and_nothing_changes():
    world = sco.scorer_world(letters="a", build=False)
    closes = phase(world.round, "attack").closes_at
    for user in (world.users["a"], None):
        client = Client()
        if user is not None:
            client.force_login(user)
        page = client.get(page_url(world.round))
        posted = client.post(page_url(world.round), {"attack_closes_at": "2099-01-01T00:00"})
        assert page.status_code in (302, 404), page.status_code
        assert posted.status_code in (302, 404), posted.status_code
        if user is not None:
            assert (page.status_code, posted.status_code) == (404, 404)
    assert phase(world.round, "attack").closes_at == closes


def test_the_2015_round_has_its_own_edit_page_and_is_not_offered_this_one(world):
    client = signed_in(world.organizer)
    control = client.get(control_url(world.round)).content.decode()
    assert 'data-testid="round-dates"' not in control
    assert client.get(page_url(world.round)).status_code == 404


@pytest.mark.parametrize(
    "build",
    [lambda: syn.syn_world(letters="a"), lambda: sco.scorer_world(letters="a", build=False)],
    ids=["synthetic", "scorer"],
)
def test_the_limits_are_a_teams_uploads_per_day_and_in_total(build):
    world = build()
    page = signed_in(world.organizer).get(page_url(world.round)).content.decode()
    for words in ("Uploads per team per day", "Uploads per team in total"):
        assert words in page, words
    assert "per level" not in page


def test_the_page_in_japanese():
    world = sco.scorer_world(letters="a", build=False)
    client = signed_in(world.organizer, "ja")
    control = client.get(control_url(world.round)).content.decode()
    assert "日程と上限" in control
    page = re.sub(r"<[^>]*>", " ", client.get(page_url(world.round)).content.decode())
    for words in ("日程と上限", "開示フェーズの開始", "攻撃フェーズの締切", "攻撃対象"):
        assert words in page, words
    for english in ("Dates and limits", "Uploads per team", "opens", "closes", "time zone"):
        assert english not in page, english
