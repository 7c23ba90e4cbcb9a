"""A 2015 round's configuration with several faults is refused with every one of them, each
where it belongs and in the reader's language: under its role on the wizard's roles step,
in the admin's configuration field, and keyed by its settings path in a bundle import."""

import html
import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

import scoring
from pwscup.bundles import services
from pwscup.bundles.selectors import competition_bundle
from pwscup.competitions.models import Round
from tests.pwscup.bundle_helpers import START, creator, rebuilt
from tests.support import adult_config, adult_head, csv_upload

pytestmark = pytest.mark.django_db

# The English of the faults below: none of it may show on a Japanese page.
ENGLISH = ("must name at least one column", "must be one of the", "is not numeric in the")


def _texts(error: scoring.ConfigError, language: str) -> list[str]:
    return [item.render(language) for item in error.errors]


def _library_errors(config: dict, original: bytes) -> scoring.ConfigError:
    """What ``scoring.load_config`` says of ``config`` (the texts the pages must show)."""
    with pytest.raises(scoring.ConfigError) as caught:
        scoring.load_config(config, scoring.read_table(original))
    return caught.value


def _roles_posted(client, world, data: dict, language: str):
    client.force_login(world.organizer)
    slug = world.competition.slug
    upload = csv_upload(adult_head(30), "adult.csv")
    assert (
        client.post(
            reverse("pwscup2015_console:wizard_upload", args=[slug]), {"original": upload}
        ).status_code
        == 302
    )
    roles = reverse("pwscup2015_console:wizard_roles", args=[slug])
    return client.post(roles, data, headers={"accept-language": language})


# Three faults of three roles: no QI, an E2 column outside the SA, a text column (workclass)
# compared as numbers.
FAULTS = {
    "sa": ["fnlwgt"],
    "e2_column": "age",
    "e4_column": "fnlwgt",
    "match_qi": ["age"],
    "euc_sa": ["fnlwgt"],
    "number_domain": ["fnlwgt", "workclass"],
}


def _as_config(roles: dict) -> dict:
    """The configuration the roles step makes of ``roles`` (``RolesForm.raw_config``)."""
    numbers = roles["number_domain"]
    columns = scoring.read_table(adult_head(1)).columns
    return {
        "qi": roles.get("qi", []),
        "sa": roles["sa"],
        "cross": roles.get("cross", []),
        "e2_column": roles["e2_column"],
        "e4_column": roles["e4_column"],
        "match_qi": roles["match_qi"],
        "euc_sa": roles["euc_sa"],
        "domains": {c: "number" if c in numbers else "original-values" for c in columns},
    }


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_roles_step_shows_every_fault_under_its_role_in_the_readers_language(
    client, world, language
):
    response = _roles_posted(client, world, FAULTS, language)
    assert response.status_code == 200  # the step is shown again, nothing kept
    errors = response.context["form"].errors
    expected = _library_errors(_as_config(FAULTS), adult_head(30))
    assert [item.params["key"] for item in expected.errors] == [
        "qi",
        "e2_column",
        "domains.workclass",
    ]
    japanese, english = _texts(expected, "ja"), _texts(expected, "en")
    shown = japanese if language == "ja" else english
    assert errors["qi"] == [shown[0]]
    assert errors["e2_column"] == [shown[1]]
    assert errors["number_domain"] == [shown[2]]
    page = response.content.decode()
    for text in shown:
        assert html.escape(text) in page
    if language == "ja":
        assert not [words for words in ENGLISH if words in page]
        assert all(
            text != english_text for text, english_text in zip(japanese, english, strict=True)
        )


def test_a_configuration_file_with_several_faults_shows_each_under_the_file(client, world):
    config = {"qi": [], "sa": ["fnlwgt"], "cross": [], "e2_column": "age", "e4_column": "fnlwgt"}
    upload = csv_upload(json.dumps(config).encode(), "round.json")
    response = _roles_posted(client, world, {"config_file": upload}, "ja")
    expected = _texts(_library_errors(config, adult_head(30)), "ja")
    assert len(expected) == 2
    assert response.context["form"].errors["config_file"] == expected


def test_the_admin_round_form_lists_every_fault_of_the_configuration(
    world, django_user_model, client
):
    admin = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(admin)
    config = adult_config()
    config["qi"] = [*config["qi"], "shoe-size"]
    config["domains"]["income"] = "anything"
    config["indicators"] = {"sa": "income", "l": 1}
    data = {
        "competition": world.competition.pk,
        "name": "Second round",
        "slug": "r2",
        "order": 2,
        "data_mode": "shared",
        "original_file": csv_upload(adult_head(20), "original.csv"),
        "config": json.dumps(config),
        "timezone": "Asia/Tokyo",
        "utility_gates": "{}",
        "tie_break_metric": "U1",
        "ranking_rule": "worst_attack",
        "selection_rule": "selected_or_last",
        "attack_visibility": "live",
        "phases-TOTAL_FORMS": "0",
        "phases-INITIAL_FORMS": "0",
        "phases-MIN_NUM_FORMS": "0",
        "phases-MAX_NUM_FORMS": "1000",
    }
    response = client.post(
        reverse("admin:competitions_round_add"), data, headers={"accept-language": "ja"}
    )
    assert response.status_code == 200, "the form is shown again, not saved"
    expected = _texts(_library_errors(config, adult_head(20)), "ja")
    assert len(expected) == 3
    assert response.context["adminform"].form.errors["config"] == expected
    assert not Round.objects.filter(slug="r2").exists()


def _broken(manifest):
    config = manifest["rounds"][0]["settings"]["config"]
    config["qi"] = ["no-such-column"]
    config["domains"]["age"] = "anything"


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_bundle_with_several_configuration_faults_is_refused_with_each_by_its_path(
    world, language
):
    data = rebuilt(competition_bundle(competition=world.competition).data, change=_broken)
    with translation.override(language), pytest.raises(ValidationError) as caught:
        services.competition_import(
            bundle_file=io.BytesIO(data),
            name="",
            slug="copy",
            start=START,
            user=creator(world.organizer),
        )
    assert Round.objects.count() == 1  # nothing half-created
    config = json.loads(json.dumps(world.round.config))
    _broken({"rounds": [{"settings": {"config": config}}]})
    expected = _texts(_library_errors(config, world.original), language)
    colon = "：" if language == "ja" else ": "
    where = f"manifest.json{colon}rounds[0] (r1).settings."
    assert caught.value.messages == [
        f"{where}config.qi{colon}{expected[0]}",
        f"{where}config.domains.age{colon}{expected[1]}",
    ]
