"""An organizer's Data tab of a scorer round whose slots packs are each for a data choice
(PWSCup 2025: one per pack, none of no choice) links every team's folder, as the console
lists them, and each link gives the team's folder of its own choice's pack."""

import html
import io
import zipfile

import pytest
from django.urls import reverse

from pwscup.competitions.choice_services import choices_set, team_choice_set
from pwscup.scorer import services
from pwscup.scorer.models import DataPack
from tests.pwscup.scorer_world import scorer_world, upload_file, zipped

pytestmark = pytest.mark.django_db


def test_the_organizer_downloads_each_teams_folder_of_its_choice(client):
    world = scorer_world(slug="chslots", letters="ab")
    DataPack.objects.filter(scorer=world.scorer, role=DataPack.Role.SLOTS, choice="").delete()
    rows = [{"key": k, "label": f"Data {k}", "label_ja": f"データ {k}"} for k in ("d1", "d2")]
    choices_set(user=world.organizer, round=world.round, rows=rows)
    for key in ("d1", "d2"):
        files = {f"team_{n:02d}/BB.csv": f"{key} slot {n}\n".encode() for n in (1, 2)}
        services.pack_upload(
            scorer=world.scorer,
            role=DataPack.Role.SLOTS,
            uploaded_file=upload_file(zipped(files), f"{key}.zip"),
            user=world.organizer,
            choice=key,
        )
    team_choice_set(user=world.users["b"], round=world.round, team=world.teams["b"], key="d2")
    client.force_login(world.organizer)
    args = [world.competition.slug, world.round.slug]
    page = client.get(reverse("round_tab", args=[*args, "data"]))
    text = html.unescape(page.content.decode())
    for slug, expected in (("teama", b"d1 slot 1\n"), ("teamb", b"d2 slot 2\n")):
        url = reverse("scorer:slot_folder", args=[*args, slug])
        assert f'href="{url}"' in text, slug
        body = b"".join(client.get(url).streaming_content)
        with zipfile.ZipFile(io.BytesIO(body)) as folder:
            [name] = folder.namelist()
            assert folder.read(name) == expected
