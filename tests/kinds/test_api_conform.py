"""Every kind in the REST API, the way the ``pwscup`` client uses it: the round's status
names the kind, says what the team may upload, takes an upload at the address it gives
(kept as uploaded, numbered, refused past the deadline with the core's 403), lists the
team's uploads in the one status vocabulary, answers an attack on a team without a target
with a 404 naming the team, and the standings hide a disqualified team.

Run once per registered kind and per test-only kind (``tests/kinds/conftest.py``)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.console.services import console_team_disqualify, console_team_reinstate
from pwscup.kinds import kind_of
from pwscup.pages.declared import send_url_name

STATUSES = {"queued", "running", "finished", "failed"}


def api(arena, letter: str) -> tuple[Client, dict]:
    user = arena.users[letter] if letter != "organizer" else arena.organizer
    return Client(), {
        "HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"
    }


def status_of(arena, letter: str) -> dict:
    client, headers = api(arena, letter)
    url = reverse("api:round-status", args=[arena.competition.slug, arena.round.slug])
    response = client.get(url, **headers)
    assert response.status_code == 200, response.content
    return response.json()


def post_upload(arena, letter: str, content: bytes):
    """Upload as the client does: the first open submission type, its required fields set
    to their first choice."""
    (kind, *_rest) = [t for t in status_of(arena, letter)["submission_types"] if t["open"]]
    fields = {f["name"]: f["choices"][0] for f in kind["fields"] if f["required"] and f["choices"]}
    client, headers = api(arena, letter)
    return client.post(
        kind["url"], {"file": SimpleUploadedFile("upload.csv", content), **fields}, **headers
    )


def test_the_status_names_the_kind_and_takes_an_upload(player, arena_of):
    arena = arena_of()
    status = status_of(arena, "a")
    assert status["kind"] == player.key and status["team"]["slug"] == arena.teams["a"].slug
    assert any(t["open"] for t in status["submission_types"])
    content = player.valid(arena, 1)
    answer = post_upload(arena, "a", content)
    assert answer.status_code == 202, answer.content
    assert answer.json()["number"] == 1 and answer.json()["status"] == "queued"
    client, headers = api(arena, "a")
    detail = client.get(answer.json()["url"], **headers).json()
    listed = next(u for u in status_of(arena, "a")["uploads"] if u["id"] == detail["id"])
    # One time zone in every answer (the server's, as the schedule's): never UTC's "Z" here.
    assert detail["created_at"] == listed["created_at"] and detail["created_at"].endswith("+09:00")
    (kept,) = player.kept(arena, "a")
    with kept.file.open("rb") as handle:
        assert handle.read() == content
    player.submit(arena, "a", player.invalid(arena))
    player.run_jobs()
    uploads = status_of(arena, "a")["uploads"]
    assert sorted(u["number"] for u in uploads) == [1, 2]
    assert {u["status"] for u in uploads} <= STATUSES
    assert {u["status"] for u in uploads} == {"finished", "failed"}
    assert status_of(arena, "b")["uploads"] == []  # a team sees its own uploads only


def test_the_api_refuses_past_the_deadline_with_403(player, arena_of):
    arena = arena_of()
    status = status_of(arena, "a")
    player.close(arena)
    (kind, *_rest) = status["submission_types"]
    fields = {f["name"]: f["choices"][0] for f in kind["fields"] if f["required"] and f["choices"]}
    client, headers = api(arena, "a")
    late = client.post(
        kind["url"],
        {"file": SimpleUploadedFile("late.csv", player.valid(arena, 1)), **fields},
        **headers,
    )
    assert late.status_code == 403, late.content
    assert player.kept(arena, "a") == []


def published_arena(player, arena_of):
    """A round where teams A and B have played, closed, published, every job run."""
    arena = arena_of()
    player.play_results(arena, "ab")
    player.close(arena)
    player.publish(arena)
    player.run_jobs()
    return arena


def test_the_standings_hide_a_disqualified_team(player, arena_of):
    arena = published_arena(player, arena_of)
    client, headers = api(arena, "b")
    url = reverse("api:round-standings", args=[arena.competition.slug, arena.round.slug])

    def names() -> str:
        answer = client.get(url, **headers)
        assert answer.status_code == 200, answer.content
        return str(answer.json()["tables"])

    assert "Team A" in names() and "Team B" in names()
    console_team_disqualify(user=arena.organizer, team=arena.teams["a"], reason="Two accounts")
    assert "Team A" not in names() and "Team B" in names()
    console_team_reinstate(user=arena.organizer, team=arena.teams["a"])
    assert "Team A" in names()


def test_the_status_reads_a_team_s_uploads_in_a_fixed_number_of_queries(player, arena_of):
    """The status a client polls costs the same queries for 1 upload as for 4: each upload's
    answer reads nothing of its own (the 2015 game's once cost 4 queries per upload)."""
    arena = arena_of()
    client, headers = api(arena, "a")
    url = reverse("api:round-status", args=[arena.competition.slug, arena.round.slug])

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url, **headers).status_code == 200
        return len(captured)

    player.submit(arena, "a", player.valid(arena, 1))
    player.run_jobs()
    client.get(url, **headers)  # the token's first use writes its last-used time
    one = queries()
    for n in range(2, 5):
        player.submit(arena, "a", player.valid(arena, n))
    player.run_jobs()
    assert len(status_of(arena, "a")["uploads"]) == 4
    assert queries() == one


def test_an_upload_sending_its_file_twice_is_refused_and_nothing_kept(player, arena_of):
    """Two ``file`` parts (or a field twice) would keep only the last one: refused whole,
    400, naming the part, in the reader's language."""
    arena = arena_of()
    (kind, *_rest) = [t for t in status_of(arena, "a")["submission_types"] if t["open"]]
    fields = {f["name"]: f["choices"][0] for f in kind["fields"] if f["required"] and f["choices"]}
    client, headers = api(arena, "a")
    content = player.valid(arena, 1)
    twice = [SimpleUploadedFile("one.csv", content), SimpleUploadedFile("two.csv", content)]
    answer = client.post(
        kind["url"], {"file": twice, **fields}, HTTP_ACCEPT_LANGUAGE="ja", **headers
    )
    assert answer.status_code == 400, answer.content
    assert "file" in answer.json()["message"] and "複数回" in answer.json()["message"]
    for name, value in fields.items():  # a field the upload reads, twice: which would count?
        one = SimpleUploadedFile("one.csv", content)
        again = client.post(kind["url"], {"file": one, name: [value, value]}, **headers)
        assert again.status_code == 400 and name in again.json()["message"], again.content
    assert player.kept(arena, "a") == []
    # A field no upload reads is ignored, sent twice or not, as any unknown field is.
    one = SimpleUploadedFile("one.csv", content)
    kept = client.post(kind["url"], {"file": one, "extra": ["x", "y"], **fields}, **headers)
    assert kept.status_code == 202, kept.content


def test_an_attack_on_a_team_without_a_target_is_a_404_naming_the_team(player):
    """The attack type's ``target`` names a team with no target: 404 ``not_found`` whose
    message names that team and the teams the caller may name (the status's choices: a
    slug typed in the wrong case, ``teamb`` for ``teamB``, says what to type), in the
    caller's language (docs/api.md, *Errors*)."""
    if not player.attack_targets:
        pytest.skip(f"{player.key}'s attacks name no target")
    arena = player.target_arena(slug="notarget")
    status = status_of(arena, "a")
    (attack_type,) = [
        t for t in status["submission_types"] if any(f["name"] == "target" for f in t["fields"])
    ]
    (target_field,) = [f for f in attack_type["fields"] if f["name"] == "target"]
    choices = ", ".join(target_field["choices"])
    assert len(target_field["choices"]) == 2, target_field  # teams B and C
    client, headers = api(arena, "a")
    english = f"No published target of the team nobody. Name one of: {choices}."
    for language, message in (
        ("en", english),
        ("ja", f"チーム nobody の公開された攻撃対象はありません。指定できるのは {choices} です。"),
    ):
        refused = client.post(
            attack_type["url"],
            {"file": SimpleUploadedFile("mia.csv", b"id,score\n"), "target": "nobody"},
            HTTP_ACCEPT_LANGUAGE=language,
            **headers,
        )
        assert refused.status_code == 404, refused.content
        assert refused.json() == {"code": "not_found", "message": message}
    # The Submit tab's form target says the same, not a bare "page not found".
    kind = kind_of(arena.round)
    (declared,) = [t for t in kind.submission_types() if t.key == attack_type["key"]]
    send = reverse(send_url_name(kind, declared), args=[arena.competition.slug, arena.round.slug])
    browser = Client()
    browser.force_login(arena.users["a"])
    form = {"file": SimpleUploadedFile("mia.csv", b"id,score\n"), "target": "nobody"}
    answer = browser.post(send, form, HTTP_ACCEPT="application/json")
    assert answer.status_code == 404 and answer.json()["error"] == english


def test_the_standings_are_served_as_csv_table_by_table(player, arena_of):
    """The core's ``standings.csv`` (``pwscup.pages.declared``) gives every table of the API's
    standings, whatever the kind, to whom the API gives them."""
    arena = published_arena(player, arena_of)
    client, headers = api(arena, "b")
    args = [arena.competition.slug, arena.round.slug]
    tables = client.get(reverse("api:round-standings", args=args), **headers).json()["tables"]
    assert tables
    browser = Client()
    browser.force_login(arena.users["b"])
    csv_url = reverse("round_standings_csv", args=args)
    for number, table in enumerate(tables, start=1):
        answer = browser.get(csv_url, {"table": number})
        assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
        lines = answer.content.decode("utf-8-sig").splitlines()
        assert lines[0] == ",".join(str(column) for column in table["columns"])
        assert len(lines) == 1 + len(table["rows"])
    assert browser.get(csv_url, {"table": len(tables) + 1}).status_code == 404
    for bad in ("0", "x", "²", "9" * 5000):
        assert browser.get(csv_url, {"table": bad}).status_code == 404, bad[:10]


def test_a_browser_form_keeps_an_upload_as_the_api_does(player, arena_of):
    """Every declared type's browser target (``<path>/send/``, ``pwscup.pages.declared``) keeps
    an upload through the type's serializer and service, for a member of a team only."""
    arena = arena_of()
    kind = kind_of(arena.round)
    if not any(t.has_create for t in kind.submission_types()):
        pytest.skip(f"{player.key} declares no type it takes through the core (its own forms)")
    (declared, *_rest) = [t for t in status_of(arena, "a")["submission_types"] if t["open"]]
    fields = {
        f["name"]: f["choices"][0] for f in declared["fields"] if f["required"] and f["choices"]
    }
    (declared_type,) = [t for t in kind.submission_types() if t.key == declared["key"]]
    send = reverse(
        send_url_name(kind, declared_type), args=[arena.competition.slug, arena.round.slug]
    )
    content = player.valid(arena, 1)
    outsider = Client()
    outsider.force_login(arena.organizer)
    # An organizer outside the teams: the API's refusal (403 or 404), nothing kept.
    client, headers = api(arena, "organizer")
    api_status = client.post(declared["url"], {}, **headers).status_code
    assert api_status in (403, 404)
    assert (
        outsider.post(send, {"file": SimpleUploadedFile("u.csv", content), **fields}).status_code
        == api_status
    )
    assert player.kept(arena, "a") == []
    browser = Client()
    browser.force_login(arena.users["a"])
    answer = browser.post(send, {"file": SimpleUploadedFile("u.csv", content), **fields})
    assert answer.status_code == 302
    told = [str(m) for m in browser.get(answer["Location"]).context["messages"]]
    assert len(player.kept(arena, "a")) == 1, told
    (kept,) = player.kept(arena, "a")
    with kept.file.open("rb") as handle:
        assert handle.read() == content
    refused = browser.post(send, fields, HTTP_ACCEPT="application/json")
    assert refused.status_code == 400 and refused.json()["error"]
    assert len(player.kept(arena, "a")) == 1
