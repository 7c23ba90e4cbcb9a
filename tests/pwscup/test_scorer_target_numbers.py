"""The Data tab of a frozen scorer round gives each target's team number (its slot): an answer
laid out by team number (PWSCup 2024: columns 2i-1 and 2i; 2025: column i for team i) cannot
be written without it, and the program reads the same numbers in ``target_slots``."""

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from pwscup.scorer.models import TeamSlot
from pwscup.scorer.services.scoring_runs import target_slots
from tests.pwscup.scorer_world import CONFIG, attack_phase, release, release_bytes, scorer_world

pytestmark = pytest.mark.django_db


def data_tab(client, world, user, lang: str) -> str:
    client.force_login(user)
    client.cookies["django_language"] = lang
    url = reverse("round_tab", args=[world.competition.slug, world.round.slug, "data"])
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.mark.parametrize(("lang", "heading"), [("en", "Team number"), ("ja", "チーム番号")])
def test_each_frozen_target_shows_the_team_number_the_program_reads(client, lang, heading):
    world = scorer_world(slug=f"tnum{lang}", config={**CONFIG, "attack_mode": "all_targets"})
    for letter, noise in zip("abc", (0, 20, 40), strict=True):
        release(world, letter, release_bytes(noise=noise, seed=noise))
    targets = attack_phase(world)
    with translation.override(lang):
        text = data_tab(client, world, world.users["c"], lang)
    assert heading in text
    numbers = target_slots(scorer=world.scorer, shown=targets.values())
    assert set(numbers) == {"teama", "teamb", "teamc"}
    for slug, number in numbers.items():
        assert number == TeamSlot.objects.get(scorer=world.scorer, team__slug=slug).slot
        shown = re.search(rf'data-testid="target-slot-{slug}">\s*([^<]*?)\s*<', text)
        assert shown is not None, slug
        folder = f"team_{number:02d}"
        assert shown.group(1) == f"{number} ({folder})"


def test_the_api_lists_each_target_with_its_team_number(client):
    from pwscup.api.services import api_token_create

    world = scorer_world(slug="tnumapi", config={**CONFIG, "attack_mode": "all_targets"})
    for letter, noise in zip("abc", (0, 20, 40), strict=True):
        release(world, letter, release_bytes(noise=noise, seed=noise))
    attack_phase(world)
    token = api_token_create(user=world.users["c"], name="t").secret
    url = reverse("api:scorer-targets", args=[world.competition.slug, world.round.slug])
    listed = client.get(url, HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [t["team"]["slug"] for t in listed] == ["teama", "teamb"]
    for entry in listed:
        slot = TeamSlot.objects.get(scorer=world.scorer, team__slug=entry["team"]["slug"])
        assert entry["slot"] == slot.slot
