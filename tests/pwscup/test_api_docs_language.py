"""The API's documentation in the reader's language: the OpenAPI schema rendered in Japanese
(``?lang=ja``) or English, /api/docs/ following the reader's language (Accept-Language, the
language cookie) unless ``?lang=`` picks one, and every text of the schema translated."""

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# A text that names something rather than says something: a code span, a key, a path.
IDENTIFIER = re.compile(r"^[`*\w./:{}<>#…-]+$")
TEXT_KEYS = ("summary", "description", "title")


def schema(client, lang: str | None = None, **headers) -> dict:
    query = "?format=json" + (f"&lang={lang}" if lang else "")
    answer = client.get(reverse("api:schema") + query, **headers)
    assert answer.status_code == 200
    return answer.json()


def texts(node, path: str = "") -> dict[str, str]:
    """Every human text of a schema by its place: the info, operations (summary, description,
    parameters, responses, request bodies) and components (their fields' help). An enum's own
    description is left out: drf-spectacular writes it from the choices (their values)."""
    found = {}
    if isinstance(node, dict):
        if "enum" in node and path.startswith("/components/schemas/") and path.count("/") == 3:
            return found
        for key, value in node.items():
            place = f"{path}/{key}"
            if key in TEXT_KEYS and isinstance(value, str):
                found[place] = value
            else:
                found.update(texts(value, place))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.update(texts(value, f"{path}[{index}]"))
    return found


# The lines drf-spectacular adds for a choice field's values ("* `count` - count").
CHOICE_LINE = re.compile(r"^\* `(\w+)` - \1$", re.M)


def needs_words(text: str) -> bool:
    words = CHOICE_LINE.sub("", text).strip()
    return bool(words) and not IDENTIFIER.match(words)


def me_summary(document: dict) -> str:
    return document["paths"]["/api/v1/me/"]["get"]["summary"]


def test_the_japanese_schema_has_japanese_summaries_and_title(client):
    document = schema(client, "ja")
    assert JAPANESE.search(document["info"]["title"])
    assert JAPANESE.search(document["info"]["description"])
    assert "`Authorization: Bearer pws_...`" in document["info"]["description"]
    assert JAPANESE.search(me_summary(document))
    summaries = [op["summary"] for item in document["paths"].values() for op in item.values()]
    assert summaries and all(JAPANESE.search(s) for s in summaries), summaries


def test_the_english_schema_keeps_its_text(client):
    for document in (schema(client, "en"), schema(client, HTTP_ACCEPT_LANGUAGE="en")):
        assert document["info"]["title"] == "PWSCup platform API"
        assert document["info"]["description"].startswith("Competitions, rounds, uploads")
        assert me_summary(document) == "Who the caller is"
        assert not any(JAPANESE.search(text) for text in texts(document).values())


def test_the_schema_without_lang_follows_accept_language(client):
    assert JAPANESE.search(me_summary(schema(client, HTTP_ACCEPT_LANGUAGE="ja")))


def test_every_text_of_the_schema_has_a_japanese_translation(client):
    """Keeps new endpoints honest: a summary, description or field help written in English
    only (not wrapped in gettext_lazy, or missing from locale/ja) fails here."""
    english, japanese = texts(schema(client, "en")), texts(schema(client, "ja"))
    assert english.keys() == japanese.keys()
    assert len([t for t in english.values() if needs_words(t)]) > 100
    untranslated = {
        place: text
        for place, text in english.items()
        if needs_words(text) and japanese[place] == text
    }
    assert not untranslated, "\n".join(f"{p}: {t}" for p, t in sorted(untranslated.items()))


def script_of(client, page_url: str, **headers) -> tuple[str, str]:
    """The docs page's ``<html lang>`` and the schema address its start-up script loads."""
    page = client.get(page_url, **headers)
    assert page.status_code == 200
    html = page.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    lang = re.search(r'<html lang="([^"]+)"', html).group(1)
    script_url = re.search(r'<script src="([^"]*script=[^"]*)"', html).group(1)
    script = client.get(script_url.replace("&amp;", "&"), **headers)
    assert script["Content-Type"].startswith("application/javascript")
    # The address as the script's string literal (escapejs: "\u003D" for "=").
    literal = re.search(r'url: "([^"]*/api/schema/[^"]*)"', script.content.decode())
    return lang, json.loads(f'"{literal.group(1)}"')


def test_the_docs_page_follows_a_japanese_reader(client):
    lang, schema_url = script_of(client, reverse("api:docs"), HTTP_ACCEPT_LANGUAGE="ja")
    assert lang == "ja"
    assert "lang=ja" in schema_url
    # The schema it loads is Japanese even for a request without the reader's headers.
    assert JAPANESE.search(me_summary(client.get(schema_url + "&format=json").json()))


def test_the_docs_page_follows_the_language_cookie(client):
    client.cookies["django_language"] = "ja"
    lang, schema_url = script_of(client, reverse("api:docs"))
    assert (lang, "lang=ja" in schema_url) == ("ja", True)


def test_an_explicit_lang_wins_over_the_reader_s_language(client):
    lang, schema_url = script_of(
        client, reverse("api:docs") + "?lang=en", HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert (lang, "lang=en" in schema_url) == ("en", True)
    lang, schema_url = script_of(
        client, reverse("api:docs") + "?lang=ja", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert (lang, "lang=ja" in schema_url) == ("ja", True)


def test_an_unknown_lang_falls_back_to_the_reader_s_language(client):
    answer = client.get(reverse("api:docs") + "?lang=xx", HTTP_ACCEPT_LANGUAGE="ja")
    assert (answer.status_code, answer["Location"]) == (302, reverse("api:docs"))
    lang, schema_url = script_of(client, answer["Location"], HTTP_ACCEPT_LANGUAGE="ja")
    assert (lang, "lang=ja" in schema_url) == ("ja", True)


def test_the_docs_page_s_title_is_in_the_reader_s_language(client):
    english = client.get(reverse("api:docs"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    japanese = client.get(reverse("api:docs"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "<title>PWSCup platform API</title>" in english
    assert JAPANESE.search(re.search(r"<title>(.*)</title>", japanese).group(1))


API_MANUAL = Path(__file__).resolve().parents[2] / "docs" / "api.md"
# Where docs/api.md's tables list the endpoints under a round, by the kind's path prefix: the
# text each part starts with and the text that ends it (``None``: the page's end).
MANUAL_PARTS = {
    "": ("The 2015 game's own endpoints", "The DP round's"),
    "dp/": ("The DP round's", "The sequential round's"),
    "seq/": ("The sequential round's", "The synthetic round's"),
    "syn/": ("The synthetic round's", "* **Errors**"),
    "scorer/": ("### The scorer round", None),
}
# Every kind's: who I am, the competitions, and a round's status, standings and data pick.
CORE_PART = ("* **Every kind of round**", "The 2015 game's own endpoints")
CORE_ROUND_ENDPOINTS = ("status/", "standings/", "data-choice/")
ROUND = "/api/v1/competitions/{competition_slug}/rounds/{round_slug}/"
PARAMETER = re.compile(r"\{[^}]*\}")


def manual_part(start: str, end: str | None) -> str:
    text = API_MANUAL.read_text(encoding="utf-8")
    part = text[text.index(start) :]
    return PARAMETER.sub("{}", part[: part.index(end)] if end else part)


def last_named_segment(path: str) -> str:
    """The endpoint's own name: its path's last segment that is not only a parameter
    (``dp_config.json``, ``T{}.csv``, ``withdraw``; ``rounds`` for a round itself)."""
    segments = [s for s in path.split("/") if s and not re.fullmatch(r"\{[^}]*\}", s)]
    return PARAMETER.sub("{}", segments[-1])


def test_every_endpoint_of_the_schema_is_in_the_manual_s_tables(client):
    """docs/api.md lists every endpoint a script may call, in the table of its part: a new
    endpoint (or one the manual forgot) is named here."""
    missing = []
    for path in schema(client, "en")["paths"]:
        tail = path.removeprefix(ROUND) if path.startswith(ROUND) else None
        if tail is None or tail in CORE_ROUND_ENDPOINTS:
            part = CORE_PART
        else:
            prefix = next((p for p in MANUAL_PARTS if p and tail.startswith(p)), "")
            part = MANUAL_PARTS[prefix]
        if last_named_segment(path) not in manual_part(*part):
            missing.append(path)
    assert not missing, missing
