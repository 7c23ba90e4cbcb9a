"""A team whose slot has no folder in the slots pack (a slot set past the pack's folders on
the console, a pack that leaves one out): the organizers' Data tab links no download that
would answer 404, and both it and the console's *Team slots* table say that the team gets
no files of its own (found walking the demo: slot 13 of a three-folder pack)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.scorer import services
from tests.pwscup.scorer_world import scorer_world

pytestmark = pytest.mark.django_db


NOTES = {
    "en": (
        "Team A: the slots pack has no folder team_13/, so this team gets no files of its own.",
        "team_13/ (not in the slots pack: no files for this team)",
    ),
    "ja": (
        "Team A: スロットパックにフォルダ team_13/ がないため、このチームには専用のファイルがありません。",
        "team_13/ （スロットパックにないため、このチームのファイルはありません）",
    ),
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_slot_without_a_folder_is_named_and_never_linked(language):
    note, cell = NOTES[language]
    world = scorer_world(slug=f"scofold{language}", build=False)
    services.slot_set(scorer=world.scorer, team=world.teams["a"], slot=13, user=world.organizer)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.organizer)
    args = [world.competition.slug, world.round.slug]
    page = client.get(reverse("round_tab", args=[*args, "data"])).content.decode()
    section = page.split('data-testid="slots"', 1)[1].split("</section>", 1)[0]
    links = re.findall(r'href="([^"]+)"', section)
    # Teams B and C have their folders; every link the organizer is given downloads.
    assert len(links) == 2
    for link in links:
        assert client.get(link).status_code == 200, link
    assert note in re.sub(r"<[^>]+>", "", section)
    console = client.get(reverse("console:round", args=args)).content.decode()
    table = console.split('data-testid="scorer-slots"', 1)[1].split("</table>", 1)[0]
    rows = [re.sub(r"<[^>]+>", "", row) for row in table.split("<tr")]
    (team_a,) = [row for row in rows if "Team A" in row]
    assert cell in " ".join(team_a.split()), team_a
    # Teams B and C, whose folders have files, carry no such note.
    assert sum(cell.split("/", 1)[1] in " ".join(row.split()) for row in rows) == 1
