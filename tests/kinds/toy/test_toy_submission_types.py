"""A kind declares its submission types and the core serves them: the toy writes no REST
view, yet its uploads have their endpoints (list, upload 202, one upload, its file), their
place in the round status and their OpenAPI operations. A second type declared on the toy
(a note with a title) gets its own endpoints the moment the kind lists it, with the same
access rules: 404 for another team's upload, 400 naming a missing field. The toy draws no
tab either: the core's Submit tab gives each declared type its form (its target keeps the
upload as the API does) and the team's uploads, the Results tab the kind's standings and
their CSV (``pwscup.pages.declared``)."""

import inspect

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from rest_framework import serializers

from pwscup.api.services import api_token_create
from pwscup.kinds import register, unregister
from pwscup.submissions.services.uploads import UploadWindow, upload_keep
from pwscup.submissions.submission_types import SubmissionType
from tests.kinds.toy import api, services
from tests.kinds.toy.kind import ToyGameKind
from tests.kinds.toy.models import ToyNote, ToyRound, ToyUpload
from tests.kinds.toy.player import PLAYER, _reload_urls

pytestmark = pytest.mark.django_db


class ToyNotes(SubmissionType):
    """The second type: a note with a title, kept through the core's ``upload_keep``."""

    key = "note"
    label = "Toy note"
    path = "toy/notes"
    url_name = "toy-note"
    operation = "toy_note"
    summaries = {"create": "Upload a toy note"}
    upload_fields = {"title": serializers.CharField(max_length=40)}
    has_file = True

    def uploads(self, part, access):
        return ToyNote.objects.filter(round=access.round, team=self.team(access)).order_by(
            "-number"
        )

    def as_json(self, upload, part, access, context):
        return {
            "about": upload.title,
            "message": "",
            "note": "",
            "scores": {},
            "scores_text": {},
            "final": False,
        }

    def upload(self, part, access, *, user, uploaded_file, data):
        round_ = access.round
        return upload_keep(
            model=ToyNote,
            window=UploadWindow(
                round=round_,
                uploads=ToyNote.objects.filter(round=round_, team=access.team),
                daily_limit=None,
                total_limit=None,
            ),
            team=access.team,
            uploaded_file=uploaded_file,
            stored_name="note.txt",
            now=timezone.now(),
            round=round_,
            title=data["title"],
        )

    def received_message(self, upload):
        return f"note {upload.number} kept"

    def file_response(self, upload):
        return api.ToyUploads.file_response(self, upload)


class TwoTypeToyKind(ToyGameKind):
    def submission_types(self):
        return [*api.SUBMISSION_TYPES, ToyNotes()]


@pytest.fixture
def arena(db):
    PLAYER.install()
    yield PLAYER.arena(slug="types")
    PLAYER.uninstall()


@pytest.fixture
def two_types(arena):
    """The toy registered again, declaring the note beside its upload."""
    unregister(PLAYER.key)
    register(TwoTypeToyKind())
    _reload_urls()
    with connection.schema_editor() as editor:
        editor.create_model(ToyNote)
    yield arena
    unregister(PLAYER.key)
    register(ToyGameKind())
    _reload_urls()


def api_client(user) -> Client:
    secret = api_token_create(user=user, name="t").secret
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def args(arena) -> list:
    return [arena.competition.slug, arena.round.slug]


def test_the_toy_writes_no_rest_view():
    source = inspect.getsource(api)
    assert "APIView" not in source and "urlpatterns" not in source and "path(" not in source
    assert [t.key for t in ToyGameKind().submission_types()] == ["toy"]


def test_the_declared_upload_has_its_endpoints(arena):
    member = api_client(arena.users["a"])
    listed = reverse("api:toy-uploads", args=args(arena))
    answer = member.post(listed, {"file": SimpleUploadedFile("t.csv", b"a\nb\n")})
    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert body["type"] == "toy" and body["number"] == 1 and body["status"] == "queued"
    assert body["url"] == reverse("api:toy-upload", args=[*args(arena), body["id"]])
    assert member.get(body["url"]).json()["id"] == body["id"]
    assert [u["id"] for u in member.get(listed).json()] == [body["id"]]
    kept = member.get(body["file_url"])
    assert kept.status_code == 200 and b"".join(kept.streaming_content) == b"a\nb\n"
    # Another team's upload, and the list for someone outside the teams: 404.
    other = api_client(arena.users["b"])
    assert other.get(body["url"]).status_code == 404
    assert other.get(body["file_url"]).status_code == 404
    assert api_client(arena.organizer).get(listed).status_code == 404
    status = member.get(reverse("api:round-status", args=args(arena))).json()
    assert [t["key"] for t in status["submission_types"]] == ["toy"]
    assert [u["id"] for u in status["uploads"]] == [body["id"]]


def test_a_type_the_kind_does_not_declare_has_no_endpoint(arena):
    with pytest.raises(NoReverseMatch):
        reverse("api:toy-notes", args=args(arena))


def test_a_second_type_declared_appears_everywhere(two_types):
    arena = two_types
    member = api_client(arena.users["a"])
    notes = reverse("api:toy-notes", args=args(arena))
    missing = member.post(notes, {"file": SimpleUploadedFile("n.txt", b"hello")})
    assert missing.status_code == 400 and "title" in missing.json()["fields"]
    answer = member.post(notes, {"file": SimpleUploadedFile("n.txt", b"hello"), "title": "T1"})
    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert (body["type"], body["about"], body["message"]) == ("note", "T1", "note 1 kept")
    note = ToyNote.objects.get(pk=body["id"])
    assert note.title == "T1" and note.team == arena.teams["a"]
    assert member.get(body["url"]).json()["about"] == "T1"
    assert b"".join(member.get(body["file_url"]).streaming_content) == b"hello"
    assert api_client(arena.users["b"]).get(body["url"]).status_code == 404
    # The toy's first type is untouched; the status lists both, the uploads of both.
    services.toy_upload(
        round=arena.round,
        team=arena.teams["a"],
        uploaded_file=SimpleUploadedFile("t.csv", b"x\n"),
    )
    status = member.get(reverse("api:round-status", args=args(arena))).json()
    assert [t["key"] for t in status["submission_types"]] == ["toy", "note"]
    assert status["submission_types"][1]["url"] == notes
    assert sorted(u["type"] for u in status["uploads"]) == ["note", "toy"]
    # The schema names the new operations, with the declared field.
    schema = member.get(reverse("api:schema"), {"format": "json"}).json()
    operations = {
        op["operationId"]: op
        for item in schema["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert {"toy_notes_list", "toy_notes_create", "toy_note_retrieve"} <= set(operations)
    assert "toy_note_file_retrieve" in operations and "toy_uploads_create" in operations
    assert operations["toy_notes_create"]["summary"] == "Upload a toy note"
    assert ToyRound.objects.count() == 0 and ToyUpload.objects.count() == 1


# --- the round page drawn from the declarations (pwscup.pages.declared) --------------------


def page_client(user, lang="en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = lang
    return client


def tab(arena, name: str) -> str:
    return reverse("round_tab", args=[*args(arena), name])


def test_the_submit_tab_serves_the_declared_type_s_form_and_uploads(arena):
    member = page_client(arena.users["a"])
    page = member.get(tab(arena, "submit")).content.decode()
    send = reverse("toygame:toy-upload-send", args=args(arena))
    assert 'data-testid="send-toy"' in page and f'action="{send}"' in page
    assert "No upload yet." in page
    sent = member.post(send, {"file": SimpleUploadedFile("t.csv", b"a\nb\n")}, follow=True)
    kept = ToyUpload.objects.get()
    assert sent.redirect_chain[-1][0] == tab(arena, "submit") + "#type-toy"
    answer = sent.content.decode()
    assert kept.team == arena.teams["a"] and f'data-testid="upload-{kept.pk}"' in answer
    assert "Upload received" in answer  # the type's received message
    # Another team sees neither the upload nor its number; an organizer, no form at all.
    other = page_client(arena.users["b"]).get(tab(arena, "submit")).content.decode()
    assert f'data-testid="upload-{kept.pk}"' not in other and 'data-testid="send-toy"' in other
    organizer = page_client(arena.organizer).get(tab(arena, "submit")).content.decode()
    assert 'data-testid="send-toy"' not in organizer and 'data-testid="no-team"' in organizer
    assert page_client(arena.organizer).post(send).status_code == 404
    # The service's refusals are the page's: no file, then the phase closed.
    refused = member.post(send, {}, follow=True).content.decode()
    assert "Choose a file." in refused and ToyUpload.objects.count() == 1
    PLAYER.close(arena)
    closed = member.get(tab(arena, "submit")).content.decode()
    assert 'data-testid="closed-toy"' in closed and 'data-testid="send-toy"' not in closed
    late = member.post(send, {"file": SimpleUploadedFile("t.csv", b"x\n")}, follow=True)
    assert ToyUpload.objects.count() == 1 and 'class="error"' in late.content.decode()


def test_a_second_type_gets_its_form_with_its_fields(two_types):
    arena = two_types
    member = page_client(arena.users["a"], lang="ja")
    page = member.get(tab(arena, "submit")).content.decode()
    assert 'data-testid="send-toy"' in page and 'data-testid="send-note"' in page
    assert 'name="title"' in page and "現在はアップロードを受け付けていません" not in page
    send = reverse("toygame:toy-note-send", args=args(arena))
    untitled = member.post(send, {"file": SimpleUploadedFile("n.txt", b"hi")}, follow=True)
    assert "title:" in untitled.content.decode() and ToyNote.objects.count() == 0
    titled = member.post(
        send, {"file": SimpleUploadedFile("n.txt", b"hi"), "title": "T2"}, follow=True
    )
    note = ToyNote.objects.get()
    assert note.title == "T2" and "note 1 kept" in titled.content.decode()
    assert f'data-testid="upload-{note.pk}"' in titled.content.decode()


def test_the_results_tab_shows_the_kind_s_standings_to_whom_they_are_shown(arena):
    PLAYER.submit(arena, "a", b"line\nline\n")
    services.toy_score(upload_id=ToyUpload.objects.get().pk)
    hidden = page_client(arena.users["b"]).get(tab(arena, "results")).content.decode()
    assert 'data-testid="no-standings"' in hidden and "Team A" not in hidden
    shown = page_client(arena.organizer).get(tab(arena, "results")).content.decode()
    # The toy's score 2.0 by the one rule of figures (4 decimals), as every kind's tables.
    assert 'data-testid="standings"' in shown and "<td>2.0000</td>" in shown
    # Each table also as the core's CSV, from the Results tab.
    csv_link = reverse("round_standings_csv", args=args(arena)) + "?table=1"
    assert f'href="{csv_link}"' in shown
    rows = page_client(arena.organizer).get(csv_link).content.decode().splitlines()
    assert rows == ["team,score", "Team A,2.0"]
    assert page_client(arena.users["b"]).get(csv_link).status_code == 404
