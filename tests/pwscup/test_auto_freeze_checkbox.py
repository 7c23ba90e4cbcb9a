"""The automatic freeze's setting on the console's forms (the scorer and synthetic creation
forms, *Dates and limits*) is a checkbox with its sentence after it, as the site's other
checkboxes: ``<label><input type="checkbox"> Freeze the releases …</label>``, without the
colon Django puts after a field's label. The creation forms' note on the windows says the
releases can also freeze by themselves at the release phase's close. In both languages."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.pwscup import scorer_world as sco
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.syn_world import adult_rows

pytestmark = pytest.mark.django_db

NOTE = {
    "en": "or automatically at the release phase's close",
    "ja": "開示フェーズの締切で自動的に",
}


def _label(language: str) -> str:
    """The setting's name as the forms label it (``capfirst`` of the field's name)."""
    from django.utils import translation

    from pwscup.submissions.models import AutoFreezeRow

    with translation.override(language):
        name = str(AutoFreezeRow._meta.get_field("auto_freeze").verbose_name)
    return name[:1].upper() + name[1:]


def _checkbox_label(page: str) -> str:
    """The text of the label wrapping the ``auto_freeze`` checkbox ("" when it wraps none)."""
    found = re.search(
        r'<label[^>]*for="id_auto_freeze"[^>]*>\s*<input type="checkbox" name="auto_freeze"'
        r"[^>]*>(.*?)</label>",
        page,
        re.S,
    )
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).split()) if found else ""


def _pages(world, organizer) -> dict:
    """The three pages with the setting, per language."""
    scorer = sco.scorer_world(slug="afcb", letters="a", build=False)
    pages = {}
    for language in ("en", "ja"):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(organizer)
        create = reverse("scorer_console:create", args=[world.competition.slug])
        pages[language, "scorer"] = client.get(create).content.decode()
        upload = reverse("synthetic_console:create", args=[world.competition.slug])
        post_as_rendered(
            client, upload, "syn-create-upload", {"original": ("adult.csv", adult_rows(300))}
        )
        settings = reverse("synthetic_console:settings", args=[world.competition.slug])
        pages[language, "synthetic"] = client.get(settings).content.decode()
        scorer_client = Client(HTTP_ACCEPT_LANGUAGE=language)
        scorer_client.force_login(scorer.organizer)
        dates = reverse("console:round_phases", args=[scorer.competition.slug, scorer.round.slug])
        pages[language, "dates"] = scorer_client.get(dates).content.decode()
    return pages


def test_the_setting_is_a_checkbox_with_its_sentence_after_it(world):
    pages = _pages(world, world.organizer)
    for (language, name), page in pages.items():
        label = _label(language)
        assert _checkbox_label(page) == label, (language, name)
        assert f"{label}:" not in page and f"{label}：" not in page, (language, name)
        if name != "dates":  # the creation forms' note on the windows
            assert NOTE[language] in html.unescape(page), (language, name)
