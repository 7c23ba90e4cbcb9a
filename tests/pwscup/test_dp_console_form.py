"""The console's DP round form: a lecturer fills attributes, histograms, levels and tracks in
fields (no JSON); the fields build the configuration ``dp_round_create`` checks, its errors are
shown next to the field they name, and the JSON view (when filled) is the configuration."""

import datetime as dt
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import Round
from pwscup.core.time_zones import default_time_zone
from pwscup.dp.models import DPRound
from pwscup.submissions.two_sided_forms import windows_initial
from tests.pwscup.dp_world import TOY_CONFIG, toy_csv
from tests.pwscup.rendered_forms import form_fields_of

pytestmark = pytest.mark.django_db


def _rows(prefix: str, rows: list[dict]) -> dict:
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(rows)),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for k, row in enumerate(rows):
        data.update({f"{prefix}-{k}-{name}": value for name, value in row.items()})
    return data


def fields_post(slug="dp", **overrides) -> dict:
    """The form as a lecturer fills it: two attributes, two histograms (one with no id),
    two levels, a blank row of each kind left blank; the JSON view empty."""
    data = {
        "name": "DP by fields",
        "slug": slug,
        "table": SimpleUploadedFile("t.csv", toy_csv()),
        "levels": "1, 4",
        "interactive": "on",
        "batch": "platform",
        "query_types": ["histogram", "count"],
        "max_charges_per_level": "50",
        "adjacency": "replace",
        "rank_metric": "l2",
        "feedback": "after_close",
        "config": "",
        "opens_at": "2030-01-01 00:00",
        "closes_at": "2030-12-01 00:00",
        "timezone": "Asia/Tokyo",
        **_rows(
            "attribute",
            [
                {"name": "gender", "values": "F, M"},
                {"name": "age", "values": "<=17, 18-24, 25-34"},
                {"name": "", "values": ""},
            ],
        ),
        **_rows(
            "target",
            [
                {"attributes": "gender, age", "target_id": ""},
                {"attributes": "gender", "target_id": "by-gender"},
                {"attributes": "", "target_id": ""},
            ],
        ),
    }
    data.update(overrides)
    return data


def _post(client, world, data, **headers):
    client.force_login(world.organizer)  # an organizer, not a superuser
    assert not world.organizer.is_superuser
    url = reverse("dp_console:create", args=[world.competition.slug])
    return client.post(url, data, **headers)


def test_the_page_offers_fields_and_keeps_json_as_an_advanced_view(world, client):
    client.force_login(world.organizer)
    page = client.get(reverse("dp_console:create", args=[world.competition.slug]))
    html = page.content.decode()
    assert 'name="attribute-0-name"' in html and 'value="gender"' in html
    assert 'name="target-0-attributes"' in html
    assert 'name="levels"' in html and 'value="0.1, 1, 4"' in html
    # The JSON view is inside a closed <details>, empty: the fields make the configuration.
    assert '<details class="advanced-json" data-testid="dp-advanced">' in html
    assert page.context["form"]["config"].value() in (None, "")
    assert "spec §" not in html and "docs/dp.md" in html


def test_a_round_created_from_the_fields_alone(world, client):
    response = _post(client, world, fields_post())
    assert response.status_code == 302, response.context["form"].errors
    config = DPRound.objects.get(round__slug="dp").config
    assert config["attributes"] == {"gender": ["F", "M"], "age": ["<=17", "18-24", "25-34"]}
    assert config["workload"] == [
        {"id": "gender_age", "attributes": ["gender", "age"]},
        {"id": "by-gender", "attributes": ["gender"]},
    ]
    assert config["levels"] == [{"id": "eps-1", "epsilon": "1"}, {"id": "eps-4", "epsilon": "4"}]
    assert config["tracks"] == {"interactive": True, "batch": "platform"}
    assert config["max_charges_per_level"] == 50
    assert config["query_types"] == ["histogram", "count"]


def test_the_window_starts_as_the_two_sided_forms_and_is_read_in_the_round_s_zone(world, client):
    client.force_login(world.organizer)
    url = reverse("dp_console:create", args=[world.competition.slug])
    before = timezone.now()
    shown = {
        f["name"]: f["value"]
        for f in form_fields_of(client.get(url).content.decode(), "dp-create-form")
        if "value" in f
    }
    expected = windows_initial(now=before, time_zone=default_time_zone(), sides=("",))
    opens = dt.datetime.fromisoformat(shown["opens_at"])
    # The page's "now" is at most a minute after the test's (both to the minute).
    assert opens - expected["opens_at"] in (dt.timedelta(0), dt.timedelta(minutes=1))
    closes = dt.datetime.fromisoformat(shown["closes_at"])
    assert closes - opens == expected["closes_at"] - expected["opens_at"] == dt.timedelta(days=14)
    # Typed in the round's zone (UTC here), not the server's (Asia/Tokyo).
    response = _post(client, world, fields_post(timezone="UTC"))
    assert response.status_code == 302, response.context["form"].errors
    dp_round = DPRound.objects.get(round__slug="dp")
    assert dp_round.opens_at == dt.datetime(2030, 1, 1, tzinfo=dt.UTC)


def test_a_fraction_epsilon_gets_a_level_id_usable_in_addresses(world, client):
    response = _post(client, world, fields_post(levels="1/14"))
    assert response.status_code == 302, response.context["form"].errors
    config = DPRound.objects.get(round__slug="dp").config
    assert config["levels"] == [{"id": "eps-1_14", "epsilon": "1/14"}]


def _row_errors(response, formset: str) -> list[list[str]]:
    rows = getattr(response.context["form"], formset)
    return [[m for errors in row.errors.values() for m in errors] for row in rows]


def test_an_attribute_error_is_shown_on_its_row(world, client):
    data = fields_post()
    data["attribute-1-values"] = "<=17, 18-24, <=17"
    response = _post(client, world, data)
    assert response.status_code == 200
    errors = response.context["form"].attribute_rows[1].errors
    assert errors["values"] == ["Attribute 'age' has a duplicate value '<=17' (positions 1 and 3)"]
    assert _row_errors(response, "attribute_rows")[0] == []
    assert "Attribute &#x27;age&#x27; has a duplicate value" in response.content.decode()
    assert not Round.objects.filter(slug="dp").exists()


def test_a_histogram_naming_an_unknown_attribute_is_flagged_on_its_row(world, client):
    response = _post(client, world, fields_post(**{"target-1-attributes": "sexx"}))
    errors = response.context["form"].target_rows[1].errors
    assert errors["attributes"] == ["Target 'by-gender' names unknown attribute 'sexx'"]


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"levels": "1, 0"}, "levels", "Level 'eps-0' has epsilon 0; it must be > 0"),
        ({"levels": "abc"}, "levels", "epsilon 'abc' is not a decimal number or a fraction p/q"),
        ({"levels": ""}, "levels", "Give at least one privacy level"),
        ({"adjacency": "add_remove"}, "adjacency", "The batch track needs adjacency 'replace'"),
        ({"max_charges_per_level": "100001"}, "max_charges_per_level", "from 1 to 100,000"),
    ],
)
def test_a_configuration_error_is_shown_next_to_its_field(world, client, overrides, field, message):
    response = _post(client, world, fields_post(**overrides))
    assert response.status_code == 200
    form = response.context["form"]
    assert any(message in m for m in form.errors.get(field, [])), form.errors
    assert "__all__" not in form.errors
    assert not Round.objects.filter(slug="dp").exists()


def test_every_configuration_error_is_shown_at_once_next_to_its_field(world, client):
    """An organizer sees all that is wrong in one try: a level, an attribute's row and the
    charges' cap, each where it belongs."""
    data = fields_post(levels="1, 0", max_charges_per_level="100001")
    data["attribute-1-values"] = "<=17, 18-24, <=17"
    response = _post(client, world, data, headers={"accept-language": "ja"})
    form = response.context["form"]
    assert "0 より大きい値にしてください" in form.errors["levels"][0]
    assert set(form.errors) == {"levels", "max_charges_per_level"}, form.errors
    assert form.attribute_rows[1].errors["values"]
    assert not Round.objects.filter(slug="dp").exists()


def test_the_errors_are_in_japanese_for_a_japanese_reader(world, client):
    response = _post(client, world, fields_post(levels="1, 0"), headers={"accept-language": "ja"})
    message = response.context["form"].errors["levels"][0]
    assert "の ε は 0 です。0 より大きい値にしてください" in message


def test_after_an_error_the_page_names_the_table_to_choose_again(world, client):
    """A browser does not keep a chosen file: the page says which one to choose again, in
    the reader's language (the sequential form's line, one template for both)."""
    table = SimpleUploadedFile("my_hidden.csv", toy_csv())
    page = _post(client, world, fields_post(levels="1, 0", table=table)).content.decode()
    assert 'data-testid="dp-choose-again"' in page and "Choose my_hidden.csv again" in page
    table = SimpleUploadedFile("my_hidden.csv", toy_csv())
    data = fields_post(levels="1, 0", table=table)
    japanese = _post(client, world, data, headers={"accept-language": "ja"}).content.decode()
    assert "送信する前に my_hidden.csv をもう一度選んでください" in japanese
    blank = client.get(reverse("dp_console:create", args=[world.competition.slug]))
    assert 'data-testid="dp-choose-again"' not in blank.content.decode()


def test_the_json_view_when_filled_is_the_configuration(world, client):
    data = fields_post(config=json.dumps(TOY_CONFIG), levels="this is ignored")
    response = _post(client, world, data)
    assert response.status_code == 302, response.context["form"].errors
    config = DPRound.objects.get(round__slug="dp").config
    assert [t["id"] for t in config["workload"]] == ["gender_age", "gender"]
    assert config["levels"][0] == {"id": "eps-1", "epsilon": "1"}


def test_an_error_of_the_json_view_stays_on_it_and_opens_it(world, client):
    config = dict(TOY_CONFIG, levels=[{"id": "eps-0", "epsilon": "0"}])
    response = _post(client, world, {**fields_post(), "config": json.dumps(config)})
    form = response.context["form"]
    assert form.errors["config"] == [
        "levels[0].epsilon: Level 'eps-0' has epsilon 0; it must be > 0"
    ]
    assert '<details class="advanced-json" data-testid="dp-advanced" open>' in (
        response.content.decode()
    )


def test_each_error_of_the_json_view_names_its_place(world, client):
    """The JSON view's errors name where each lies, as a bundle's import does (without its
    ``config.`` root): the level's ε, the attribute's values, the option."""
    config = dict(
        TOY_CONFIG,
        attributes={**TOY_CONFIG["attributes"], "gender": []},
        levels=[{"id": "eps-1", "epsilon": "1"}, {"id": "eps-t", "epsilon": 5e-324}],
        feedback="soon",
    )
    response = _post(client, world, {**fields_post(), "config": json.dumps(config)})
    errors = response.context["form"].errors["config"]
    assert any(e.startswith("levels[1].epsilon: epsilon 5e-324 is too small") for e in errors), (
        errors
    )
    assert any(e.startswith("attributes[0].values: ") for e in errors), errors
    assert any(e.startswith("feedback: ") for e in errors), errors
    ja = _post(
        client,
        world,
        {**fields_post(), "config": json.dumps(config)},
        headers={"accept-language": "ja"},
    )
    assert any(
        e.startswith("levels[1].epsilon：epsilon 5e-324 は小さすぎます")
        for e in ja.context["form"].errors["config"]
    )


@pytest.mark.parametrize("text", ['"x"', "[]", "1", "null"])
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "The round configuration must be a JSON object"),
        ("ja", "ラウンド設定は JSON オブジェクトでなければなりません"),
    ],
)
def test_a_json_value_that_is_not_an_object_is_refused_as_such(
    world, client, text, language, expected
):
    """A JSON string was read again as JSON text: "not valid JSON", in English, on a
    Japanese page."""
    response = _post(
        client, world, {**fields_post(), "config": text}, headers={"accept-language": language}
    )
    assert response.context["form"].errors["config"] == [expected]
    assert not Round.objects.filter(slug="dp").exists()


def test_the_round_note_counts_its_histograms_with_the_plural_form_of_its_number(db):
    from pwscup.dp.kind import DPKind
    from tests.pwscup.dp_world import build_dp_world

    one = build_dp_world(slug="dpone", config=dict(TOY_CONFIG, workload=TOY_CONFIG["workload"][:1]))
    two = build_dp_world(slug="dptwo")
    assert DPKind().round_note(one.round).endswith("· 1 workload histogram")
    assert DPKind().round_note(two.round).endswith("· 2 workload histograms")
