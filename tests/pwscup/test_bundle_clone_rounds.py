"""Cloning last term's competition for a new class: the organizer picks which rounds the copy
keeps (all ticked as the page opens); a presentation window or the standings of a round left
out are not copied."""

import copy
import datetime as dt
import io

import pytest
from django.urls import reverse

from pwscup.bundles import services
from pwscup.bundles.selectors import competition_bundle
from pwscup.competitions.models import Competition
from pwscup.presentations.services import presentation_window_create
from tests.pwscup.bundle_helpers import START, creator, members_of, rebuilt
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered

pytestmark = pytest.mark.django_db


def _two_rounds(world) -> Competition:
    """A competition of two rounds, r1 and r2, organized by the world's organizer."""
    data = competition_bundle(competition=world.competition).data
    original = members_of(data)["rounds/r1/original.csv"]

    def two(manifest):
        twin = copy.deepcopy(manifest["rounds"][0])
        twin.update(slug="r2", order=2, name="Round 2")
        twin["files"]["original.csv"]["path"] = "rounds/r2/original.csv"
        manifest["rounds"].append(twin)

    two_rounds = rebuilt(data, change=two, files={"rounds/r2/original.csv": original})
    organizer = creator(world.organizer)
    return services.competition_import(
        bundle_file=io.BytesIO(two_rounds), name="Last term", slug="last", start=START,
        user=organizer,
    )  # fmt: skip


def test_the_clone_page_ticks_every_round_and_copies_only_the_ticked(client, world):
    last = _two_rounds(world)
    for round_ in last.rounds.all():
        presentation_window_create(
            competition=last,
            user=world.organizer,
            round=round_,
            title=f"Talks {round_.slug}",
            opens_at=START + dt.timedelta(days=1),
            closes_at=START + dt.timedelta(days=2),
        )
    client.force_login(world.organizer)
    address = reverse("bundles:clone", args=[last.slug])
    fields = form_fields_of(client.get(address).content.decode(), "bundle-clone-form")
    ticked = {f["value"]: f["checked"] for f in fields if f["name"] == "rounds"}
    assert ticked == {"r1": True, "r2": True}
    start = (START + dt.timedelta(days=400)).strftime("%Y-%m-%dT%H:%M")
    fill = {"name": "This term", "slug": "this", "start": start, "rounds": "r2"}
    response = post_as_rendered(client, address, "bundle-clone-form", fill)
    assert response.status_code == 302
    this = Competition.objects.get(slug="this")
    assert list(this.rounds.values_list("slug", flat=True)) == ["r2"]
    windows = this.presentation_windows.values_list("title", "round__slug")
    assert list(windows) == [("Talks r2", "r2")]
    assert last.rounds.count() == 2


def test_a_clone_without_any_round_is_refused_with_what_to_do(client, world):
    last = _two_rounds(world)
    client.force_login(world.organizer)
    address = reverse("bundles:clone", args=[last.slug])
    start = START.strftime("%Y-%m-%dT%H:%M")
    fill = {"name": "Empty", "slug": "empty", "start": start, "rounds": "none"}
    response = post_as_rendered(client, address, "bundle-clone-form", fill)
    assert response.status_code == 200
    assert "Tick at least one round to copy." in response.content.decode()
    assert not Competition.objects.filter(slug="empty").exists()
