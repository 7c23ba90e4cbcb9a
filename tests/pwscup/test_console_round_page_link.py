"""The console's page of a round links to the round's own page (the one teams see), once,
whatever the round's kind: a DP round's console page had no such link (each kind's panel
carried its own, and the DP panel none), so an organizer walking from the console to the
round had to go back through the competition."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.scorer_world import scorer_world
from tests.pwscup.seq_web_world import seq_world
from tests.pwscup.syn_world import syn_world

pytestmark = pytest.mark.django_db

WORLDS = {
    "dp": build_dp_world,
    "scorer": scorer_world,
    "sequential": seq_world,
    "synthetic": syn_world,
}


@pytest.mark.parametrize("kind", sorted(WORLDS))
@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_console_round_page_links_to_the_round_page_once(kind, language):
    world = WORLDS[kind](slug=f"link-{kind}")
    round_ = world.round
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.organizer)
    page = client.get(reverse("console:round", args=[world.competition.slug, round_.slug]))
    assert page.status_code == 200
    round_page = reverse("round_detail", args=[world.competition.slug, round_.slug])
    links = re.findall(
        rf'<a href="{re.escape(round_page)}"[^>]*>([^<]*)</a>', page.content.decode()
    )
    assert links == [{"en": "Round page", "ja": "ラウンドのページ"}[language]], links
