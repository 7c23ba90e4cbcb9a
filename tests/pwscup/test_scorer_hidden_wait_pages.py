"""A scorer round imported from a bundle without its hidden data (the export's default) waits
for it: its uploads are refused (``test_scorer_bundle``), and its team pages say so instead of
offering the upload form and asking the team to upload (a new class met an open form, then a
refusal)."""

import pytest
from django.urls import reverse

from pwscup.scorer import services
from pwscup.scorer.models import DataPack
from tests.pwscup.scorer_world import scorer_world, upload_file, zipped

pytestmark = pytest.mark.django_db

WAITING = (
    "This round is not open yet: the organizers have still to upload its hidden data (truth.zip)."
)


def _tab(client, world, tab: str) -> str:
    address = reverse("round_tab", args=[world.competition.slug, world.round.slug, tab])
    return client.get(address).content.decode()


def test_a_team_sees_the_round_wait_for_its_hidden_data_then_the_form(client):
    world = scorer_world(slug="hw1", letters="a")
    services.hidden_packs_await(scorer=world.scorer, packs=[("truth", "")])
    client.force_login(world.users["a"])
    submit = _tab(client, world, "submit")
    assert 'data-testid="upload-form"' not in submit
    assert WAITING in submit
    overview = client.get(f"/c/{world.competition.slug}/{world.round.slug}/").content.decode()
    assert WAITING in overview
    assert "Upload a release; the organizer" not in overview
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.TRUTH,
        uploaded_file=upload_file(
            zipped({"truth/answers.csv": b"id,answer\n1,2\n"}), "truth.zip", "application/zip"
        ),
    )
    submit = _tab(client, world, "submit")
    assert 'data-testid="upload-form"' in submit and WAITING not in submit
