"""A release's public files for one attacker only (PWSCup 2021 drew a test set per target
and attacker): what the program writes under ``output/public/for/<slot folder>/`` reaches
the team of that slot only, on the page and through the API (the ``pwscup`` client's
download); every other public file reaches every team, and the organizers get them all."""

import io
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from tests.pwscup.scorer_world import attack_phase, release, scorer_world, zipped

pytestmark = pytest.mark.django_db

# A program of this test: each release publishes a file for everyone and one per slot.
PROGRAM = zipped(
    {
        "metadata": b"command: python3 $program/score.py $input $output\n",
        "score.py": b"""import json, os, sys
out = sys.argv[2]
for slot in (1, 2, 3):
    os.makedirs(f"{out}/public/for/team_{slot:02d}", exist_ok=True)
    with open(f"{out}/public/for/team_{slot:02d}/ct.csv", "w") as f:
        f.write(f"test set for slot {slot}\\n")
with open(f"{out}/public/D.csv", "w") as f:
    f.write("for every team\\n")
json.dump({"utility": 1.0, "reidentified": 0.5}, open(f"{out}/scores.json", "w"))
""",
    }
)


def names(response) -> set[str]:
    assert response.status_code == 200, response
    data = b"".join(response.streaming_content) if response.streaming else response.content
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return set(archive.namelist())


def test_a_file_under_for_a_slot_reaches_that_slots_team_only():
    world = scorer_world(slug="sppt", letters="abc", program=PROGRAM)
    for letter in "abc":
        release(world, letter, b"anything\n")
    attack_phase(world)
    comp, rnd = world.competition.slug, world.round.slug
    page = reverse("scorer:target_public", args=[comp, rnd, "teama"])
    api = reverse("api:scorer-target-public", args=[comp, rnd, "teama"])
    for letter, slot in (("b", 2), ("c", 3)):
        client = Client()
        client.force_login(world.users[letter])
        expected = {"D.csv", f"for/team_{slot:02d}/ct.csv"}
        assert names(client.get(page)) == expected
        token = api_token_create(user=world.users[letter], name="t").secret
        assert names(Client().get(api, HTTP_AUTHORIZATION=f"Bearer {token}")) == expected
    organizer = Client()
    organizer.force_login(world.organizer)
    assert names(organizer.get(page)) == {"D.csv", *(f"for/team_{n:02d}/ct.csv" for n in (1, 2, 3))}
