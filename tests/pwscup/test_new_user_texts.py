"""What a new user read wrong (issue 21): the attack note's example, the organizer's page
in the header and the demo's start-up message, the demo's names in both languages, and
the file names the docs promise."""

import io
import re
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from pwscup.accounts.services import organizer_grant, user_create
from pwscup.competitions.models import Competition, Round
from pwscup.pwscup2015.forms import (
    ANONYMIZATION_NOTE_EXAMPLE,
    ATTACK_NOTE_EXAMPLE,
    AnonymizationUploadForm,
    AttackUploadForm,
    UploadNoteForm,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


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


@pytest.fixture
def demo(db):
    call_command("load_demo")
    return Competition.objects.get(slug="demo")


def test_the_demo_names_and_describes_itself_in_both_languages(demo):
    names = [demo.name, *Round.objects.filter(competition=demo).values_list("name", flat=True)]
    # The competition, two 2015 rounds, two DP, two sequential, one synthetic, one scorer.
    assert len(names) == 9
    for name in names:
        japanese, _, english = name.partition(" / ")
        assert JAPANESE.search(japanese) and english.isascii() and english, name
    japanese, english = demo.description.split("\n\n")
    assert JAPANESE.search(japanese) and english.isascii()
    for lang in ("ja", "en"):
        client = Client()
        client.cookies["django_language"] = lang
        page = client.get(reverse("competition_detail", args=[demo.slug])).content.decode()
        assert "PWSCup デモ" in page and "UCI Adult 国勢調査データ" in page
        assert "<p>A demo of an anonymize-and-attack competition" in page  # a 2nd paragraph


def test_the_docs_name_the_files_the_site_serves(demo):
    """Every ``*_original.csv``/``*_config.json``/… the README and docs/ name is a file the
    demo serves (checked on the real downloads), a fixture, or the reader's own file."""
    client = Client()
    client.login(username="team-a", password="pwscup-demo")
    served = set()
    for view in ("original_download", "config_download"):
        response = client.get(reverse(view, args=[demo.slug, "round-1"]))
        assert response.status_code == 200, view
        served.add(re.search(r'filename="([^"]+)"', response["Content-Disposition"])[1])
    assert served == {"round-1_original.csv", "round-1_config.json"}
    response = client.get(reverse("original_download", args=[demo.slug, "round-2"]))
    sample = re.search(r'filename="([^"]+)"', response["Content-Disposition"])[1]
    assert sample == "teamA_original.csv"
    # The files of the DP starter kit, which the DP guide names.
    kit = client.get(reverse("dp:kit_download", args=[demo.slug, "dp-adult"]))
    assert kit.status_code == 200
    with zipfile.ZipFile(io.BytesIO(b"".join(kit.streaming_content))) as archive:
        served |= {Path(name).name for name in archive.namelist()}
    assert "dp_config.json" in served
    # The targets are named like the samples: by the team's slug.
    served |= {
        f"{team}_{kind}.csv"
        for team in ("teamA", "teamB", "teamC")
        for kind in ("original", "anonymized", "candidate")
    }
    fixtures = {path.name for path in (ROOT / "fixtures").iterdir()}
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    # Concrete names only: ``<round>_config.json`` describes the pattern.
    # (``<team>_sample_anonymized.csv`` too: no name is read from inside a pattern).
    named = re.compile(
        r"(?<![\w>.-])[A-Za-z0-9][\w.-]*_(?:original|config|candidate|anonymized)\.(?:csv|json)"
    )
    for page in pages:
        for name in set(named.findall(page.read_text())):
            own = name.startswith("my_")  # the reader's own file in an example
            assert name in served or name in fixtures or own, (page.name, name)
