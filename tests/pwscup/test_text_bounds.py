"""Every text an organizer types is bounded, by the numbers ``pwscup.core.text_limits``
declares: the bundle's JSON Schema, the console's forms, the admin (from the models) and the
services all refuse a longer one with a message naming it (a bundle once put a 50 MB
description on the home page)."""

import io
import json

import pytest
from django.contrib.admin.sites import site
from django.core.exceptions import ValidationError
from django.test import RequestFactory
from django.urls import reverse

from pwscup.accounts.models import TeamDisqualification
from pwscup.bundles import services as bundle_services
from pwscup.bundles.manifest import SCHEMA_PATH
from pwscup.bundles.selectors import competition_bundle
from pwscup.competitions.models import Competition
from pwscup.competitions.services import competition_create
from pwscup.console.services import console_competition_update, console_team_disqualify
from pwscup.core.text_limits import (
    BUNDLE_MAX_ROUNDS,
    BUNDLE_MAX_WINDOWS,
    DESCRIPTION_MAX_LENGTH,
    REASON_MAX_LENGTH,
)
from tests.pwscup.bundle_helpers import START, creator, rebuilt

pytestmark = pytest.mark.django_db

TOO_LONG = "x" * (DESCRIPTION_MAX_LENGTH + 1)


def test_the_schema_states_the_declared_bounds():
    schema = json.loads(SCHEMA_PATH.read_text())
    competition = schema["properties"]["competition"]["properties"]
    assert competition["description"]["maxLength"] == DESCRIPTION_MAX_LENGTH
    assert schema["properties"]["rounds"]["maxItems"] == BUNDLE_MAX_ROUNDS
    assert schema["properties"]["presentations"]["maxItems"] == BUNDLE_MAX_WINDOWS

    def strings(node, path=""):
        if isinstance(node, dict):
            if node.get("type") == "string":
                yield path, node
            for key, value in node.items():
                yield from strings(value, f"{path}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from strings(value, f"{path}/{index}")

    for path, node in strings(schema):
        assert "maxLength" in node or "pattern" in node, path  # every string bounded
        if "pattern" in node and "maxLength" not in node:
            assert node["pattern"].endswith("}$"), path  # a bounded repetition


def _import(world, data):
    with pytest.raises(ValidationError) as caught:
        bundle_services.competition_import(
            bundle_file=io.BytesIO(data),
            name="",
            slug="copy",
            start=START,
            user=creator(world.organizer),
        )
    assert not Competition.objects.filter(slug="copy").exists()
    return caught.value.messages


def test_a_bundle_with_a_long_description_is_refused(world):
    bundle = competition_bundle(competition=world.competition).data
    messages = _import(
        world, rebuilt(bundle, change=lambda m: m["competition"].update(description=TOO_LONG))
    )
    assert messages == [
        "manifest.json: competition.description: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is too long (at most 20000 characters)."
    ]
    # The field probe's: a 50 MB description (here 5 MB) in a small ZIP.
    messages = _import(
        world,
        rebuilt(bundle, change=lambda m: m["competition"].update(description="x" * 5_000_000)),
    )
    assert len(messages) == 1
    assert messages[0].startswith("manifest.json: The JSON text is 5,00")
    assert messages[0].endswith("bytes; at most 1,000,000 bytes are allowed.")


def test_a_bundle_with_too_many_rounds_is_refused_with_a_short_message(world):
    bundle = competition_bundle(competition=world.competition).data

    def many(manifest):
        manifest["rounds"] = manifest["rounds"] * (BUNDLE_MAX_ROUNDS + 1)

    messages = _import(world, rebuilt(bundle, change=many))
    assert messages[0] == "manifest.json: rounds: 101 items; at most 100 are allowed."
    assert all(len(message) < 400 for message in messages)
    assert len(set(messages)) == len(messages)  # each message once


def test_the_services_refuse_a_long_description_or_reason(world):
    with pytest.raises(ValidationError) as caught:
        competition_create(name="Long", slug="long", description=TOO_LONG)
    assert caught.value.message_dict == {
        "description": ["The description has at most 20,000 characters; this one has 20,001."]
    }
    with pytest.raises(ValidationError) as caught:
        console_competition_update(
            user=world.organizer, competition=world.competition, description=TOO_LONG
        )
    assert "description" in caught.value.message_dict
    assert Competition.objects.get(pk=world.competition.pk).description == ""
    with pytest.raises(ValidationError) as caught:
        console_team_disqualify(
            user=world.organizer, team=world.teams["a"], reason="r" * (REASON_MAX_LENGTH + 1)
        )
    assert caught.value.message_dict == {
        "reason": ["The reason has at most 2,000 characters; this one has 2,001."]
    }
    assert not TeamDisqualification.objects.exists()


def test_the_console_forms_refuse_a_long_description_or_reason(world, client):
    client.force_login(world.organizer)
    c = world.competition.slug
    response = client.post(
        reverse("console:competition_edit", args=[c]),
        {"name": world.competition.name, "description": TOO_LONG, "max_team_size": "3"},
    )
    assert response.status_code == 200
    assert "description" in response.context["form"].errors
    response = client.post(
        reverse("console:team_disqualify", args=[c, world.teams["a"].pk]),
        {"reason": "r" * (REASON_MAX_LENGTH + 1)},
    )
    assert response.status_code == 200
    assert "reason" in response.context["form"].errors
    assert not TeamDisqualification.objects.exists()


def test_the_admins_form_takes_the_models_bound(world, django_user_model):
    request = RequestFactory().get("/")
    request.user = django_user_model.objects.create_superuser("root", "root@ex.org", "pw")
    form = site.get_model_admin(Competition).get_form(request)()
    assert form.fields["description"].max_length == DESCRIPTION_MAX_LENGTH
