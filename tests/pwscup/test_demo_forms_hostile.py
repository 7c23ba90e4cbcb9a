"""Every form of the demo, posted with hostile values, answers without a 500.

The demo (``load_demo``: every kind's rounds, their teams and uploads) is crawled as its
organizer (a non-superuser: the console, the round pages, the admin pages it may open) and
as its administrator (a superuser: one add page and one change page of every admin model).
Each distinct form found (its address with the numbers left out, and its fields' names) is
posted once as the page renders it, with every field a person types into holding a hostile
value instead: numbers past every column's range, ``NaN`` and ``1e309``, a JSON text nested
5,000 deep, full-width digits, a NUL, impossible dates, 5,000 characters, markup; a select
holding a value none of its options has; a file input an undecodable file; the formsets'
row counts too. Each answer is a page, a redirect or a refusal (4xx), never a server error:
the test client raises the view's exception, so a failure shows its traceback.

Two 500s were found this way and fixed (the console's standings with a row count that is not
the rounds', the sequential round admin's closes that are not a list of times).

Only forms with a field a person types into are posted: a form of buttons alone (freeze,
publish) takes no input to be hostile with, and would start the operation it names.
"""

import re
from urllib.parse import urljoin, urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.pwscup.rendered_forms import FormParser

pytestmark = pytest.mark.usefixtures("demo_loaded")

HOSTILE = (
    "99999999999999999999",
    "1e309",
    "NaN",
    "[" * 5000,
    '{"a": [1, {"b": NaN}]}',
    "-1",
    "１２３",
    "2026-13-45T25:61",
    "a\x00b",
    "x" * 5000,
    "'\"<script>",
    "null",
    "[]",
    "1" * 400,
)
TYPED = {
    "text",
    "number",
    "textarea",
    "email",
    "url",
    "search",
    "date",
    "datetime-local",
    "time",
    "password",
}
SKIPPED_ACTION = re.compile(r"logout|/i18n/")
NOT_PAGES = re.compile(
    r"\.(csv|zip|json|pdf|png|svg|txt|whl)\b|/file\b|download|format=|/static/|/media/"
    r"|/api/|lang=|logout|/i18n/|/history/|/delete/"
)


def _pages(client, start: list[str], keep, limit: int):
    """Pages reachable from ``start`` by links ``keep`` accepts, read as the client; yields
    each page's address and HTML. A path is read once, whatever its numbers (one object's
    page stands for its model's) and its query (a list's filters and orders)."""
    seen, queue = set(), list(start)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        key = re.sub(r"\d+", "N", urlsplit(url).path)
        if key in seen:
            continue
        seen.add(key)
        response = client.get(url)
        assert response.status_code < 500, url
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        yield url, html
        for href in re.findall(r'href="([^"#]+)', html):
            target = urljoin(url, href.replace("&amp;", "&"))
            parts = urlsplit(target)
            if not parts.netloc and keep(target) and not NOT_PAGES.search(target):
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))


def _post_forms(client, pages) -> set:
    """Post each distinct form of ``pages`` once with hostile values; the forms posted."""
    posted = set()
    for url, html in pages:
        parser = FormParser()
        parser.feed(html)
        for form in parser.forms:
            attrs, fields = form["attrs"], form["fields"]
            action = urljoin(url, attrs.get("action") or url)
            if (attrs.get("method") or "get").lower() != "post" or SKIPPED_ACTION.search(action):
                continue
            if not any(f["type"] in TYPED or f["type"] == "file" for f in fields):
                continue
            key = (re.sub(r"\d+", "N", action), tuple(sorted(f["name"] for f in fields)))
            if key in posted:
                continue
            posted.add(key)
            response = client.post(action, _hostile(fields, offset=len(posted)))
            assert response.status_code < 500, (action, response.status_code)
    return posted


def _hostile(fields: list[dict], *, offset: int) -> dict:
    data: dict[str, list] = {}
    for index, field in enumerate(fields):
        values = data.setdefault(field["name"], [])
        hostile = HOSTILE[(index + offset) % len(HOSTILE)]
        kind = field["type"]
        if field["name"] == "csrfmiddlewaretoken":
            continue
        if kind in TYPED or (kind == "hidden" and field["name"].endswith("_FORMS")):
            values.append(hostile)
        elif kind == "hidden":
            values.append(field["value"])
        elif kind == "select":
            values.append(hostile)
        elif kind in ("checkbox", "radio"):
            if field["checked"]:
                values.append(field["value"])
        elif kind == "file":
            values.append(SimpleUploadedFile("hostile.csv", b"\xff\xfe\x00\x81junk,\n" * 50))
    return {name: values for name, values in data.items() if values}


def _as(username: str) -> Client:
    from django.contrib.auth import get_user_model

    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_the_organizer_s_forms_answer_hostile_values_without_a_500(db):
    client = _as("organizer")
    pages = _pages(
        client,
        ["/console/", "/c/demo/", "/admin/"],
        keep=lambda url: url.startswith(("/console/", "/c/demo/", "/admin/")),
        limit=400,
    )
    posted = _post_forms(client, pages)
    actions = {action for action, _fields in posted}
    # The crawl reached the console's and the rounds' forms of every kind, and the admin's.
    assert len(posted) >= 40, sorted(actions)
    assert any("/standings/" in action for action in actions), sorted(actions)
    assert any(action.startswith("/admin/") for action in actions), sorted(actions)


def test_the_administrator_s_admin_forms_answer_hostile_values_without_a_500(db):
    client = _as("admin")
    # Each model's list, its add page and one object's change page.
    model_page = re.compile(r"^/admin/\w+/\w+/((add|\d+/change)/)?$")
    pages = _pages(
        client, ["/admin/"], keep=lambda url: bool(model_page.match(urlsplit(url).path)), limit=400
    )
    posted = _post_forms(client, pages)
    actions = {action for action, _fields in posted}
    assert any("sequentialround" in action for action in actions), sorted(actions)
    assert len(posted) >= 10, sorted(actions)
