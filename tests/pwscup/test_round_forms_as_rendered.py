"""Every kind's round-creation form posted as the page renders it: each field the page holds
(hidden inputs, selects, the closed "advanced JSON" box) sent as rendered, only what a
lecturer types or picks changed. The sequential form once rendered its JSON view holding
``null``, so every browser submission was refused while dictionary-posting tests passed."""

import pytest
from django.urls import reverse

from pwscup.competitions.models import Round
from pwscup.dp.models import DPRound
from tests.pwscup.dp_world import movielens_csv
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered, post_data
from tests.pwscup.seq_web_world import fixture
from tests.pwscup.syn_world import adult_rows
from tests.support import adult_head

pytestmark = pytest.mark.django_db


def _sequential(client, competition) -> str:
    url = reverse("sequential_console:create", args=[competition.slug])
    fill = {
        "name": "Seq as rendered",
        "slug": "seq",
        "master": ("master.csv", fixture("zhang_master.csv")),
    }
    return post_as_rendered(client, url, "seq-create", fill)


def _dp(client, competition):
    url = reverse("dp_console:create", args=[competition.slug])
    fill = {
        "name": "DP as rendered",
        "slug": "dp",
        "table": ("hidden.csv", movielens_csv()),
        "max_charges_per_level": "200",
    }
    return post_as_rendered(client, url, "dp-create-form", fill)


def _synthetic(client, competition):
    create = reverse("synthetic_console:create", args=[competition.slug])
    response = post_as_rendered(
        client, create, "syn-create-upload", {"original": ("adult.csv", adult_rows(3000))}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    settings = reverse("synthetic_console:settings", args=[competition.slug])
    return post_as_rendered(
        client, settings, "syn-create-settings", {"name": "Syn as rendered", "slug": "syn"}
    )


def _pwscup2015(client, competition):
    def step(name: str, fill: dict | None = None):
        url = reverse(f"pwscup2015_console:wizard_{name}", args=[competition.slug])
        response = post_as_rendered(client, url, f"wizard-{name}", fill)
        assert response.status_code == 302, (name, response.context["form"].errors)

    step("upload", {"original": ("adult.csv", adult_head(120))})
    step("roles")
    step("data")
    phases = {
        "name": "2015 as rendered",
        "slug": "r2015",
        "anonymization_opens_at": "2030-01-10T09:00",
        "anonymization_closes_at": "2030-01-20T18:00",
        "attack_opens_at": "2030-01-21T09:00",
        "attack_closes_at": "2030-01-31T18:00",
    }
    step("phases", phases)
    step("rules")
    review = reverse("pwscup2015_console:wizard_review", args=[competition.slug])
    page = client.get(review).content.decode()
    # The last step's form holds only the CSRF token and the button "Create the round".
    assert 'data-testid="wizard-create"' in page
    return client.post(review, {})


KINDS = {
    "sequential": ("seq", _sequential),
    "dp": ("dp", _dp),
    "synthetic": ("syn", _synthetic),
    "pwscup2015": ("r2015", _pwscup2015),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_form_as_rendered_with_the_lecturer_s_values_creates_the_round(client, world, kind):
    slug, create = KINDS[kind]
    assert not world.organizer.is_superuser  # a lecturer: an organizer
    client.force_login(world.organizer)
    response = create(client, world.competition)
    form = response.context and response.context.get("form")
    assert response.status_code == 302, form.errors if form else response.status_code
    round_ = Round.objects.get(competition=world.competition, slug=slug)
    assert round_.kind == kind
    # The round's console page it lands on says the round was created, whatever its kind.
    page = client.get(response["Location"])
    assert [m.level_tag for m in page.context["messages"]] == ["success"], kind


def test_the_dp_form_s_example_levels_make_clean_level_ids(client, world):
    client.force_login(world.organizer)
    assert _dp(client, world.competition).status_code == 302
    levels = DPRound.objects.get(round__slug="dp").config["levels"]
    assert [level["id"] for level in levels] == ["eps-0.1", "eps-1", "eps-4"]


def test_the_closed_json_view_is_rendered_empty_on_the_sequential_form(client, world):
    client.force_login(world.organizer)
    url = reverse("sequential_console:create", args=[world.competition.slug])
    fields = form_fields_of(client.get(url).content.decode(), "seq-create")
    assert post_data(fields)["config"] == [""]
