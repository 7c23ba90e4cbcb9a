"""One rule for the identifiers an organizer types that end up in URLs and file names
(``scoring.identifiers.is_identifier``): a DP level or workload target id holding a ``/``
is refused by the service, the console's form and the admin with the rule's message, so
no round page ever fails to build its URL (it answered 500 for everyone)."""

import copy
import datetime as dt
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from pwscup.bundles.manifest import SCHEMA_PATH
from pwscup.competitions.models import Round
from pwscup.dp import engine
from pwscup.dp.services import dp_round_create
from pwscup.kinds.round_basics import RoundBasics
from scoring.dp.config import parse_config
from scoring.dp.errors import DPError
from scoring.identifiers import DOTTED_PATTERN, SLUG_PATTERN
from tests.pwscup.dp_world import TOY_CONFIG, toy_csv

HOSTILE_IDS = ["eps/1", "../x", ".hidden", "a b", "x" * 51, "", "é"]


def _config(level_id: str) -> dict:
    config = copy.deepcopy(TOY_CONFIG)
    config["levels"][0]["id"] = level_id
    return config


@pytest.mark.parametrize("level_id", HOSTILE_IDS)
def test_scoring_refuses_a_level_id_that_is_no_identifier(level_id):
    with pytest.raises(DPError) as caught:
        parse_config(_config(level_id))
    assert caught.value.code in ("dp.level.id_form", "dp.config.bad_value"), caught.value.code


def test_scoring_keeps_dotted_level_ids_and_refuses_target_ids_with_a_slash():
    assert parse_config(_config("eps-0.1")).levels[0].id == "eps-0.1"
    config = copy.deepcopy(TOY_CONFIG)
    config["workload"][0]["id"] = "a/b"
    with pytest.raises(DPError) as caught:
        parse_config(config)
    assert caught.value.code == "dp.target.id_form"
    assert "Target id 'a/b' is not valid" in str(caught.value)
    assert "対象 ID 'a/b' は使えません" in caught.value.render("ja")


def test_a_stored_configuration_is_read_without_the_rule():
    # Saved before the rule (checked then): its rounds keep working.
    stored = engine.config_validate(TOY_CONFIG)
    stored["levels"][0]["id"] = "ε 1"
    assert engine.config_of(stored).levels[0].id == "ε 1"
    with pytest.raises(DPError):
        engine.config_validate(stored)


def test_the_bundle_schema_states_the_same_slug_pattern():
    schema = json.loads(SCHEMA_PATH.read_text())
    assert schema["$defs"]["slug"]["pattern"] == f"^{SLUG_PATTERN.pattern}$"
    assert re.fullmatch(DOTTED_PATTERN, "eps-0.1") and not re.fullmatch(SLUG_PATTERN, "eps-0.1")


@pytest.mark.django_db
def test_the_service_refuses_a_level_id_with_a_slash(world):
    now = timezone.now()
    with pytest.raises(ValidationError) as caught:
        dp_round_create(
            basics=RoundBasics(competition=world.competition, name="DP", slug="dp"),
            table=toy_csv(),
            table_filename="hidden.csv",
            config_raw=_config("eps/1"),
            opens_at=now,
            closes_at=now + dt.timedelta(days=1),
        )
    assert "Level id 'eps/1' is not valid" in str(caught.value)
    assert not Round.objects.filter(slug="dp").exists()


@pytest.mark.django_db
def test_the_console_form_names_the_level_id_and_creates_nothing(world, client):
    client.force_login(world.organizer)
    response = client.post(
        reverse("dp_console:create", args=[world.competition.slug]),
        {
            "name": "DP",
            "slug": "dp",
            "config": json.dumps(_config("eps/1")),
            "timezone": "Asia/Tokyo",
            "opens_at": "2030-01-01 00:00",
            "closes_at": "2030-12-01 00:00",
            "table": SimpleUploadedFile("t.csv", toy_csv()),
        },
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert any("Level id 'eps/1' is not valid" in m for m in errors["config"]), errors
    assert not Round.objects.filter(slug="dp").exists()
    # The competition's pages still answer.
    assert (
        client.get(reverse("console:competition", args=[world.competition.slug])).status_code == 200
    )


@pytest.mark.django_db
def test_the_admin_names_the_level_id_and_creates_nothing(world, client):
    root = get_user_model().objects.create_superuser("root", "root@ex.org", "pw")
    client.force_login(root)
    response = client.post(
        reverse("admin:dp_dpround_add"),
        {
            "competition": world.competition.pk,
            "name": "DP",
            "slug": "dp",
            "config_json": json.dumps(_config("eps/1")),
            "timezone": "Asia/Tokyo",
            "opens_at": "2030-01-01 00:00",
            "closes_at": "2030-12-01 00:00",
            "table": SimpleUploadedFile("t.csv", toy_csv()),
        },
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert any("Level id 'eps/1' is not valid" in m for m in errors["config_json"]), errors
    assert not Round.objects.filter(slug="dp").exists()
