"""Who may create competitions: granted and withdrawn from the console by a staff organizer
or a superuser (the ``allow_competitions`` command calls the same services)."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from pwscup.accounts.services import organizer_grant

pytestmark = pytest.mark.django_db

CREATORS = reverse("console:creators")
NEW = reverse("console:competition_new")


@pytest.fixture
def newcomer(django_user_model):
    return django_user_model.objects.create_user(
        "newcomer", email="newcomer@example.org", password="pw"
    )


def _opens_new(client, user) -> int:
    client.force_login(user)
    return client.get(NEW).status_code


def test_an_organizer_without_staff_rights_cannot_grant(client, world, newcomer):
    # world.organizer organizes the test competition but is not staff.
    for user in (world.organizer, world.users["a"]):
        client.force_login(user)
        assert client.get(CREATORS).status_code == 403
        refused = client.post(CREATORS, {"identifier": "newcomer", "allowed": "1"})
        assert refused.status_code == 403
    assert _opens_new(client, newcomer) == 403
    client.force_login(world.organizer)
    home = client.get(reverse("console:home")).content.decode()
    assert 'data-testid="competition-creators"' not in home


def test_a_staff_organizer_grants_and_withdraws_the_right(client, world, newcomer):
    organizer_grant(user=world.organizer, competition=world.competition)  # staff now
    assert _opens_new(client, newcomer) == 403
    client.force_login(world.organizer)
    home = client.get(reverse("console:home")).content.decode()
    assert 'data-testid="competition-creators"' in home
    assert client.get(CREATORS).status_code == 200
    unknown = client.post(CREATORS, {"identifier": "nobody", "allowed": "1"})
    assert unknown.status_code == 200 and unknown.context["form"].errors["identifier"]
    # By e-mail, as the co-organizer invitation.
    granted = client.post(CREATORS, {"identifier": "newcomer@example.org", "allowed": "1"})
    assert granted.status_code == 302
    listed = client.get(CREATORS).content.decode()
    assert 'data-testid="creator-newcomer"' in listed
    assert _opens_new(client, newcomer) == 200
    client.force_login(world.organizer)
    withdrawn = client.post(CREATORS, {"identifier": "newcomer", "allowed": "0"})
    assert withdrawn.status_code == 302
    assert _opens_new(client, newcomer) == 403


def test_a_superuser_grants_and_the_command_uses_the_same_service(
    client, django_user_model, newcomer
):
    client.force_login(django_user_model.objects.create_superuser("root-g", password="pw"))
    assert client.post(CREATORS, {"identifier": "newcomer", "allowed": "1"}).status_code == 302
    assert _opens_new(client, newcomer) == 200
    call_command("allow_competitions", "newcomer", "--revoke")
    assert _opens_new(client, newcomer) == 403
    call_command("allow_competitions", "newcomer")
    assert _opens_new(client, newcomer) == 200


def test_the_demo_organizer_may_create_competitions(client, django_user_model):
    call_command("load_demo")
    organizer = django_user_model.objects.get(username="organizer")
    assert _opens_new(client, organizer) == 200
    home = client.get(reverse("console:home")).content.decode()
    assert 'data-testid="competition-new"' in home
