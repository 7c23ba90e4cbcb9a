"""The Japanese catalogue is complete and its compiled .mo matches the .po."""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation

LOCALE = Path(__file__).resolve().parents[2] / "locale"
PO = LOCALE / "ja" / "LC_MESSAGES" / "django.po"
MO = LOCALE / "ja" / "LC_MESSAGES" / "django.mo"
ENTRY = re.compile(
    r'^(#, [^\n]*\n)?(msgctxt[^\n]*\n(?:"[^\n]*"\n)*)?msgid ((?:"[^\n]*"\n)+)msgstr ((?:"[^\n]*"\n)+)',
    re.M,
)


def _joined(block: str) -> str:
    return "".join(ast.literal_eval(line) for line in block.strip().splitlines())


def po_entries() -> dict[str, tuple[str, str]]:
    text = PO.read_text(encoding="utf-8")
    return {
        _joined(m.group(3)): (_joined(m.group(4)), m.group(1) or "")
        for m in ENTRY.finditer(text)
        if _joined(m.group(3))
    }


def test_every_message_is_translated_and_not_fuzzy():
    entries = po_entries()
    assert len(entries) > 150
    missing = [msgid for msgid, (msgstr, _) in entries.items() if not msgstr]
    fuzzy = [msgid for msgid, (_, flags) in entries.items() if "fuzzy" in flags]
    assert not missing, missing
    assert not fuzzy, fuzzy


def test_compiled_catalogue_matches_the_source():
    with open(MO, "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = [
        msgid for msgid, (msgstr, _) in po_entries().items() if compiled.gettext(msgid) != msgstr
    ]
    assert not stale, f"run compilemessages: {stale[:5]}"


@pytest.mark.parametrize(
    ("english", "japanese_fragment"),
    [("Leaderboard", "リーダーボード"), ("Anonymization phase", "匿名加工")],
)
def test_django_serves_the_japanese_catalogue(english, japanese_fragment):
    with translation.override("ja"):
        assert japanese_fragment in translation.gettext(english)
