"""The 2015 game's uploads answer, as declared submission types served by the core, every
field the hand-written views answered (their serializers' fields, with the same values), and
the core's own beside them (type, url, file_url, select_url, about, final); the round status
lists them through the core, with the keys, labels and fields it listed before."""

import datetime as dt

import pytest
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.pwscup2015.api import serializers as s
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission
from tests.pwscup.factories import answer_bytes, freeze, score_attack, scored, truth_of
from tests.support import csv_upload, noisy_copy

pytestmark = pytest.mark.django_db

# What the hand-written views answered (``SubmissionSerializer``, ``AttackSerializer``,
# ``UploadAcceptedSerializer``), field by field.
OLD_SUBMISSION = {
    "id", "number", "status", "message", "note", "original_filename", "sha256", "size",
    "created_at", "finished_at", "competition", "round", "team", "scores", "scores_text",
    "is_selected", "file_url",
}  # fmt: skip
OLD_ATTACK = {
    "id", "number", "status", "message", "note", "original_filename", "sha256", "size",
    "created_at", "finished_at", "competition", "round", "team", "target", "rate",
    "rate_text", "correct", "rows", "file_url",
}  # fmt: skip
OLD_ACCEPTED = {"id", "number", "status", "message", "url"}
TIMES = ("created_at", "finished_at")


def _auth(user) -> dict:
    return {"HTTP_AUTHORIZATION": "Bearer " + api_token_create(user=user, name="t").secret}


def _same_as_old(answer: dict, old: dict, keys: set) -> None:
    """Every old field is in the new answer with the same value (times: the same instant)."""
    assert keys <= set(answer), keys - set(answer)
    for key in keys - set(TIMES):
        assert answer[key] == old[key], key
    for key in TIMES:
        new, was = answer[key], old[key]
        assert (new is None and was is None) or (
            dt.datetime.fromisoformat(new) == dt.datetime.fromisoformat(was)
        ), key


def test_submission_answers_keep_every_old_field(world, client):
    auth, args = _auth(world.users["a"]), [world.competition.slug, world.round.slug]
    first = scored(world, "a", seed=1)
    url = reverse("api:submissions", args=args)
    accepted = client.post(url, {"file": csv_upload(noisy_copy(world.original, seed=2))}, **auth)
    assert accepted.status_code == 202
    body = accepted.json()
    assert OLD_ACCEPTED <= set(body) and body["message"].startswith("Upload received")
    queued = AnonymizationSubmission.objects.get(pk=body["id"])
    assert body["url"] == reverse("api:submission", args=[*args, queued.pk])

    listed = client.get(url, **auth).json()
    assert [u["id"] for u in listed] == [queued.pk, first.pk]
    for answer, upload in zip(listed, [queued, first], strict=True):
        _same_as_old(answer, s.SubmissionSerializer(upload).data, OLD_SUBMISSION)
        assert answer["type"] == "anonymized"
    # Before any choice the one that counts is the latest scored upload (the round's rule),
    # as the round page marks it; the queued one is not it.
    assert [answer["final"] for answer in listed] == [False, True]
    assert listed[0]["scores"] is None and listed[1]["scores"] == first.scores
    detail = client.get(listed[1]["url"], **auth).json()
    assert detail == listed[1]
    assert detail["file_url"] == reverse("api:submission-file", args=[*args, first.pk])

    chosen = client.post(detail["select_url"], **auth)
    assert chosen.status_code == 200
    first.refresh_from_db()
    # Its ``message`` says what the selection did (the job's, always empty for the scored
    # upload a team may select, was the old answer's), as every kind's selection answers.
    old = s.SubmissionSerializer(first).data
    assert old["message"] == ""
    _same_as_old(chosen.json(), old, OLD_SUBMISSION - {"message"})
    assert chosen.json()["message"] == "Submission #1 is now your final one."
    assert chosen.json()["is_selected"] is True and chosen.json()["final"] is True

    status = client.get(reverse("api:round-status", args=args), **auth).json()
    types = {t["key"]: t for t in status["submission_types"]}
    assert types["anonymized"]["url"] == url and types["anonymized"]["open"] is True
    assert [f["name"] for f in types["anonymized"]["fields"]] == ["note"]
    assert [f["name"] for f in types["attack"]["fields"]] == ["target", "note"]
    uploads = {u["id"]: u for u in status["uploads"]}
    assert uploads[queued.pk]["scores"] == {} and uploads[first.pk]["final"] is True


def test_attack_answers_keep_every_old_field(world, client):
    scored(world, "a", seed=1)
    target = freeze(world)["a"]
    auth, args = _auth(world.users["b"]), [world.competition.slug, world.round.slug]
    url = reverse("api:attacks", args=args)
    data = {"file": csv_upload(answer_bytes(truth_of(target)), "answer.csv"), "target": "teamA"}
    accepted = client.post(url, data, **auth)
    assert accepted.status_code == 202 and OLD_ACCEPTED <= set(accepted.json())
    attack = score_attack(AttackSubmission.objects.get(pk=accepted.json()["id"]))
    listed = client.get(url, **auth).json()
    old = s.AttackSerializer(attack, context={"show_rates": True}).data
    _same_as_old(listed[0], old, OLD_ATTACK)
    assert listed[0]["about"] == target.team.name and listed[0]["type"] == "attack"
    assert listed[0]["scores"] == {"rate": attack.rate}
    assert client.get(listed[0]["url"], **auth).json() == listed[0]
    assert "select_url" not in listed[0]
    assert client.get(listed[0]["file_url"], **auth).status_code == 200
    # Another team's attack is not the caller's: 404, as before.
    assert client.get(listed[0]["url"], **_auth(world.users["a"])).status_code == 404


def test_the_former_addresses_answer_308_to_the_round_s_own(world, client):
    """``v1/submissions/{id}/…`` and ``v1/attacks/{id}/…`` (the addresses before the uploads
    were declared) send a caller who may read the upload on to the same endpoint under its
    round, keeping the method (a select stays a POST); anyone else gets 404, as before."""
    upload = scored(world, "a", seed=1)
    args = [world.competition.slug, world.round.slug, upload.pk]
    auth = _auth(world.users["a"])
    for old, name in (
        (f"/api/v1/submissions/{upload.pk}/", "api:submission"),
        (f"/api/v1/submissions/{upload.pk}/file", "api:submission-file"),
    ):
        moved = client.get(old, **auth)
        assert moved.status_code == 308 and moved["Location"] == reverse(name, args=args)
    followed = client.get(f"/api/v1/submissions/{upload.pk}/", follow=True, **auth)
    assert followed.status_code == 200 and followed.json()["id"] == upload.pk
    selected = client.post(f"/api/v1/submissions/{upload.pk}/select/", follow=True, **auth)
    assert selected.status_code == 200 and selected.json()["is_selected"] is True
    assert selected.redirect_chain == [(reverse("api:submission-select", args=args), 308)]
    # Another team's member and a caller without credentials learn nothing of the upload.
    assert (
        client.get(f"/api/v1/submissions/{upload.pk}/", **_auth(world.users["b"])).status_code
        == 404
    )
    assert client.get(f"/api/v1/submissions/{upload.pk}/").status_code in (401, 403)

    target = freeze(world)["a"]
    data = {"file": csv_upload(answer_bytes(truth_of(target)), "answer.csv"), "target": "teamA"}
    round_args = [world.competition.slug, world.round.slug]
    attack_id = client.post(
        reverse("api:attacks", args=round_args), data, **_auth(world.users["b"])
    ).json()["id"]
    moved = client.get(f"/api/v1/attacks/{attack_id}/file", **_auth(world.users["b"]))
    assert moved["Location"] == reverse("api:attack-file", args=[*round_args, attack_id])
    assert client.get(f"/api/v1/attacks/{attack_id}/", **auth).status_code == 404


@pytest.mark.parametrize(
    ("language", "says"),
    [("en", "send multipart/form-data"), ("ja", "multipart/form-data で送ってください")],
)
def test_an_upload_sent_as_json_is_told_the_body_the_address_takes(world, client, language, says):
    """A script that POSTs JSON to an upload address gets 415 ``unsupported_media_type`` (as
    docs/api.md lists it) saying which body to send, in its language, not only that JSON is
    not supported."""
    url = reverse("api:submissions", args=[world.competition.slug, world.round.slug])
    answer = client.post(
        url,
        data=b'{"note": "k=5"}',
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
        **_auth(world.users["a"]),
    )
    assert answer.status_code == 415
    body = answer.json()
    assert body["code"] == "unsupported_media_type" and says in body["message"], body
    assert not AnonymizationSubmission.objects.exists()
