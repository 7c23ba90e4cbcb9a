"""A post refused while a file was chosen names the file to choose again (a browser drops
it): the 2015 wizard's roles step (its configuration JSON), the scorer console's data
pack form (a data choice gone meanwhile) and its program form (a ZIP refused), in the
reader's language."""

import json

import pytest
from django.urls import reverse

from pwscup.scorer.models import DataPack
from tests.pwscup.scorer_world import scorer_world, upload_file, zipped
from tests.support import adult_head, csv_upload

pytestmark = pytest.mark.django_db

LINES = {
    "en": "Choose {name} again before sending the form",
    "ja": "送信する前に {name} をもう一度選んでください",
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_roles_step_names_the_configuration_file_to_choose_again(client, world, language):
    client.force_login(world.organizer)
    slug = world.competition.slug
    upload = csv_upload(adult_head(30), "adult.csv")
    step = reverse("pwscup2015_console:wizard_upload", args=[slug])
    assert client.post(step, {"original": upload}).status_code == 302
    roles = reverse("pwscup2015_console:wizard_roles", args=[slug])
    config = {"qi": [], "sa": ["fnlwgt"], "e2_column": "age", "e4_column": "fnlwgt"}
    chosen = csv_upload(json.dumps(config).encode(), "my_roles.json")
    refused = client.post(roles, {"config_file": chosen}, headers={"accept-language": language})
    assert refused.status_code == 200 and refused.context["form"].errors["config_file"]
    page = refused.content.decode()
    assert 'data-testid="roles-choose-again"' in page
    assert LINES[language].format(name="my_roles.json") in page
    blank = client.get(roles, headers={"accept-language": language}).content.decode()
    assert 'data-testid="roles-choose-again"' not in blank


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_pack_form_names_the_pack_to_choose_again(client, language):
    world = scorer_world(slug="cha")
    client.force_login(world.organizer)
    packs = DataPack.objects.filter(scorer=world.scorer).count()
    args = [world.competition.slug, world.round.slug, DataPack.Role.PUBLIC]
    action = reverse("scorer_console:pack", args=args)
    chosen = upload_file(zipped({"a.txt": b"1"}), "my_pack.zip", "application/zip")
    data = {"file": chosen, "choice": "gone"}  # a data choice removed in another tab
    refused = client.post(action, data, headers={"accept-language": language})
    assert refused.status_code == 200 and refused.context["form"].errors["choice"]
    page = refused.content.decode()
    assert 'data-testid="scorer-choose-again"' in page
    assert LINES[language].format(name="my_pack.zip") in page
    assert DataPack.objects.filter(scorer=world.scorer).count() == packs  # nothing kept


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_program_form_names_the_program_to_choose_again(client, language):
    world = scorer_world(slug="chp")
    client.force_login(world.organizer)
    action = reverse("scorer_console:program", args=[world.competition.slug, world.round.slug])
    chosen = upload_file(b"not a zip", "my_scorer.zip", "application/zip")
    refused = client.post(action, {"program": chosen}, headers={"accept-language": language})
    assert refused.status_code == 200 and refused.context["form"].errors["program"]
    page = refused.content.decode()
    assert 'data-testid="scorer-choose-again"' in page
    assert LINES[language].format(name="my_scorer.zip") in page
