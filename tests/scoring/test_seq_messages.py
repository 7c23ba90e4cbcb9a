"""The sequential round's messages (``seq.*``): in both languages, all used, all catalogued."""

import re
from pathlib import Path

import scoring
from scoring.messages import MESSAGES, placeholders

SCORING = Path(scoring.__file__).parent
SEQ_CODE = re.compile(r'"(seq\.[a-z_.]+)"')


def _used_codes() -> set[str]:
    used = set()
    for path in [*(SCORING / "sequential").glob("*.py"), SCORING / "kit" / "sequential.py"]:
        if path.name != "messages.py" and path.exists():
            used |= set(SEQ_CODE.findall(path.read_text(encoding="utf-8")))
    return used


def test_every_seq_code_is_used_and_every_used_code_is_catalogued():
    catalogue = {code for code in MESSAGES if code.startswith("seq.")}
    used = _used_codes()
    assert len(catalogue) >= 50
    assert used <= catalogue, used - catalogue
    # seq.issues / seq.issues_more wrap the others and are built by issues_error
    assert catalogue - {"seq.issues", "seq.issues_more"} <= used, catalogue - used


def test_seq_codes_have_japanese_with_the_same_placeholders():
    for code, templates in MESSAGES.items():
        if code.startswith("seq."):
            assert placeholders(templates["en"]) == placeholders(templates["ja"]), code
            assert templates["ja"] != templates["en"], code
