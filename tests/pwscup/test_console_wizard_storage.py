"""The round wizard when the storage fails: an original it cannot keep is refused on the
upload form, and an original it lost sends the organizer back to the first step with a
message, never a server error (the wizard keeps its upload as a ``SessionDrafts`` draft)."""

import errno

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse

from pwscup.core import session_drafts
from tests.support import adult_head, csv_upload

pytestmark = pytest.mark.django_db

LOST = "The table uploaded at step 1 is no longer kept"


def _wizard(competition, step):
    return reverse(f"pwscup2015_console:wizard_{step}", args=[competition.slug])


def _upload(client, competition):
    response = client.post(
        _wizard(competition, "upload"), {"original": csv_upload(adult_head(40), "adult.csv")}
    )
    assert response.status_code == 302
    return client.session[f"console-round-wizard-{competition.pk}"]


class FullStorage:
    """A storage whose disk is full."""

    def save(self, name, content):
        raise OSError(errno.ENOSPC, "No space left on device")

    def delete(self, name):
        raise OSError(errno.ENOSPC, "No space left on device")


def test_an_original_the_storage_cannot_keep_is_refused_on_the_form(client, world, monkeypatch):
    client.force_login(world.organizer)
    monkeypatch.setattr(session_drafts, "default_storage", FullStorage())
    response = client.post(
        _wizard(world.competition, "upload"),
        {"original": csv_upload(adult_head(40), "adult.csv")},
    )
    assert response.status_code == 200
    assert "cannot store files right now" in " ".join(response.context["form"].errors["original"])
    assert f"console-round-wizard-{world.competition.pk}" not in client.session
    assert client.get(_wizard(world.competition, "roles")).status_code == 302


@pytest.mark.parametrize("step", ["upload", "roles"])
def test_a_lost_original_sends_the_organizer_back_to_upload_it_again(client, world, step):
    client.force_login(world.organizer)
    competition = world.competition
    state = _upload(client, competition)
    default_storage.delete(state["file"])
    response = client.get(_wizard(competition, step), follow=True)
    assert response.redirect_chain == [(_wizard(competition, "upload"), 302)]
    assert LOST in response.content.decode()
    assert f"console-round-wizard-{competition.pk}" not in client.session
    # Uploading it again opens the next steps.
    _upload(client, competition)
    assert client.get(_wizard(competition, "roles")).status_code == 200


def test_a_kept_original_stays_under_private_wizard_until_cancelled(client, world):
    client.force_login(world.organizer)
    competition = world.competition
    state = _upload(client, competition)
    assert state["file"].startswith("private/wizard/") and state["filename"] == "adult.csv"
    assert state["done"] == ["upload"] and state["rows"] == 40
    assert default_storage.exists(state["file"])
    client.post(_wizard(competition, "cancel"))
    assert not default_storage.exists(state["file"])
