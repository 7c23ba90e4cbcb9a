"""The one rule for a text an organizer gives in English and Japanese
(``pwscup.core.languages``) and the labels that read it."""

import doctest
import re

from django.conf import settings
from django.utils import translation

from pwscup.competitions.choice_models import DataChoice
from pwscup.core import languages
from scoring.scorer.round_config import ScoreColumn


def test_the_module_examples():
    result = doctest.testmod(languages)
    assert result.attempted > 0 and result.failed == 0


def test_a_regional_japanese_reads_japanese():
    with translation.override("ja-jp"):
        assert languages.reads_japanese()
    with translation.override("en"):
        assert not languages.reads_japanese()


def test_a_data_pack_and_a_score_column_follow_the_rule():
    from pwscup.scorer.api.common import column_label

    pack = DataChoice(key="a", label="Adult", label_ja="成人")
    bare = DataChoice(key="b", label="Census", label_ja="")
    column = ScoreColumn(key="u", label="Utility", label_ja="有用性", higher_is_better=True)
    with translation.override("ja"):
        assert (pack.label_shown, bare.label_shown, column_label(column)) == (
            "成人",
            "Census",
            "有用性",
        )
    with translation.override("en"):
        assert (pack.label_shown, column_label(column)) == ("Adult", "Utility")


def test_a_page_spaces_its_sentences_in_english_only(client):
    """``{% sentence_gap %}`` between a sentence and what follows it: the password-reset page
    once done, as a visitor reads it in each language."""
    from django.urls import reverse

    url = reverse("password_reset_complete")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    japanese = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "Your new password is set. <a " in english
    assert "。<a " in japanese and "。 <a " not in japanese


# A translated sentence, then a space (or a line break inside the same paragraph), then
# more of the paragraph: in Japanese the space stands after "。". ``{% sentence_gap %}``
# writes it in English only. (A text e-mail's line break is a line break: not checked.)
SPACED_SENTENCE = re.compile(
    r"""(?:\{%\s*(?:translate|trans)\s+"[^"]*[.!?]"[^%]*%\}|[.!?]\{%\s*endblocktranslate\s*%\})"""
    r"""(?: +(?:\{%|<a )|\s*\n\s*(?:\{%\s*(?:translate|blocktranslate)\b|<a |<span|<strong))"""
)


def test_no_template_spaces_a_sentence_from_the_next_by_hand():
    roots = [settings.BASE_DIR / "templates", *(settings.BASE_DIR / "pwscup").glob("*/templates")]
    found = [
        f"{path.relative_to(settings.BASE_DIR)}:{text[: match.start()].count(chr(10)) + 1}"
        for root in roots
        for path in sorted(root.glob("**/*.html"))
        if not path.name.endswith("_email.html")
        for text in [path.read_text(encoding="utf-8")]
        for match in SPACED_SENTENCE.finditer(text)
    ]
    assert found == [], "use {% sentence_gap %} between sentences: " + ", ".join(found)
