"""What a new user read wrong (issue 21): the attack note's example, the organizer's page
in the header and the demo's start-up message. The demo's names in both languages and the
file names the docs promise are read on the loaded demo, in test_load_demo_loaded.py."""

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.accounts.services import organizer_grant, user_create
from pwscup.pwscup2015.forms import (
    ANONYMIZATION_NOTE_EXAMPLE,
    ATTACK_NOTE_EXAMPLE,
    AnonymizationUploadForm,
    AttackUploadForm,
    UploadNoteForm,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _placeholder(form) -> str:
    return str(form.fields["note"].widget.attrs["placeholder"])


def test_the_attack_note_suggests_an_attack_not_an_anonymization():
    anonymization = _placeholder(AnonymizationUploadForm())
    assert anonymization == str(ANONYMIZATION_NOTE_EXAMPLE)
    assert _placeholder(AttackUploadForm()) == str(ATTACK_NOTE_EXAMPLE) != anonymization
    # Editing a note afterwards: the attack's example for an attack.
    assert _placeholder(UploadNoteForm(attack=True)) == str(ATTACK_NOTE_EXAMPLE)
    assert _placeholder(UploadNoteForm()) == anonymization


def test_the_header_offers_the_console_to_organizers_and_the_admin_to_superusers(world):
    organizer_grant(user=world.organizer, competition=world.competition)  # staff, as the demo's
    world.organizer.refresh_from_db()
    assert world.organizer.is_staff and not world.organizer.is_superuser
    client = Client()
    client.force_login(world.organizer)
    page = client.get("/").content.decode()
    assert 'data-testid="console-link"' in page
    assert 'data-testid="admin-link"' not in page and "Organizer admin" not in page
    root = user_create(username="root", password="pw")
    root.is_staff = root.is_superuser = True
    root.save()
    client.force_login(root)
    page = client.get("/").content.decode()
    assert f'<a href="{reverse("admin:index")}" data-testid="admin-link">Django admin</a>' in page
    assert client.get(reverse("admin:index")).status_code == 200  # still reachable


def test_the_demo_start_up_message_points_the_organizer_to_the_console():
    script = (ROOT / "scripts" / "demo").read_text()
    message = script[script.index("<<MSG") : script.index("\nMSG\n")]
    assert re.search(r"Organizer console: +http://\$HOST:\$PORT/console/", message)
    assert "/admin/" not in message and "Organizer admin" not in message
