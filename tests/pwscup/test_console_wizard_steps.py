"""The 2015 round wizard's steps as the browser renders them: the upload step once an original
is kept (its file field optional, the kept file staying), and the phases step's starting
windows (those of the two-sided rounds' creation forms)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from pwscup.core.time_zones import default_time_zone
from pwscup.pwscup2015.console.phase_forms import PHASE_DATE_FIELDS
from pwscup.submissions.two_sided_forms import windows_initial
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered
from tests.support import adult_head, csv_upload

pytestmark = pytest.mark.django_db


def _wizard(competition, step):
    return reverse(f"pwscup2015_console:wizard_{step}", args=[competition.slug])


def _original_field(client, competition) -> dict:
    page = client.get(_wizard(competition, "upload")).content.decode()
    (field,) = [f for f in form_fields_of(page, "wizard-upload") if f["name"] == "original"]
    return field


def test_the_upload_step_sent_again_without_a_file_keeps_the_kept_original(client, world):
    client.force_login(world.organizer)
    competition = world.competition
    url = _wizard(competition, "upload")
    assert _original_field(client, competition)["required"]
    # Nothing kept yet: a post without a file is refused next to the field.
    refused = post_as_rendered(client, url, "wizard-upload")
    assert refused.status_code == 200 and refused.context["form"].errors["original"]
    kept = {"original": ("adult.csv", adult_head(40))}
    assert post_as_rendered(client, url, "wizard-upload", kept).status_code == 302
    state = client.session[f"console-round-wizard-{competition.pk}"]
    # Kept: the field may stay empty, and the form sent as rendered goes on with the kept file.
    assert not _original_field(client, competition)["required"]
    response = post_as_rendered(client, url, "wizard-upload")
    assert response.status_code == 302 and response.url == _wizard(competition, "roles")
    assert client.session[f"console-round-wizard-{competition.pk}"]["file"] == state["file"]
    # A file sent replaces it.
    other = {"original": csv_upload(adult_head(30), "other.csv")}
    assert client.post(url, other).status_code == 302
    assert client.session[f"console-round-wizard-{competition.pk}"]["rows"] == 30


def test_the_phases_step_starts_with_the_two_sided_forms_windows(client, world):
    client.force_login(world.organizer)
    competition = world.competition
    client.post(_wizard(competition, "upload"), {"original": csv_upload(adult_head(40), "a.csv")})
    roles = client.get(_wizard(competition, "roles")).context["form"].initial
    assert client.post(_wizard(competition, "roles"), {k: v for k, v in roles.items() if v}).url
    assert client.post(_wizard(competition, "data"), {"data_mode": "shared"}).status_code == 302
    before = timezone.now()
    page = client.get(_wizard(competition, "phases")).content.decode()
    shown = {f["name"]: f.get("value") for f in form_fields_of(page, "wizard-phases")}
    expected = windows_initial(
        now=before, time_zone=default_time_zone(), sides=("anonymization", "attack")
    )
    assert all(shown[name] for name in PHASE_DATE_FIELDS), shown
    opens = dt.datetime.fromisoformat(shown["anonymization_opens_at"])
    # The page's "now" is at most a minute after the test's (both rounded down to the minute).
    assert opens - expected["anonymization_opens_at"] in (dt.timedelta(0), dt.timedelta(minutes=1))
    start = expected["anonymization_opens_at"]
    for name in ("anonymization_closes_at", "attack_opens_at", "attack_closes_at"):
        assert dt.datetime.fromisoformat(shown[name]) - opens == expected[name] - start
    # As rendered, with a name and an address typed in, the step is done.
    typed = {"name": "Round two", "slug": "r2"}
    response = post_as_rendered(client, _wizard(competition, "phases"), "wizard-phases", typed)
    assert response.status_code == 302 and response.url == _wizard(competition, "rules")
