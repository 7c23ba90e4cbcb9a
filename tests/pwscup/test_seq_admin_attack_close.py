"""The sequential admin checks the attack phase's close against the configuration sent in
the same form (pwscup/sequential/admin.py): switching the attack phase on and giving it a
close in one save is taken; switching it off while a close stays is refused on that field;
the release closes are counted against the number of releases sent. Each test posts the change page as a superuser's browser renders it."""

import datetime as dt
import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from pwscup.sequential.models import SequentialRound
from tests.pwscup.rendered_forms import FormParser, post_data
from tests.pwscup.seq_web_world import fixture_config, seq_world

pytestmark = pytest.mark.django_db

CLOSE_1 = dt.datetime(2030, 12, 1, 9, 0, tzinfo=dt.UTC)
DAY = dt.timedelta(days=1)
NO_PHASE = "This round has no attack phase."


def admin_world(slug: str, *, attack_phase: bool, attack_closes_at=None):
    """A round of two releases (nothing frozen), their closes set, per-team masters."""
    config = {**fixture_config("small_config.json"), "attack_phase": attack_phase}
    world = seq_world(slug=slug, config=config, master=None)
    SequentialRound.objects.filter(pk=world.sequential.pk).update(
        step_closes=[CLOSE_1.isoformat(), (CLOSE_1 + DAY).isoformat()],
        attack_closes_at=attack_closes_at,
    )
    world.sequential.refresh_from_db()
    return world


def post_change_page(client, sequential, fill: dict):
    """GET the admin's change page, then post its form as rendered with ``fill`` typed in."""
    url = reverse("admin:sequential_sequentialround_change", args=[sequential.pk])
    page = client.get(url)
    assert page.status_code == 200
    parser = FormParser()
    parser.feed(page.content.decode())
    (form,) = [f for f in parser.forms if f["attrs"].get("id") == "sequentialround_form"]
    return client.post(url, post_data(form["fields"], fill))


def split_datetime(at: dt.datetime) -> dict:
    """The admin's two boxes of ``attack_closes_at`` (date, time), in the site's time zone."""
    local = timezone.localtime(at)
    return {
        "attack_closes_at_0": local.strftime("%Y-%m-%d"),
        "attack_closes_at_1": local.strftime("%H:%M:%S"),
    }


@pytest.fixture
def root(client):
    client.force_login(get_user_model().objects.create_superuser("seq-admin-root", password="pw"))
    return client


def test_switching_the_attack_phase_on_with_its_close_in_one_save_is_taken(root):
    world = admin_world("seqadm1", attack_phase=False)
    config = {**world.sequential.config, "attack_phase": True}
    close = CLOSE_1 + 3 * DAY
    response = post_change_page(
        root, world.sequential, {"config": json.dumps(config), **split_datetime(close)}
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    world.sequential.refresh_from_db()
    assert world.sequential.config["attack_phase"] is True
    assert world.sequential.attack_closes_at == close


def test_switching_the_attack_phase_off_while_a_close_stays_is_refused(root):
    close = CLOSE_1 + 3 * DAY
    world = admin_world("seqadm2", attack_phase=True, attack_closes_at=close)
    config = {**world.sequential.config, "attack_phase": False}
    response = post_change_page(root, world.sequential, {"config": json.dumps(config)})
    assert response.status_code == 200
    assert NO_PHASE in " ".join(response.context["adminform"].form.errors["attack_closes_at"])
    world.sequential.refresh_from_db()
    assert world.sequential.config["attack_phase"] is True
    assert world.sequential.attack_closes_at == close
    # Emptied in the same save, the close goes with the phase.
    response = post_change_page(
        root,
        world.sequential,
        {"config": json.dumps(config), "attack_closes_at_0": "", "attack_closes_at_1": ""},
    )
    assert response.status_code == 302
    world.sequential.refresh_from_db()
    assert not world.sequential.config["attack_phase"] and world.sequential.attack_closes_at is None


def test_a_number_of_releases_changed_with_its_closes_in_one_save_is_taken(root):
    """The closes are counted against the configuration sent with them (three releases)."""
    world = admin_world("seqadm3", attack_phase=False)
    config = {**world.sequential.config, "n_releases": 3}
    closes = [(CLOSE_1 + j * DAY).isoformat() for j in range(3)]
    response = post_change_page(
        root, world.sequential, {"config": json.dumps(config), "step_closes": json.dumps(closes)}
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    world.sequential.refresh_from_db()
    assert world.sequential.n_releases == 3 and world.sequential.close_of(3) == CLOSE_1 + 2 * DAY
