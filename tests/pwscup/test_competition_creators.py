"""Who may create competitions: a site-wide right granted and withdrawn from the console by a
superuser only (the ``allow_competitions`` command calls the same services)."""

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.urls import reverse

from pwscup.accounts.services import organizer_grant
from pwscup.competitions.models import Competition
from pwscup.console.services import competition_creator_set, console_competition_create

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


def test_a_staff_organizer_may_neither_see_nor_change_the_right(
    client, world, newcomer, django_user_model
):
    organizer_grant(user=world.organizer, competition=world.competition)  # staff now
    client.force_login(world.organizer)
    home = client.get(reverse("console:home")).content.decode()
    assert 'data-testid="competition-creators"' not in home
    page = client.get(CREATORS)
    assert page.status_code == 403
    text = page.content.decode()
    # The refusal says who holds the right and whom to ask for it.
    assert "Only a superuser of this site decides who may create competitions" in text
    assert "ask one of the site&#x27;s administrators if an account needs the right." in text
    superuser = django_user_model.objects.create_superuser(
        "root-s", email="root-secret@example.org", password="pw"
    )
    assert "root-secret@example.org" not in text
    for allowed in ("1", "0"):
        refused = client.post(CREATORS, {"identifier": "newcomer", "allowed": allowed})
        assert refused.status_code == 403
    assert _opens_new(client, newcomer) == 403
    # The service itself refuses, whoever calls it.
    with pytest.raises(PermissionDenied):
        competition_creator_set(user=world.organizer, identifier="newcomer", allowed=True)
    assert _opens_new(client, newcomer) == 403

    # A superuser grants and withdraws it; the page lists the creators' e-mails to them.
    client.force_login(superuser)
    home = client.get(reverse("console:home")).content.decode()
    assert 'data-testid="competition-creators"' in home
    unknown = client.post(CREATORS, {"identifier": "nobody", "allowed": "1"})
    assert unknown.status_code == 200 and unknown.context["form"].errors["identifier"]
    granted = client.post(CREATORS, {"identifier": "newcomer@example.org", "allowed": "1"})
    assert granted.status_code == 302
    listed = client.get(CREATORS).content.decode()
    assert 'data-testid="creator-newcomer"' in listed and "newcomer@example.org" in listed
    assert _opens_new(client, newcomer) == 200
    client.force_login(superuser)
    withdrawn = client.post(CREATORS, {"identifier": "user:newcomer", "allowed": "0"})
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


def test_the_creation_service_itself_refuses_an_account_without_the_right(newcomer):
    # docs/organizers.md, step 1: the right is checked by the service, whoever calls it
    # (not only by the console's page).
    with pytest.raises(PermissionDenied):
        console_competition_create(user=newcomer, name="Side door", slug="side-door")
    assert not Competition.objects.filter(slug="side-door").exists()
