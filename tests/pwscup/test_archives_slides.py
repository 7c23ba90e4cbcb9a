"""The results archive follows the presentation rule: the published slides and policy texts
go to the competition's participants and organizers only (``published_slides_visible_to``);
every other viewer of the competition downloads the same version without them."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.archives.models import ResultsArchive
from pwscup.archives.services import archive_publish
from pwscup.presentations import services as presentations
from tests.pwscup.archive_world import archive_zip, body, fetch, manifest, play_2015, sha256
from tests.pwscup.factories import read_field
from tests.pwscup.presentations_support import close, rendered, upload, window_for

pytestmark = pytest.mark.django_db

POLICY = "k-anonymity with k = 7, marker-policy-81b3"
ATTACK = "linkage on the zip code, marker-attack-5e2a"


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def published(make_world, django_user_model):
    """A played round, its slides (with policy texts) published, and archive v1."""
    world = make_world()
    window = window_for(world, title="Final talks 最終発表")
    slides = rendered(upload(world, window, "a", anonymization_policy=POLICY, attack_policy=ATTACK))
    play_2015(world)
    close(window)
    presentations.presentations_publish(window=window, user=world.organizer)
    archive = archive_publish(competition=world.competition, secrets=[], user=world.organizer)
    other = make_world(slug="other", username=lambda slug, who: f"o-{who}")
    stranger = django_user_model.objects.create_user("stranger", password="pw")
    return world, archive, read_field(slides.file), other, stranger


def _slides_in(members: dict[str, bytes], pdf: bytes) -> list[str]:
    return [
        name
        for name, content in members.items()
        if name.startswith("slides/")
        or pdf in content
        or b"marker-policy-81b3" in content
        or b"marker-attack-5e2a" in content
    ]


def test_visitors_and_outsiders_download_the_archive_without_the_slides(published):
    world, archive, pdf, other, stranger = published
    for who, client in (
        ("anonymous visitor", client_of()),
        ("account in no team", client_of(stranger)),
        ("another competition's organizer", client_of(other.organizer)),
        ("another competition's participant", client_of(other.users["a"])),
    ):
        response = fetch(client, "cup", 1)
        assert response.status_code == 200, who
        assert 'filename="cup-results-v1-no-slides.zip"' in response["Content-Disposition"], who
        content = body(response)
        assert sha256(content) == archive.public_sha256 and len(content) == archive.public_size
        members = archive_zip(content)
        assert _slides_in(members, pdf) == [], who
        assert manifest(members)["slides"] is False
        assert "rounds/r1/final_anonymization.csv" in members
        listed = {m["name"] for m in manifest(members)["members"]}
        assert not any(name.startswith("slides/") for name in listed)
        assert "holds no slides" in members["README.md"].decode()
        page = client.get(reverse("competition_detail", args=["cup"])).content.decode()
        assert "/c/cup/archive/v1.zip" in page, who
        assert "participants only" in page, who


def test_participants_and_organizers_download_it_with_the_slides(published):
    world, archive, pdf, _other, _stranger = published
    for user in (world.users["a"], world.users["b"], world.organizer):
        response = fetch(client_of(user), "cup", 1)
        assert response.status_code == 200
        assert 'filename="cup-results-v1.zip"' in response["Content-Disposition"]
        content = body(response)
        assert sha256(content) == archive.sha256
        members = archive_zip(content)
        assert members["slides/final-talks-最終発表/teamA.pdf"] == pdf
        assert POLICY in members["slides/final-talks-最終発表/teamA-policies.md"].decode()
        assert manifest(members)["slides"] is True
        assert json.loads(members["slides/index.json"])[0]["team_slug"] == "teamA"
    # Both variants hold the same round outcome.
    full = archive_zip(read_field(archive.file))
    public = archive_zip(read_field(archive.public_file))
    assert {n: c for n, c in full.items() if n.startswith("rounds/")} == {
        n: c for n, c in public.items() if n.startswith("rounds/")
    }


def test_a_version_without_a_public_variant_is_for_the_audience_only(published):
    world, archive, _pdf, other, stranger = published
    # As a version published before the variants existed: one file, with the slides.
    archive.public_file.delete(save=False)
    ResultsArchive.objects.filter(pk=archive.pk).update(public_file="", public_sha256="")
    for client in (client_of(), client_of(stranger), client_of(other.organizer)):
        assert fetch(client, "cup", 1).status_code == 404
        page = client.get(reverse("competition_detail", args=["cup"])).content.decode()
        assert 'data-testid="archives"' not in page
    assert fetch(client_of(world.users["a"]), "cup", 1).status_code == 200
