"""The one message catalogue is complete in any process, with nothing registered by import.

``scoring.messages`` merges the data-only modules of ``scoring.catalogues``; importing
``scoring`` loads no round kind, and a stored ``seq.*`` code renders (and is recognised as a
code) in a fresh interpreter that never imported ``scoring.sequential``.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import scoring.catalogues
import scoring.messages
from scoring.catalogues.answers import ANSWER_MESSAGES
from scoring.catalogues.cli_help import HELP_MESSAGES
from scoring.catalogues.config2015 import CONFIG_MESSAGES
from scoring.catalogues.core import CORE_MESSAGES
from scoring.catalogues.expected import EXPECTED_MESSAGES
from scoring.catalogues.formula import FORMULA_MESSAGES
from scoring.catalogues.kit_help import KIT_HELP_MESSAGES
from scoring.catalogues.scorer import SCORER_MESSAGES
from scoring.catalogues.sequential import SEQ_MESSAGES
from scoring.catalogues.usage import USAGE_MESSAGES

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = Path(scoring.catalogues.__file__).parent


def _run(script: str) -> str:
    """Run ``script`` in a fresh interpreter (no module of this test process carried over)."""
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


# Prints the modules of the round kinds (scoring.sequential, scoring.dp) loaded so far.
PRINT_LOADED_KINDS = """
kinds = (["scoring", "sequential"], ["scoring", "dp"])
print(sorted(m for m in sys.modules if m.split(".")[:2] in kinds))
"""


def test_importing_scoring_loads_no_round_kind():
    out = _run("import sys\nimport scoring\n" + PRINT_LOADED_KINDS)
    assert out.strip() == "[]"


def test_a_sequential_code_renders_without_the_sequential_round():
    script = (
        """
import sys
from scoring.errors import ValidationError
from scoring.messages import MESSAGES, render
assert "seq.release.no_rows" in MESSAGES
print(render("seq.release.no_rows", {"release": 2}, "en"))
print(render("seq.release.no_rows", {"release": 2}, "ja"))
error = ValidationError("seq.release.no_rows", release=3)
print(error.code, "|", error.render("ja"))
"""
        + PRINT_LOADED_KINDS
    )
    lines = _run(script).splitlines()
    assert lines == [
        "release 2: the file has no data rows",
        "公開データ 2: データ行がありません",
        "seq.release.no_rows | 公開データ 3: データ行がありません",
        "[]",
    ]


def test_the_catalogue_is_the_parts_merged_core_first():
    parts = (
        CORE_MESSAGES,
        ANSWER_MESSAGES,
        CONFIG_MESSAGES,
        SEQ_MESSAGES,
        SCORER_MESSAGES,
        FORMULA_MESSAGES,
        EXPECTED_MESSAGES,
        USAGE_MESSAGES,
        HELP_MESSAGES,
        KIT_HELP_MESSAGES,
    )
    assert scoring.messages.CATALOGUES == parts
    assert list(scoring.messages.MESSAGES) == [code for part in parts for code in part]
    assert all(code.startswith("answer.") for code in ANSWER_MESSAGES)
    assert all(code.startswith("config.") for code in CONFIG_MESSAGES)
    assert all(code.startswith("seq.") for code in SEQ_MESSAGES)
    assert all(code.startswith("scorer.") for code in SCORER_MESSAGES)
    assert all(code.startswith("formula.") for code in FORMULA_MESSAGES)
    assert all(code.startswith("expect.") for code in EXPECTED_MESSAGES)
    assert all(code.startswith("usage.") for code in USAGE_MESSAGES)
    assert all(code.startswith("help.") for code in [*HELP_MESSAGES, *KIT_HELP_MESSAGES])
    prefixes = ("config.", "seq.", "scorer.", "formula.", "expect.", "usage.", "help.")
    assert not any(code.startswith(prefixes) for code in CORE_MESSAGES)


def test_a_code_in_two_parts_is_refused():
    with pytest.raises(ValueError, match="table.empty"):
        scoring.messages._merged([CORE_MESSAGES, {"table.empty": {"en": "x", "ja": "y"}}])


@pytest.mark.parametrize("path", sorted(CATALOGUES.glob("*.py")), ids=lambda p: p.name)
def test_a_catalogue_part_is_data_only(path):
    """No imports: merging a part can never load a round or register anything."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    assert imports == [], path


def test_every_zip_the_scorer_unpacks_is_named_in_japanese_too():
    """A refused ZIP's message names it (``what``): the data pack's name stayed English on a
    Japanese page ("data packが ZIP ファイルではありません")."""
    import re

    from scoring.catalogues.scorer import SCORER_TERMS
    from scoring.messages import render

    sources = [
        *(ROOT / "scoring" / "scorer").glob("*.py"),
        *(ROOT / "pwscup" / "scorer").rglob("*.py"),
    ]
    named = {
        what
        for path in sources
        for what in re.findall(r'\bwhat="([^"]+)"', path.read_text(encoding="utf-8"))
    }
    assert {"scoring program", "submission ZIP", "data pack"} <= named
    assert not [what for what in sorted(named) if "ja" not in SCORER_TERMS.get(what, {})]
    text = render("scorer.zip.not_zip", {"what": "data pack"}, "ja")
    assert text == "データパックが ZIP ファイルではありません（または壊れています）。"
    # The team's upload read "提出 ZIPが ZIP ファイルではありません" (no space before が).
    text = render("scorer.zip.not_zip", {"what": "submission ZIP"}, "ja")
    assert text == "提出ファイルが ZIP ファイルではありません（または壊れています）。"


def test_every_table_a_round_reads_is_named_in_japanese_too():
    """A table refused at reading is named in the message (``read_table(name=...)``): the
    sequential round's master table and guesses stayed English on Japanese pages ("the
    master table: フィールド数が違います")."""
    import re

    from scoring.messages import TERMS, render

    kinds = ("sequential", "synthetic", "dp", "scorer")
    # The toolkit's command lines (cli.py) speak English only.
    sources = [
        path
        for kind in kinds
        for path in (ROOT / "scoring" / kind).glob("*.py")
        if path.name != "cli.py"
    ]
    # Named in the call, or as the default of a reader's ``name`` (the guesses' file, named
    # as uploaded by the platform, as "the guesses" by a caller that gives no name).
    patterns = (r'read_table\([^)]*\bname="(the [^"]+)"', r'\bname: str = "(the [^"]+)"')
    named = {
        name
        for path in sources
        for pattern in patterns
        for name in re.findall(pattern, path.read_text("utf-8"))
    }
    assert {"the master table", "the guesses"} <= named
    assert not [name for name in sorted(named) if "ja" not in TERMS.get(name, {})]
    text = render("table.empty", {"name": "the master table"}, "ja")
    assert text.startswith("マスター表 が空です")
