"""Every API error answer is in the caller's language (Accept-Language ja or en), the whole
message: a 404 of a competition, round or upload that does not exist (Django's English
"No Competition matches the given query." and "No such round." were passed through), a 429
of the request rate (DRF's wait sentence was English after the Japanese "throttled"), and
DRF's own field errors (its Japanese catalogue lacks "Not a valid string." and others)."""

import json

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.core.rest_messages import DRF_MESSAGES
from tests.pwscup.scorer_world import scorer_world

pytestmark = pytest.mark.django_db

NOT_FOUND = {"en": "Not found.", "ja": "見つかりませんでした。"}


@pytest.fixture
def world():
    return scorer_world(slug="lang", build=False)


@pytest.fixture
def headers(world) -> dict:
    token = api_token_create(user=world.users["a"], name="t").secret
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def missing_urls(world) -> dict:
    args = [world.competition.slug, world.round.slug]
    return {
        "competition": reverse("api:competition-detail", args=["nope"]),
        "standings": reverse("api:competition-standings", args=["nope"]),
        "round": reverse("api:round-status", args=[world.competition.slug, "nope"]),
        "upload": reverse("api:scorer-release", args=[*args, 999999]),
    }


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("name", ["competition", "standings", "round", "upload"])
def test_a_thing_that_does_not_exist_is_not_found_in_the_caller_s_language(
    world, headers, name, language
):
    url = missing_urls(world)[name]
    answer = Client().get(url, HTTP_ACCEPT_LANGUAGE=language, **headers)
    assert answer.status_code == 404
    body = answer.json()
    assert body["code"] == "not_found"
    assert "matches the given query" not in body["message"]
    if name == "round":
        assert (
            body["message"]
            == {"en": "No such round.", "ja": "そのラウンドはありません。"}[language]
        )
    else:
        assert body["message"] == NOT_FOUND[language]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Too many requests; try again in 60 seconds."),
        ("ja", "リクエストが多すぎます。60 秒後にもう一度お試しください。"),
    ],
)
def test_a_request_over_the_rate_is_refused_wholly_in_the_caller_s_language(
    world, headers, language, expected
):
    url = reverse("api:competitions")
    rates = {"anon": "1000/min", "user": "1000/min", "token": "1/min"}
    with override_settings(PWSCUP_API_THROTTLE_RATES=rates):
        assert Client().get(url, HTTP_ACCEPT_LANGUAGE=language, **headers).status_code == 200
        refused = Client().get(url, HTTP_ACCEPT_LANGUAGE=language, **headers)
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60
    assert refused.json() == {"code": "throttled", "message": expected.replace("60", str(wait))}


@pytest.mark.parametrize(
    ("body", "language", "expected"),
    [
        ({"choice": ["bank"]}, "ja", "choice: 文字列を入力してください。"),
        ({"choice": ["bank"]}, "en", "choice: Not a valid string."),
        ({}, "ja", "choice: この項目は必須です。"),
        ({"choice": None}, "ja", "choice: この項目はnullにできません。"),
        (
            {"choice": "x" * 65},
            "ja",
            "choice: この項目が64文字より長くならないようにしてください。",
        ),
    ],
)
def test_drf_s_field_errors_are_in_the_caller_s_language(world, headers, body, language, expected):
    url = reverse("api:round-data-choice", args=[world.competition.slug, world.round.slug])
    answer = Client().post(
        url,
        json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
        **headers,
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert answer.json()["message"] == expected


def test_the_drf_messages_our_catalogue_adds_are_japanese():
    """Each of DRF's messages missing from its own Japanese catalogue (the common field
    errors our serializers can give: not a string, not a boolean, …) reads in Japanese."""
    from django.utils import translation
    from rest_framework import fields, serializers

    assert DRF_MESSAGES
    with translation.override("ja"):
        english = [m for m in DRF_MESSAGES if translation.gettext(m) == m]
        boolean = fields.BooleanField().error_messages["invalid"]
        assert str(boolean) == "真偽値（true または false）を入力してください。"
        assert (
            str(serializers.CharField().error_messages["invalid"]) == "文字列を入力してください。"
        )
    assert not english


def test_django_s_wrong_japanese_is_corrected_by_our_catalogue():
    """Django's ``ja`` catalogue says 「何か文字を入力してください。」 ("enter some characters")
    for a NUL character; a form's text field refuses one with our words instead."""
    from django import forms
    from django.utils import translation

    from pwscup.core.rest_messages import DJANGO_MESSAGES

    class NameForm(forms.Form):
        name = forms.CharField()

    with translation.override("ja"):
        form = NameForm(data={"name": "a\x00b"})
        assert not form.is_valid()
        assert form.errors["name"] == ["NUL 文字（コード 0 の制御文字）は使えません。"]
        assert all(translation.gettext(m) != m for m in DJANGO_MESSAGES)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_another_team_s_release_is_answered_as_one_that_does_not_exist(language):
    # Its 404 said "No such release." (in English whatever the language) where a release
    # that never was says "Not found.": the answer told that it exists.
    from tests.pwscup.seq_web_world import fixture, publish, seq_world

    world = seq_world(slug="langseq", letters="ab")
    theirs = publish(world, "b", 1, fixture("zhang_release_1.csv"))
    token = api_token_create(user=world.users["a"], name="t").secret
    base = f"/api/v1/competitions/{world.competition.slug}/rounds/{world.round.slug}/seq"
    answers = [
        Client().get(
            f"{base}/{path}",
            HTTP_ACCEPT_LANGUAGE=language,
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        for path in (
            f"releases/{theirs.pk}/",
            "releases/999999/",
            f"releases/{theirs.pk}/release.csv",
        )
    ]
    assert [answer.status_code for answer in answers] == [404, 404, 404]
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert answers[0].json() == {"code": "not_found", "message": NOT_FOUND[language]}
    # Before the attack phase, a target's file: the reason, in the caller's language.
    early = Client().get(
        f"{base}/targets/teamB/release_1.csv",
        HTTP_ACCEPT_LANGUAGE=language,
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert early.status_code == 404
    assert (
        early.json()["message"]
        == {
            "en": "The attack phase is not open.",
            "ja": "攻撃フェーズは開いていません。",
        }[language]
    )
