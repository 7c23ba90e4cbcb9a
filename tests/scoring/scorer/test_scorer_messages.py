"""The scorer's message codes: each one used by scoring/scorer/ is in the catalogue with both
languages and the same placeholders, and each one in the catalogue is used."""

import re
from pathlib import Path

import scoring.scorer
from scoring.catalogues.scorer import SCORER_MESSAGES
from scoring.messages import placeholders

CODE = re.compile(r'"(scorer\.[a-z_.]*[a-z_])"')  # not a prefix such as "scorer.sandbox."
PACKAGE = Path(scoring.scorer.__file__).parent


def test_every_scorer_code_is_used_and_catalogued():
    used = set()
    for path in PACKAGE.glob("*.py"):
        used |= set(CODE.findall(path.read_text(encoding="utf-8")))
    assert used == set(SCORER_MESSAGES), used ^ set(SCORER_MESSAGES)


def test_both_languages_have_the_same_placeholders():
    for code, templates in SCORER_MESSAGES.items():
        assert placeholders(templates["en"]) == placeholders(templates["ja"]), code
