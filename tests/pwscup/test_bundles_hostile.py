"""Hostile bundles: every one refused with its message by the service and by the console's
import page (never a 500), nothing created, no file written outside the storage."""

import io
import os
import stat
import tempfile
import zipfile
from html import unescape
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.bundles import services
from pwscup.bundles.selectors import competition_bundle
from pwscup.competitions.models import Competition, Round
from tests.pwscup.bundle_helpers import START, creator, members_of, storage_names, zip_of

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:Duplicate name")]


def _zip(entries) -> bytes:
    """A ZIP of ``(ZipInfo or name, bytes)`` written as given (duplicates included)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, content in entries:
            archive.writestr(info, content)
    return buffer.getvalue()


def _info(name: str, *, mode: int | None = None, flags: int = 0) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    if mode is not None:
        info.create_system = 3
        info.external_attr = mode << 16
    info.flag_bits |= flags
    return info


def _symlink() -> bytes:
    return _zip(
        [(_info("manifest.json"), b"{}"), (_info("link", mode=stat.S_IFLNK | 0o777), b"/etc")]
    )


def _encrypted() -> bytes:
    data = bytearray(_zip([(_info("manifest.json"), b"{}")]))
    # Set the "encrypted" bit in the local header and in the central directory.
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature) + offset
        data[at] |= 0x1
    return bytes(data)


def _lying_size(bundle: bytes) -> bytes:
    """The original's declared size made smaller than its content (in both headers)."""
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        info = archive.getinfo("rounds/r1/original.csv")
    data = bytearray(bundle)
    real = info.file_size.to_bytes(4, "little")
    small = (100).to_bytes(4, "little")
    count = data.count(real)
    assert count >= 2
    return bytes(data.replace(real, small))


BOMB = 5 * 1024 * 1024  # zeros: deflated to a few kilobytes


HOSTILE = {
    "garbage": (lambda b: b"this is not a zip file at all" * 10, "not a ZIP file"),
    "empty": (lambda b: b"", "The bundle is empty"),
    "absolute": (lambda b: _zip([("/etc/passwd", b"x")]), "its name has an absolute path"),
    "parent": (lambda b: _zip([("rounds/../../evil.csv", b"x")]), "a parent folder (..)"),
    "backslash": (lambda b: _zip([("rounds\\r1\\x.csv", b"x")]), "a backslash"),
    "drive": (lambda b: _zip([("C:/windows/x", b"x")]), "its name has an absolute path"),
    "duplicate": (
        lambda b: _zip([("manifest.json", b"{}"), ("manifest.json", b"{}")]),
        "holds the member 'manifest.json' twice",
    ),
    "symlink": (lambda b: _symlink(), "is a symbolic link"),
    "encrypted": (lambda b: _encrypted(), "is encrypted"),
    "bomb": (
        lambda b: _zip([("manifest.json", b"{}"), ("rounds/r1/zeros.csv", bytes(BOMB))]),
        "take more than 1.0\xa0MB once decompressed",
    ),
    "lying size": (lambda b: _lying_size(b), "cannot be read"),
    "many files": (
        lambda b: _zip([(f"f{n}", b"") for n in range(12)]),
        "holds 12 members; the limit is 10",
    ),
    "no manifest": (lambda b: _zip([("readme.txt", b"hi")]), "The bundle has no manifest.json"),
    "manifest not json": (
        lambda b: _zip([("manifest.json", b"{nope")]),
        "manifest.json: Not valid JSON: the syntax breaks at line 1, column 2.",
    ),
    "manifest nested 100,000 levels": (
        lambda b: _zip(
            [("manifest.json", b'{"rounds": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")]
        ),
        "manifest.json: The JSON text is nested 100001 levels deep; at most 32 levels",
    ),
    "manifest not utf-8": (
        lambda b: _zip([("manifest.json", "{}".encode("utf-16"))]),
        "manifest.json is not UTF-8",
    ),
    "20,000 empty rounds": (
        lambda b: _zip(
            [
                (
                    "manifest.json",
                    members_of(b)["manifest.json"].replace(
                        b'"rounds": [', b'"rounds": [' + b"{}, " * 20_000, 1
                    ),
                )
            ]
        ),
        # Said at once (the schema's errors are read lazily: a million of them once took
        # minutes and gigabytes), each message once.
        "manifest.json: rounds: 20001 items; at most 100 are allowed.",
    ),
    "manifest a list": (lambda b: _zip([("manifest.json", b"[]")]), "must hold a JSON object"),
    "version 2": (
        lambda b: zip_of(
            {
                **members_of(b),
                "manifest.json": members_of(b)["manifest.json"].replace(
                    b'"version": 1', b'"version": 2'
                ),
            }
        ),
        "manifest.json: version 2 is unknown",
    ),
}


FORM_MESSAGES = {"empty": "The submitted file is empty."}


@pytest.fixture
def limits(settings):
    settings.PWSCUP_BUNDLE_MAX_BYTES = 1024 * 1024
    settings.PWSCUP_BUNDLE_MAX_FILES = 10
    return settings


@pytest.fixture
def temp_folder(tmp_path, monkeypatch, settings):
    """This test's own temp folder, for Python's ``tempfile`` (its documented ``tempdir``)
    and for Django's uploads: what the import leaves in a temp folder is found there, and
    nothing else on the machine writes into it."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    settings.FILE_UPLOAD_TEMP_DIR = str(folder)
    return folder


def _temp_files(folder: Path) -> set[str]:
    return {str(p) for p in folder.rglob("*")}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_the_service_refuses_each_hostile_bundle(world, limits, temp_folder, case):
    organizer = creator(world.organizer)
    make, expected = HOSTILE[case]
    data = make(competition_bundle(competition=world.competition).data)
    before = storage_names()
    with pytest.raises(ValidationError) as caught:
        services.competition_import(
            bundle_file=io.BytesIO(data), name="", slug="copy", start=START, user=organizer
        )
    assert any(expected in message for message in caught.value.messages), caught.value.messages
    assert Competition.objects.count() == 1 and Round.objects.count() == 1
    assert storage_names() == before
    assert _temp_files(temp_folder) == set()
    assert not Path("/etc/evil.csv").exists() and not Path("evil.csv").exists()


def test_an_upload_larger_than_the_limit_is_refused_before_it_is_read(world, settings):
    settings.PWSCUP_BUNDLE_MAX_UPLOAD_BYTES = 1000
    organizer = creator(world.organizer)

    class Unreadable(io.BytesIO):
        def read(self, *args):
            raise AssertionError("read")

    with pytest.raises(ValidationError) as caught:
        services.competition_import(
            bundle_file=Unreadable(bytes(5000)), name="", slug="c", start=START, user=organizer
        )
    assert caught.value.messages == ["The bundle is 4.9\xa0KB; the limit is 1000\xa0bytes."]


def _post(client, content: bytes, **fields):
    return client.post(
        reverse("bundles:import"),
        {
            "bundle": SimpleUploadedFile("bundle.zip", content, "application/zip"),
            "name": "",
            "slug": "copy",
            "start": "2031-04-01T09:00",
            "timezone": "Asia/Tokyo",
            **fields,
        },
    )


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_the_import_page_shows_each_refusal(world, limits, client, temp_folder, case):
    organizer = creator(world.organizer)
    make, expected = HOSTILE[case]
    # Django's own check of an upload answers first for an empty file.
    expected = FORM_MESSAGES.get(case, expected)
    data = make(competition_bundle(competition=world.competition).data)
    client.force_login(organizer)
    response = _post(client, data)
    assert response.status_code == 200
    page = unescape(response.content.decode())
    assert 'data-testid="bundle-import-form"' in page
    assert expected in page, case
    assert Competition.objects.count() == 1
    assert _temp_files(temp_folder) == set()


def test_the_import_page_refuses_a_huge_upload_unread_and_a_large_one_unkept(
    world, client, settings
):
    organizer = creator(world.organizer)
    client.force_login(organizer)
    settings.PWSCUP_BUNDLE_MAX_UPLOAD_BYTES = 10_000
    # Past the limit and the form's margin: refused from its length, the body unread.
    response = _post(client, bytes(200_000))
    assert response.status_code == 413
    assert "larger than the limit of 9.8" in response.content.decode()
    # Past the limit, within the margin: read and dropped by the upload handler.
    response = _post(client, bytes(20_000))
    assert response.status_code == 200
    assert "larger than the limit of 9.8" in response.content.decode()
    assert Competition.objects.count() == 1


def test_the_import_page_imports_and_shows_field_errors(world, client):
    organizer = creator(world.organizer)
    client.force_login(organizer)
    data = competition_bundle(competition=world.competition).data
    response = _post(client, data, slug="cup", start="1800-01-01T00:00")
    page = response.content.decode()
    assert response.status_code == 200 and "is outside the dates the platform accepts" in page
    response = _post(client, data, slug="cup")
    assert "A competition with this address already exists." in response.content.decode()
    response = _post(client, data, slug="copy", name="Copy cup")
    assert response.status_code == 302 and response["Location"] == reverse(
        "console:competition", args=["copy"]
    )
    copy = Competition.objects.get(slug="copy")
    assert (
        copy.name == "Copy cup"
        and copy.rounds.get().phases.get(kind="anonymization").opens_at.isoformat()
        == "2031-04-01T00:00:00+00:00"
    )


def test_who_sees_the_bundle_pages(world, client, django_user_model):
    # An organizer who may not create competitions exports, but neither clones nor imports.
    client.force_login(world.organizer)
    export = client.get(reverse("bundles:export", args=["cup"]))
    assert export.status_code == 200 and export["Content-Type"] == "application/zip"
    assert members_of(export.content)["rounds/r1/original.csv"] == world.original
    assert client.get(reverse("bundles:clone", args=["cup"])).status_code == 403
    page = client.get(reverse("console:competition", args=["cup"])).content.decode()
    assert 'data-testid="bundle-export"' in page and 'data-testid="bundle-clone"' not in page
    assert client.get(reverse("bundles:import")).status_code == 403
    # A creator who does not organize this competition: 404 on its pages.
    stranger = creator(django_user_model.objects.create_user("stranger", password="pw"))
    client.force_login(stranger)
    assert client.get(reverse("bundles:export", args=["cup"])).status_code == 404
    assert client.get(reverse("bundles:clone", args=["cup"])).status_code == 404
    assert client.get(reverse("bundles:import")).status_code == 200
    client.logout()
    assert client.get(reverse("bundles:import")).status_code == 302
    assert client.get(reverse("bundles:export", args=["cup"])).status_code == 302


def test_the_clone_page_clones(world, client):
    organizer = creator(world.organizer)
    client.force_login(organizer)
    page = client.get(reverse("console:competition", args=["cup"])).content.decode()
    assert reverse("bundles:export", args=["cup"]) in page
    assert reverse("bundles:clone", args=["cup"]) in page
    assert reverse("bundles:import") in client.get(reverse("console:home")).content.decode()
    url = reverse("bundles:clone", args=["cup"])
    sent = {"name": "", "start": "2031-04-01T09:00", "timezone": "UTC", "rounds": ["r1"]}
    response = client.post(url, {**sent, "slug": "cup"})
    assert "A competition with this address already exists." in response.content.decode()
    response = client.post(url, {**sent, "slug": "cup-2"})
    assert response.status_code == 302
    clone = Competition.objects.get(slug="cup-2")
    assert clone.name == "Cup cup" and clone.organizers.get() == organizer
    assert os.path.basename(response["Location"].rstrip("/")) == "cup-2"


def test_the_import_page_checks_csrf_although_it_sets_its_upload_handler_first(world):
    organizer = creator(world.organizer)
    client = Client(enforce_csrf_checks=True)
    client.force_login(organizer)
    response = _post(client, competition_bundle(competition=world.competition).data)
    assert response.status_code == 403
    assert Competition.objects.count() == 1
