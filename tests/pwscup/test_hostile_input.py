"""Hostile numbers and JSON in every configuration field and the DP endpoints: a message next
to the field (or a 400 with it), never a 500 (issue 21)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from tests.pwscup.dp_world import build_dp_world
from tests.support import adult_config, adult_head, csv_upload

DEEP = "[" * 100_000 + "]" * 100_000
HUGE = "9" * 5000
BIG_LIMIT = str(2**31)


def _edit_data(client, world):
    c, r = world.competition.slug, world.round.slug
    form = client.get(reverse("pwscup2015_console:round_edit", args=[c, r])).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    for key in ("anonymization_opens_at", "anonymization_closes_at"):
        data[key] = form.initial[key].strftime("%Y-%m-%dT%H:%M")
    for key in ("attack_opens_at", "attack_closes_at"):
        data[key] = form.initial[key].strftime("%Y-%m-%dT%H:%M")
    data["allow_attack_before_close"] = "on"
    return {k: ("on" if v is True else v) for k, v in data.items() if v is not False}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "field, value, expected",
    [
        ("config", DEEP, "levels deep; at most 32 levels"),
        # The gates and ranges are typed numbers: text or an overflowing number is refused.
        ("gate_U1_max", DEEP, "Enter a number"),
        ("gate_U1_max", HUGE, "Enter a number"),
        ("gate_S1_min", "1e999", "Enter a number"),
        ("range_0_min", HUGE, "Enter a number"),
        ("published_rows", BIG_LIMIT, "2147483647"),
        ("config", '{"qi": 1e999}', "not a finite number"),
        ("attack_daily_limit", BIG_LIMIT, "2147483647"),
        ("anonymization_total_limit", BIG_LIMIT, "2147483647"),
    ],
)
def test_round_edit_refuses_hostile_values_next_to_the_field(client, world, field, value, expected):
    client.force_login(world.organizer)
    data = _edit_data(client, world)
    data[field] = value
    address = reverse(
        "pwscup2015_console:round_edit", args=[world.competition.slug, world.round.slug]
    )
    response = client.post(address, data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and expected in " ".join(errors[field]), errors


def _wizard(competition, step):
    return reverse(f"pwscup2015_console:wizard_{step}", args=[competition.slug])


def _phases(**changes):
    return {
        "name": "Round two",
        "slug": "r2",
        "timezone": "Asia/Tokyo",
        "anonymization_opens_at": "2030-01-10T09:00",
        "anonymization_closes_at": "2030-01-20T18:00",
        "attack_opens_at": "2030-01-21T09:00",
        "attack_closes_at": "2030-01-31T18:00",
        **changes,
    }


@pytest.fixture
def wizard_at_roles(client, world):
    client.force_login(world.organizer)
    upload = csv_upload(adult_head(60), "adult.csv")
    assert (
        client.post(_wizard(world.competition, "upload"), {"original": upload}).status_code == 302
    )
    return world.competition


@pytest.mark.django_db
def test_wizard_refuses_a_deep_configuration_file_and_gates_and_big_limits(client, wizard_at_roles):
    competition = wizard_at_roles
    deep = client.post(
        _wizard(competition, "roles"), {"config_file": csv_upload(DEEP.encode(), "c.json")}
    )
    assert deep.status_code == 200
    assert "nested 100000 levels deep" in " ".join(deep.context["form"].errors["config_file"])
    config = json.dumps(adult_config()).encode()
    ok = client.post(_wizard(competition, "roles"), {"config_file": csv_upload(config, "c.json")})
    assert ok.status_code == 302
    assert client.post(_wizard(competition, "data"), {"data_mode": "shared"}).status_code == 302
    big = client.post(_wizard(competition, "phases"), _phases(attack_total_limit=BIG_LIMIT))
    assert big.status_code == 200 and "attack_total_limit" in big.context["form"].errors
    assert client.post(_wizard(competition, "phases"), _phases()).status_code == 302
    rules = {
        "gate_U1_max": DEEP,
        "tie_break_metric": "U1",
        "ranking_rule": "worst_attack",
        "selection_rule": "selected_or_last",
        "attack_visibility": "live",
    }
    refused = client.post(_wizard(competition, "rules"), rules)
    assert refused.status_code == 200 and "gate_U1_max" in refused.context["form"].errors


@pytest.mark.django_db
def test_wizard_role_errors_are_in_the_page_language_next_to_their_field(client, wizard_at_roles):
    competition = wizard_at_roles
    form = client.get(_wizard(competition, "roles")).context["form"]
    bad = {k: v for k, v in form.initial.items() if v}
    bad["e4_column"] = "sex"
    client.cookies["django_language"] = "ja"
    response = client.post(_wizard(competition, "roles"), bad, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["e4_column"], errors
    message = errors["e4_column"][0]
    assert "sex" in message and "must be one of" not in message  # Japanese, naming the value
    page = response.content.decode()
    assert page.index('name="e4_column"') < page.index('data-testid="error-e4_column"')


@pytest.mark.django_db
def test_wizard_review_shows_the_gates_as_comparisons(client, wizard_at_roles):
    competition = wizard_at_roles
    config = json.dumps(adult_config()).encode()
    client.post(_wizard(competition, "roles"), {"config_file": csv_upload(config, "c.json")})
    client.post(_wizard(competition, "data"), {"data_mode": "shared"})
    client.post(_wizard(competition, "phases"), _phases())
    rules = {
        "gate_U1_max": "50000",
        "gate_U4_max": "0.2",
        "gate_S1_min": "5",
        "tie_break_metric": "U1",
        "ranking_rule": "worst_attack",
        "selection_rule": "selected_or_last",
        "attack_visibility": "live",
    }
    assert client.post(_wizard(competition, "rules"), rules).status_code == 302
    page = client.get(_wizard(competition, "review")).content.decode()
    assert "U1 ≤ 50,000" in page and "U4 ≤ 0.2" in page and "S1 ≥ 5" in page
    assert "{&#x27;U1&#x27;" not in page and "{'U1'" not in page


# --- DP ---


@pytest.fixture
def dp(db):
    return build_dp_world(slug="hostile")


def _bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


EPSILONS = [
    ("1/" + "9" * 5000, "5002 characters"),
    ("9" * 5000, "5000 characters"),
    (1e-300, "1e-300 is too small"),
    (5e-324, "5e-324 is too small"),
    ("1e-300", "is not a decimal number"),
]


@pytest.mark.parametrize("epsilon, expected", EPSILONS)
def test_dp_query_epsilon_is_refused_with_a_message_over_the_api(dp, epsilon, expected):
    address = reverse(
        "api:dp-queries",
        kwargs={"competition_slug": "hostile", "round_slug": dp.round.slug, "level": "eps-1"},
    )
    payload = {"type": "count", "where": {"gender": "F"}, "epsilon": epsilon}
    reply = Client().post(
        address, json.dumps(payload), content_type="application/json", **_bearer(dp.users["a"])
    )
    assert reply.status_code == 400, reply.content[:300]
    assert expected in reply.json()["message"]


@pytest.mark.parametrize("epsilon, expected", EPSILONS)
def test_dp_query_epsilon_is_refused_with_a_message_on_the_page(dp, epsilon, expected):
    client = Client()
    client.force_login(dp.users["a"])
    address = reverse(
        "dp:query",
        kwargs={"competition_slug": "hostile", "round_slug": dp.round.slug, "level": "eps-1"},
    )
    payload = {"type": "count", "where": {"gender": "F"}, "epsilon": epsilon}
    reply = client.post(address, json.dumps(payload), content_type="application/json")
    assert reply.status_code == 400 and expected in reply.json()["error"]
    form = client.post(address, {"type": "count", "where_gender": "F", "epsilon": str(epsilon)})
    if form.status_code == 400:  # longer than the field allows: the form's own message
        assert "epsilon" in form.context["query_form"].errors
    else:
        assert form.status_code == 302
        shown = [str(m) for m in form.wsgi_request._messages]
        assert any(str(epsilon)[:10] in text for text in shown), shown


def test_dp_api_refuses_a_deeply_nested_body_and_a_fractional_charge_number(dp):
    headers = _bearer(dp.users["a"])
    kwargs = {"competition_slug": "hostile", "round_slug": dp.round.slug, "level": "eps-1"}
    deep = Client().post(
        reverse("api:dp-queries", kwargs=kwargs), DEEP, content_type="application/json", **headers
    )
    assert deep.status_code == 400 and "nested" in deep.json()["message"]
    estimates = reverse("api:dp-level-estimates", kwargs=kwargs)
    for value in (1.5, "1e2", True):
        reply = Client().post(
            estimates,
            json.dumps({"from_answer": value}),
            content_type="application/json",
            **headers,
        )
        assert reply.status_code == 400, reply.content
        assert "from_answer" in reply.json()["message"]


def test_creating_a_dp_round_with_a_5000_digit_epsilon_is_refused(dp):
    client = Client()
    client.force_login(dp.organizer)
    address = reverse("dp_console:create", kwargs={"competition_slug": "hostile"})
    config = {
        "attributes": {"gender": ["F", "M"], "age": ["<=17", "18-24"]},
        "workload": [{"id": "ga", "attributes": ["gender", "age"]}],
        "levels": [{"id": "eps-1", "epsilon": "@"}],
    }
    for epsilon in (HUGE, '"' + HUGE + '"'):
        data = {
            "name": "New",
            "slug": "new",
            "config": json.dumps(config).replace('"@"', epsilon),
            "timezone": "Asia/Tokyo",
            "opens_at": "2030-01-01 00:00",
            "closes_at": "2030-12-01 00:00",
            "table": SimpleUploadedFile("t.csv", b"gender,age\nF,<=17\nM,18-24\n"),
        }
        response = client.post(address, data)
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert "config" in errors and "5000 characters" in " ".join(errors["config"]), errors
