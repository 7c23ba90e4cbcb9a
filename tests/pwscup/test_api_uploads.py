"""Uploads through the API go through the page's services: the same windows, quotas and size
limits with the same messages and statuses (403/413/429), an invalid file stored and FAILED
with the page's message, the final choice, attacks against a published target."""

import datetime as dt
import math
import re
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from pwscup.api.services import api_token_create
from pwscup.competitions.models import Phase
from pwscup.competitions.services import phase_set
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission, Pwscup2015Round
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import quota_usage
from tests.pwscup.factories import answer_bytes, freeze, score, score_attack, scored, truth_of
from tests.support import csv_upload, noisy_copy

pytestmark = pytest.mark.django_db


class Api:
    """A team's script: its token, the API's URLs of the world's round."""

    def __init__(self, client, world, letter):
        self.client, self.world = client, world
        self.auth = {
            "HTTP_AUTHORIZATION": "Bearer "
            + api_token_create(user=world.users[letter], name="script").secret
        }
        self.args = [world.competition.slug, world.round.slug]

    def get(self, name_or_url, *args, **extra):
        url = name_or_url if name_or_url.startswith("/") else reverse(name_or_url, args=args)
        return self.client.get(url, **self.auth, **extra)

    def submit(self, content: bytes, *, note="", **extra):
        url = reverse("api:submissions", args=self.args)
        data = {"file": csv_upload(content), "note": note}
        return self.client.post(url, data, **self.auth, **extra)

    def attack(self, target_slug: str, content: bytes, **extra):
        url = reverse("api:attacks", args=self.args)
        data = {"file": csv_upload(content, "answer.csv"), "target": target_slug}
        return self.client.post(url, data, **self.auth, **extra)


def page_refusal(client, world, letter, content: bytes, **extra) -> tuple[int, str]:
    """What the round page's upload answers (its JSON form) for the same file."""
    client.force_login(world.users[letter])
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    response = client.post(
        url, {"file": csv_upload(content)}, HTTP_ACCEPT="application/json", **extra
    )
    client.logout()
    return response.status_code, response.json()["error"]


def test_upload_is_accepted_scored_and_read_back(world, client):
    api = Api(client, world, "a")
    content = noisy_copy(world.original, seed=1)
    accepted = api.submit(content, note="k=5")
    assert accepted.status_code == 202, accepted.content
    body = accepted.json()
    assert body["status"] == Status.QUEUED
    assert body["url"] == reverse("api:submission", args=[*api.args, body["id"]])
    assert api.get(body["url"]).json()["scores"] is None
    submission = score(AnonymizationSubmission.objects.get(pk=body["id"]))
    detail = api.get(body["url"]).json()
    assert detail["status"] == "finished"
    assert detail["scores"] == submission.scores
    assert detail["note"] == "k=5" and detail["number"] == 1
    assert api.get(detail["file_url"]).getvalue() == content
    listed = api.get("api:submissions", *api.args).json()
    assert [s["id"] for s in listed] == [body["id"]]


def test_invalid_upload_is_stored_and_failed_with_the_pages_message(world, client):
    api = Api(client, world, "a")
    content = b"age,workclass\nnot,a,table\n"
    accepted = api.submit(content)
    assert accepted.status_code == 202
    submission = score(AnonymizationSubmission.objects.get(pk=accepted.json()["id"]))
    assert submission.status == Status.FAILED
    detail = api.get(accepted.json()["url"]).json()
    assert detail["status"] == "failed"
    assert detail["message"] == job_message_text(submission) != ""
    assert detail["scores"] is None
    assert api.get(detail["file_url"]).getvalue() == content  # kept as uploaded


def test_closed_window_is_403_with_the_pages_message_in_both_languages(make_world, client):
    world = make_world(anonymization_open=False)
    api = Api(client, world, "a")
    content = noisy_copy(world.original, seed=1)
    for language in ("en", "ja"):
        refused = api.submit(content, HTTP_ACCEPT_LANGUAGE=language)
        assert refused.status_code == 403
        status, message = page_refusal(client, world, "a", content, HTTP_ACCEPT_LANGUAGE=language)
        assert refused.json() == {"code": "forbidden", "message": message}
        assert status == 403
    assert not refused.json()["message"].isascii()  # the Japanese one
    assert not AnonymizationSubmission.objects.exists()


def test_quota_is_429_with_the_pages_message(make_world, client):
    world = make_world(daily_limit=1)
    api = Api(client, world, "a")
    assert api.submit(noisy_copy(world.original, seed=1)).status_code == 202
    refused = api.submit(noisy_copy(world.original, seed=2))
    assert refused.status_code == 429
    assert refused.json()["code"] == "quota_exceeded"
    status, message = page_refusal(client, world, "a", noisy_copy(world.original, seed=3))
    assert (status, message) == (429, refused.json()["message"])
    assert AnonymizationSubmission.objects.count() == 1
    quota = api.get("api:round-detail", *api.args).json()["phases"][0]["quota"]
    assert quota["used_today"] == quota["used_total"] == 1


def test_daily_quota_429_says_when_it_resets(make_world, client, monkeypatch):
    world = make_world(daily_limit=1)
    api = Api(client, world, "a")
    assert api.submit(noisy_copy(world.original, seed=1)).status_code == 202
    frozen = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: frozen)
    resets_at = quota_usage(
        model=AnonymizationSubmission, phase=world.anonymization, team=world.teams["a"], now=frozen
    ).resets_at
    seconds = math.ceil((resets_at - frozen).total_seconds())
    refused = api.submit(noisy_copy(world.original, seed=2))
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(seconds)
    body = refused.json()
    assert body["code"] == "quota_exceeded"
    assert body["retry_after"] == seconds
    assert dt.datetime.fromisoformat(body["resets_at"]) == resets_at
    client.force_login(world.users["a"])
    page = client.post(
        reverse("anonymization_upload", args=api.args),
        {"file": csv_upload(noisy_copy(world.original, seed=3))},
        HTTP_ACCEPT="application/json",
    )
    assert page.status_code == 429 and page["Retry-After"] == str(seconds)
    assert page.json()["retry_after"] == seconds


def test_total_quota_429_has_no_retry_after(make_world, client):
    world = make_world(total_limit=1)
    api = Api(client, world, "a")
    assert api.submit(noisy_copy(world.original, seed=1)).status_code == 202
    refused = api.submit(noisy_copy(world.original, seed=2))
    assert refused.status_code == 429
    assert not refused.has_header("Retry-After")
    assert refused.json() == {"code": "quota_exhausted", "message": refused.json()["message"]}
    assert "retry_after" not in refused.json()


def test_oversize_file_is_413(world, client):
    api = Api(client, world, "a")
    with override_settings(PWSCUP_MAX_UPLOAD_BYTES=100):
        refused = api.submit(noisy_copy(world.original, seed=1))
        status, message = page_refusal(client, world, "a", noisy_copy(world.original, seed=1))
    assert refused.status_code == status == 413
    assert refused.json() == {"code": "too_large", "message": message}


def test_missing_file_and_outsiders(world, client, django_user_model):
    api = Api(client, world, "a")
    url = reverse("api:submissions", args=api.args)
    missing = client.post(url, {"note": "x"}, **api.auth)
    assert missing.status_code == 400
    assert missing.json()["code"] == "invalid" and "file" in missing.json()["fields"]
    outsider = django_user_model.objects.create_user("outsider", password="pw")
    auth = {"HTTP_AUTHORIZATION": "Bearer " + api_token_create(user=outsider, name="x").secret}
    refused = client.post(url, {"file": csv_upload(world.original)}, **auth)
    assert refused.status_code == 403
    assert refused.json()["code"] == "forbidden"


def test_choosing_the_final_submission(world, client):
    api = Api(client, world, "a")
    first = scored(world, "a", seed=1)
    scored(world, "a", seed=2)
    chosen = client.post(reverse("api:submission-select", args=[*api.args, first.pk]), **api.auth)
    assert chosen.status_code == 200 and chosen.json()["is_selected"] is True
    assert AnonymizationSubmission.objects.get(pk=first.pk).is_selected
    # Another team (and the organizer, who may read it) cannot choose it.
    other = Api(client, world, "b")
    assert (
        client.post(
            reverse("api:submission-select", args=[*api.args, first.pk]), **other.auth
        ).status_code
        == 404
    )
    organizer = {
        "HTTP_AUTHORIZATION": "Bearer " + api_token_create(user=world.organizer, name="o").secret
    }
    assert (
        client.get(reverse("api:submission", args=[*api.args, first.pk]), **organizer).status_code
        == 200
    )
    assert (
        client.post(
            reverse("api:submission-select", args=[*api.args, first.pk]), **organizer
        ).status_code
        == 404
    )
    # A queued one cannot be chosen: the service's message, 400.
    queued = api.submit(noisy_copy(world.original, seed=3)).json()["id"]
    refused = client.post(reverse("api:submission-select", args=[*api.args, queued]), **api.auth)
    assert refused.status_code == 400 and refused.json()["code"] == "refused"


def test_attack_upload_against_a_published_target(world, client):
    scored(world, "a", seed=1, delete=3)
    scored(world, "b", seed=2)
    targets = freeze(world)
    api = Api(client, world, "b")
    listed = api.get("api:targets", *api.args).json()
    assert [t["team"]["slug"] for t in listed] == ["teamA"]
    published = api.get(listed[0]["anonymized_url"]).getvalue()
    assert published  # what the attacker works on
    accepted = api.attack("teamA", answer_bytes(truth_of(targets["a"])))
    assert accepted.status_code == 202, accepted.content
    attack = score_attack(AttackSubmission.objects.get(pk=accepted.json()["id"]))
    detail = api.get(accepted.json()["url"]).json()
    assert detail["status"] == "finished" and detail["target"]["slug"] == "teamA"
    assert detail["rate"] == attack.rate == 1.0
    assert [a["id"] for a in api.get("api:attacks", *api.args).json()] == [attack.pk]
    unknown = api.attack("nobody", answer_bytes(truth_of(targets["a"])))
    assert unknown.status_code == 404 and unknown.json() == {
        "code": "not_found",
        "message": "No published target of the team nobody. Name one of: teamA.",
    }


def test_the_limit_per_target_is_in_the_round_and_refuses_with_429(world, client):
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    targets = freeze(world)
    Phase.objects.filter(pk=world.attack.pk).update(target_limit=1)
    api = Api(client, world, "c")
    phases = {p["kind"]: p for p in api.get("api:round-detail", *api.args).json()["phases"]}
    assert (phases["attack"]["target_limit"], phases["anonymization"]["target_limit"]) == (1, None)
    assert api.attack("teamA", answer_bytes(truth_of(targets["a"]))).status_code == 202
    refused = api.attack("teamA", answer_bytes(truth_of(targets["a"])))
    assert refused.status_code == 429 and refused.json()["code"] == "target_quota_exhausted"
    assert "1 uploads allowed on this target" in refused.json()["message"]
    assert api.attack("teamB", answer_bytes(truth_of(targets["b"]))).status_code == 202


def test_attack_rates_follow_the_rounds_visibility_rule(make_world, client):

    world = make_world(attack_visibility=Pwscup2015Round.AttackVisibility.ON_PUBLISH)
    scored(world, "a", seed=1)
    target = freeze(world)["a"]
    api = Api(client, world, "b")
    accepted = api.attack("teamA", answer_bytes(truth_of(target)))
    score_attack(AttackSubmission.objects.get(pk=accepted.json()["id"]))
    detail = api.get(accepted.json()["url"]).json()
    assert detail["status"] == "finished"
    assert detail["rate"] is None and detail["correct"] is None
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    assert api.get(accepted.json()["url"]).json()["rate"] == 1.0


def test_attack_phase_not_open_is_403(world, client):
    scored(world, "a", seed=1)
    targets = freeze(world)
    now = timezone.now()
    phase_set(
        round=world.round,
        kind=Phase.Kind.ATTACK,
        opens_at=now + dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(hours=2),
    )
    api = Api(client, world, "b")
    refused = api.attack("teamA", answer_bytes(truth_of(targets["a"])))
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"


def documented_error_codes() -> set[str]:
    """The codes docs/api.md's *Errors* paragraph lists (each in backquotes)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    errors = text[text.index("* **Errors**") : text.index("* **Rates**")]
    return set(re.findall(r"`([a-z_]+)`", errors))


def test_a_file_sent_twice_is_refused_whole_with_a_documented_code(world, client):
    api = Api(client, world, "a")
    content = noisy_copy(world.original, seed=1)
    url = reverse("api:submissions", args=api.args)
    twice = client.post(url, {"file": [csv_upload(content), csv_upload(content)]}, **api.auth)
    assert twice.status_code == 400
    assert twice.json() == {
        "code": "parse_error",
        "message": "The request sends file more than once: send it once.",
    }
    assert not AnonymizationSubmission.objects.exists()  # nothing kept
    assert twice.json()["code"] in documented_error_codes()
