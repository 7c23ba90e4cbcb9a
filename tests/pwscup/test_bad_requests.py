"""Requests Django refuses before a view reads them (pwscup/core/error_views.py): a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE``, more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields, a file
name too long for Django's multipart reader. An API client gets the API's ``{code, message}``
in its language, a browser the site's 400 page in the page's language; nothing is stored."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.dp.models import Charge, Estimate
from tests.pwscup.dp_world import build_dp_world, toy_csv


@pytest.fixture
def world(db):
    return build_dp_world(slug="dpbad")


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def api(world, name: str) -> str:
    return reverse(
        f"api:{name}",
        kwargs={
            "competition_slug": world.competition.slug,
            "round_slug": world.round.slug,
            "level": "eps-1",
        },
    )


def multipart(filename: str, content: bytes) -> tuple[bytes, str]:
    """A multipart body with one ``file`` part named ``filename``, as a browser or ``curl -F``
    sends it (Django's test client would cut the name to 255 characters first)."""
    boundary = "pwscupboundary"
    body = (
        (
            f"--{boundary}\r\n"
            f'Content-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            "Content-Type: text/csv\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, f"multipart/form-data; boundary={boundary}"


def test_a_json_body_over_the_limit_is_the_apis_400_in_the_callers_language(world):
    declaration = json.dumps({"groups": [{"attributes": ["gender"], "rho": "x" * 6_000_000}]})
    for language, message in [
        ("en", "The request is too large: this site reads at most 5.0\xa0MB"),
        ("ja", "リクエストが大きすぎます。このサイトが 1 回のリクエストで読むフォームの項目"),
    ]:
        response = Client().post(
            api(world, "dp-releases"),
            declaration,
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
            **bearer(world.users["a"]),
        )
        assert response.status_code == 400, response.content
        assert response["Content-Type"] == "application/json"
        body = response.json()
        assert body["code"] == "request_too_large"
        assert body["message"].startswith(message), body["message"]
    assert not Charge.objects.exists()


def test_too_many_fields_is_the_apis_400(world):
    response = Client().post(
        api(world, "dp-level-estimates"),
        {f"field{i}": "1" for i in range(10_100)},
        HTTP_ACCEPT_LANGUAGE="en",
        **bearer(world.users["a"]),
    )
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "too_many_fields"
    assert body["message"].startswith("The form sent more than 10,000 fields")


def test_a_file_name_too_long_to_read_is_refused_with_nothing_stored(world):
    body, content_type = multipart("a" * 1100 + ".csv", toy_csv())
    response = Client().post(
        api(world, "dp-level-estimates"),
        body,
        content_type=content_type,
        HTTP_ACCEPT_LANGUAGE="ja",
        **bearer(world.users["a"]),
    )
    assert response.status_code == 400, response.content
    error = response.json()
    assert error["code"] == "malformed_upload"
    assert "ファイル名が長すぎます" in error["message"]
    assert not Estimate.objects.exists()
    # A long name Django can read (255 characters at most are kept) is an ordinary upload.
    body, content_type = multipart("b" * 600 + ".csv", toy_csv())
    accepted = Client().post(
        api(world, "dp-level-estimates"),
        body,
        content_type=content_type,
        **bearer(world.users["a"]),
    )
    assert accepted.status_code == 202, accepted.content
    assert len(Estimate.objects.get().original_filename) == 255


def organizer_client(world) -> Client:
    """The organizer's browser: CSRF checked as for a real one (Django's CSRF check is what
    reads a posted form first)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.organizer)
    client.get(reverse("pwscup2015_console:wizard_upload", args=[world.competition.slug]))
    return client


def test_a_form_posted_with_a_stale_csrf_token_gets_the_sites_page_in_japanese(world):
    """Logging in in another tab renews the CSRF token: a form left open is then refused.
    The reader gets the site's 403 page saying what to do, not Django's bare page (which
    names DEBUG=True); an API client the API's error format."""
    client = organizer_client(world)
    wizard = reverse("pwscup2015_console:wizard_upload", args=[world.competition.slug])
    stale = {"csrfmiddlewaretoken": "x" * 64}
    page = client.post(wizard, stale, HTTP_ACCEPT_LANGUAGE="ja")
    html = page.content.decode()
    assert page.status_code == 403 and 'data-testid="error-403"' in html
    assert "ページを再読み込みして、もう一度送信してください。" in html
    assert "<h1>アクセスできません</h1>" in html  # the refusal pages' own title
    assert "DEBUG" not in html and "CSRF" not in html
    answer = client.post(wizard, stale, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 403 and answer.json()["code"] == "csrf_failed"
    assert "Reload the page and send the form again." in answer.json()["message"]


def test_the_wizards_roles_form_of_a_wide_table_is_read(world):
    # 600 columns: the roles form sends about 1,200 boxes (Django's default limit: 1,000).
    columns = [f"c{i}" for i in range(599)]
    rows = [
        ",".join(["a" if (r + i) % 2 else "b" for i in range(599)] + [f"{r}.5"]) for r in range(30)
    ]
    table = ",".join([*columns, "income"]) + "\n" + "\n".join(rows) + "\n"
    client = organizer_client(world)
    token = client.cookies["csrftoken"].value
    wizard = reverse("pwscup2015_console:wizard_upload", args=[world.competition.slug])
    original = SimpleUploadedFile("wide.csv", table.encode())
    uploaded = client.post(wizard, {"original": original, "csrfmiddlewaretoken": token})
    assert uploaded.status_code == 302, uploaded.content[:2000]
    roles = {
        "qi": columns,
        "match_qi": columns,
        "cross": columns[:4],
        "sa": ["income"],
        "euc_sa": ["income"],
        "number_domain": ["income"],
        "e2_column": "income",
        "e4_column": "income",
        "csrfmiddlewaretoken": token,
    }
    assert sum(len(v) if isinstance(v, list) else 1 for v in roles.values()) > 1_000
    response = client.post(
        reverse("pwscup2015_console:wizard_roles", args=[world.competition.slug]), roles
    )
    assert response.status_code == 302, response.content[:2000]
    assert response["Location"].endswith("/data/")


def test_a_browser_gets_the_400_page_in_its_language(world):
    client = organizer_client(world)
    wizard = reverse("pwscup2015_console:wizard_roles", args=[world.competition.slug])
    boxes = {"qi": [f"c{i}" for i in range(10_100)]}
    boxes["csrfmiddlewaretoken"] = client.cookies["csrftoken"].value
    response = client.post(wizard, boxes, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 400
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = response.content.decode()
    assert '<html lang="ja">' in page
    assert "フォームの項目が 10,000 個を超えました" in page
    assert "コンペティションのバンドルでインポートしてください" in page  # what to do instead
    assert "Bad Request (400)" not in page


def test_a_json_client_outside_the_api_gets_json(world):
    response = Client().post(
        reverse("login"),
        {f"field{i}": "1" for i in range(10_100)},
        HTTP_ACCEPT="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "too_many_fields"
