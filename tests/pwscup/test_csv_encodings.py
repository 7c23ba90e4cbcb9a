"""Text encodings through the real views: an organizer's original in Shift_JIS (CP932) is
kept as uploaded and served as a UTF-8 copy (``text/csv; charset=utf-8``) that pandas
reads; a team's Latin-1 upload fails with a message naming the encoding, in the reader's
language."""

import hashlib
import io

import pandas as pd
import pytest
from django.urls import reverse

from pwscup.competitions.models import Round
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.pwscup.factories import score
from tests.support import csv_upload

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def japanese_table() -> str:
    """40 people: age and prefecture (QI), sex, income (SA, many distinct numbers)."""
    prefectures = ["東京都", "大阪府", "京都府", "北海道"]
    rows = [
        f"{20 + k % 40},{prefectures[k % 4]},{'男性' if k % 2 else 'じょせい'},{31000 + 137 * k}"
        for k in range(40)
    ]
    return "年齢,都道府県,性別,年収\n" + "\n".join(rows) + "\n"


def _wizard(competition, step):
    return reverse(f"pwscup2015_console:wizard_{step}", args=[competition.slug])


def test_a_cp932_original_is_kept_as_uploaded_and_served_as_utf8(client, world):
    client.force_login(world.organizer)
    competition = world.competition
    uploaded = japanese_table().encode("cp932")
    post = client.post(
        _wizard(competition, "upload"), {"original": csv_upload(uploaded, "名簿.csv")}
    )
    assert post.status_code == 302
    roles = client.get(_wizard(competition, "roles")).context["form"].initial
    assert client.post(_wizard(competition, "roles"), {k: v for k, v in roles.items() if v})
    client.post(_wizard(competition, "data"), {"data_mode": "shared"})
    phases = {
        "name": "Round JP",
        "slug": "jp",
        "timezone": "Asia/Tokyo",
        "anonymization_opens_at": "2030-01-10T09:00",
        "anonymization_closes_at": "2030-01-20T18:00",
        "attack_opens_at": "2030-01-21T09:00",
        "attack_closes_at": "2030-01-31T18:00",
    }
    assert client.post(_wizard(competition, "phases"), phases).status_code == 302
    rules = {
        "tie_break_metric": "U1",
        "ranking_rule": "worst_attack",
        "selection_rule": "selected_or_last",
        "attack_visibility": "live",
    }
    assert client.post(_wizard(competition, "rules"), rules).status_code == 302
    assert client.post(_wizard(competition, "review")).status_code == 302
    round_ = Round.objects.get(competition=competition, slug="jp")

    # The upload is kept byte for byte; the round holds (and hashes) the UTF-8 copy.
    with round_.original_source.open("rb") as handle:
        kept = handle.read()
    assert hashlib.sha256(kept).hexdigest() == hashlib.sha256(uploaded).hexdigest()
    assert round_.original_encoding == "cp932"
    assert round_.original_sha256 == hashlib.sha256(japanese_table().encode()).hexdigest()
    console = client.get(reverse("console:round", args=[competition.slug, "jp"]))
    assert "converted from Shift_JIS (CP932) to UTF-8" in console.content.decode()

    download = client.get(reverse("original_download", args=[competition.slug, "jp"]))
    assert download.status_code == 200
    assert download["Content-Type"] == "text/csv; charset=utf-8"
    served = b"".join(download.streaming_content)
    assert served == japanese_table().encode("utf-8")
    table = pd.read_csv(io.BytesIO(served))
    assert list(table.columns) == ["年齢", "都道府県", "性別", "年収"]
    assert table["都道府県"].iloc[0] == "東京都"


def test_the_shared_original_and_a_teams_own_upload_are_served_as_utf8(client, world):
    client.force_login(world.users["a"])
    download = client.get(world.round_url() + "original.csv")
    assert download.status_code == 200, download
    assert download["Content-Type"] == "text/csv; charset=utf-8"


def test_a_latin1_original_with_an_unsure_encoding_is_refused_at_the_wizard(client, world):
    client.force_login(world.organizer)
    response = client.post(
        _wizard(world.competition, "upload"),
        {"original": csv_upload("name,n\néa,1\nb,2\n".encode("latin-1"), "x.csv")},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 200
    (error,) = response.context["form"].errors["original"]
    assert "文字コードを確定できません" in error and "「CSV UTF-8（コンマ区切り）」" in error


def test_a_teams_latin1_upload_fails_naming_the_encoding(client, world):
    client.force_login(world.users["a"])
    text = world.original.decode().replace("United-States", "Montréal-Québec")
    assert text != world.original.decode()
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    response = client.post(
        url, {"file": csv_upload(text.encode("latin-1"), "anonymized.csv")}, **JSON
    )
    assert response.status_code == 202, response.content
    submission = score(AnonymizationSubmission.objects.get(pk=response.json()["id"]))
    assert submission.status == Status.FAILED
    assert submission.message_code == "table.encoding"
    assert "it looks like Windows-1252 (Latin-1)" in submission.message
    assert "(byte offset " in submission.message
    status = reverse("status_json", args=[world.competition.slug, world.round.slug])
    (shown,) = [
        s["message"]
        for s in client.get(status, HTTP_ACCEPT_LANGUAGE="ja").json()["submissions"]
        if s["id"] == submission.pk
    ]
    assert "UTF-8 ではありません（Windows-1252 (Latin-1) のようです）" in shown
