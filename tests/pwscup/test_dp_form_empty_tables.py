"""The console's DP round form posted as the page renders it, with its levels, its attributes
or its histograms left empty: each is refused next to its own field, in the form's words. The
form passed the empty list to the service, whose message named the JSON key ("'levels' must
be a non-empty list of {"id", "epsilon"} (got [])"), which the fields never show."""

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.competitions.models import Round
from tests.pwscup.dp_world import build_dp_world, movielens_csv
from tests.pwscup.rendered_forms import form_fields_of, post_data

pytestmark = pytest.mark.django_db

FORM = "dp-create-form"
CASES = {
    "levels": ({"levels": " , "}, "Give at least one privacy level"),
    "attributes": (
        {f"attribute-{k}-{f}": "" for k in (0, 1) for f in ("name", "values")},
        "Give at least one attribute",
    ),
    "histograms": (
        {"target-0-attributes": "", "target-0-target_id": ""},
        "Give at least one histogram",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_empty_table_of_the_form_is_named_on_its_field(case):
    world = build_dp_world(slug="empty")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(world.organizer)
    url = reverse("dp_console:create", args=[world.competition.slug])
    fill, words = CASES[case]
    fields = form_fields_of(client.get(url).content.decode(), FORM)
    typed = {"name": "DP empty", "slug": "dp-empty", "table": ("t.csv", movielens_csv()), **fill}
    page = client.post(url, post_data(fields, typed))
    assert page.status_code == 200
    assert not Round.objects.filter(slug="dp-empty").exists()
    html = page.content.decode()
    assert words in html, case
    assert "non-empty list" not in html and "must be an object" not in html, case
    # The message stands next to the field it names.
    form = page.context["form"]
    shown = {
        "levels": form.errors.get("levels", []),
        "attributes": form.attribute_rows.forms[0].errors.get("name", []),
        "histograms": form.target_rows.forms[0].errors.get("attributes", []),
    }[case]
    assert any(words in message for message in shown), (case, shown)
