"""The scoring library's message catalogue: every code in English and Japanese."""

import ast
import builtins
import json
import re
from pathlib import Path

import pytest

import scoring
from scoring.errors import ScoringError, ValidationError
from scoring.messages import (
    _ITEMS,
    _TOTALS,
    LANGUAGES,
    MESSAGES,
    TERMS,
    clip,
    expect,
    listing,
    placeholders,
    render,
)

SCORING = Path(scoring.__file__).parent
CODE_LITERAL = re.compile(
    r'"((?:answer|table|header|original|column|submission|truth|attack|json|config|toolkit|formula|cli|usage|help)'
    r'\.[a-z0-9_]+)"'
)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_has_both_languages_with_the_same_placeholders(code):
    templates = MESSAGES[code]
    assert set(templates) == set(LANGUAGES)
    assert all(templates[lang].strip() for lang in LANGUAGES)
    assert placeholders(templates["en"]) == placeholders(templates["ja"])
    assert templates["ja"] != templates["en"]


@pytest.mark.parametrize("kind", sorted(_ITEMS))
def test_every_listing_kind_has_both_languages(kind):
    assert set(_ITEMS[kind]) == set(LANGUAGES)
    assert placeholders(_ITEMS[kind]["en"]) == placeholders(_ITEMS[kind]["ja"])
    assert set(_TOTALS[kind.split("_")[0]]) == set(LANGUAGES)


def test_every_term_has_a_japanese_translation():
    assert all(TERMS[term].get("ja") for term in TERMS)


def test_every_code_raised_by_the_library_is_in_the_catalogue():
    used = set()
    for path in SCORING.glob("*.py"):
        if path.name != "messages.py":
            used |= set(CODE_LITERAL.findall(path.read_text(encoding="utf-8")))
    for path in SCORING.glob("*/cli.py"):  # the kit's and the round kinds' success lines
        found = CODE_LITERAL.findall(path.read_text(encoding="utf-8"))  # and usage refusals
        used |= {code for code in found if code.startswith(("cli.", "usage."))}
    assert len(used) >= 25, used
    assert used <= set(MESSAGES), used - set(MESSAGES)
    # and every catalogue entry is used somewhere (no dead, untranslated-by-use codes);
    # the sequential round's "seq." codes are checked by test_seq_messages.py, the scorer's
    # "scorer." codes by tests/scoring/scorer/test_scorer_messages.py, the "expect." parts
    # by the test below, the help texts ("help.", some of them named by the command or
    # method they describe) by test_cli_help_ja.py, which reads every help page in Japanese
    unchecked = ("seq.", "scorer.", "expect.", "help.")
    assert {c for c in MESSAGES if not c.startswith(unchecked)} <= used, set(MESSAGES) - used


ERRORS = {"ScoringError", "ValidationError", "ConfigError"}


def _module_strings(tree) -> dict[str, str]:
    """The module-level names bound to a string (a message kept in a constant)."""
    return {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def test_the_library_raises_no_plain_english_error():
    """Every error the library's modules make carries a catalogued code (rendered in the
    reader's language): a plain English sentence (an f-string, a message in a constant) read
    the same on a Japanese page. The 2015 configuration's were the last ones."""
    plain = []
    for path in sorted(SCORING.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _module_strings(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            first = node.args[0]
            if name not in ERRORS:
                continue
            text = first.value if isinstance(first, ast.Constant) else None
            if isinstance(first, ast.Name):
                text = constants.get(first.id)  # a local variable holding a code: None
            if isinstance(first, ast.JoinedStr | ast.BinOp) or (
                isinstance(text, str) and text not in MESSAGES
            ):
                plain.append(f"{path.name}:{node.lineno}")
    assert plain == []


# Two Latin words in a row: an English phrase ("is not an object"), not a key or a value.
ENGLISH_PHRASE = re.compile(r"[A-Za-z]{2,}[ ,;:]+[A-Za-z]{2,}")
# Keywords that are the text of a message's part, whatever function they are given to.
PARAM_WORDS = {"detail", "reason", "why", "problem", "expected"}
# Helpers that raise or build a library error from their arguments.
REFUSERS = {"_refuse", "bad_value", "_shape", "_invalid", "_bad_key", "_unusable"}


def _english(node, names: dict[str, ast.AST]) -> bool:
    """Whether ``node`` is English words: a string (other than a catalogued term), an
    f-string or a concatenation with a phrase in its literal parts, or a name the module
    binds to one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value not in TERMS and bool(ENGLISH_PHRASE.search(node.value))
    if isinstance(node, ast.JoinedStr):
        literal = " ".join(v.value for v in node.values if isinstance(v, ast.Constant))
        return bool(ENGLISH_PHRASE.search(literal))
    if isinstance(node, ast.BinOp):
        return _english(node.left, names) or _english(node.right, names)
    if isinstance(node, ast.Name) and node.id in names:
        return _english(names[node.id], {})
    return False


def _english_arguments(tree) -> list[int]:
    """The lines of the calls that hand English words to a library error."""
    names = {
        node.targets[0].id: node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", "")) or ""
        # a library error (ScorerError, ConfigError, DPError …); Python's own (ValueError) are
        # a programmer's mistakes, never shown on a page
        library = name.endswith("Error") and not hasattr(builtins, name)
        builds_error = library or name in REFUSERS
        values = [kw.value for kw in node.keywords if builds_error or kw.arg in PARAM_WORDS]
        if builds_error:
            values += node.args[1:]
            if node.args and isinstance(node.args[0], ast.JoinedStr):
                values.append(node.args[0])  # a sentence in place of a code
        if any(_english(value, names) for value in values):
            found.append(node.lineno)
    return found


def test_no_message_parameter_holds_english_words():
    """A message's parameters are values, keys, terms or nested catalogued messages, never an
    English phrase: a Japanese page showed "…でなければなりません。it is not an object。".
    The command lines (cli.py) speak English by design; the anonymisation kit's own catalogue
    (scoring/kit, KIT_MESSAGES) is only met in a team's local scripts, except the sequential
    kit's baseline, which the platform's sample download runs."""
    sources = [
        path
        for path in sorted(SCORING.rglob("*.py"))
        if path.name != "cli.py"
        and (path.parent.name != "kit" or path.name == "sequential.py")
        and "kit" not in path.relative_to(SCORING).parts[:-2]
    ]
    assert SCORING / "scorer" / "output.py" in sources
    assert SCORING / "kit" / "sequential.py" in sources
    english = [
        f"{path.relative_to(SCORING)}:{line}"
        for path in sources
        for line in _english_arguments(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert english == []


def test_the_check_of_english_parameters_finds_them():
    sample = """
raise ScorerError("scorer.scores.shape", detail="it is not an object")
raise ScorerError("scorer.scores.shape", detail=f"{where} has more than {n} names")
expected = f"a list of 1 to {n} numbers"
_refuse("bands", value, expected)
raise ValidationError(f"The baseline cannot make an {m}-unique release.")
raise ScorerError("scorer.zip.bad_member", problem="it is given twice", name=name)
raise ScorerError("scorer.config.value", key=f"{key}.required", expected=expect("boolean"))
"""
    assert _english_arguments(ast.parse(sample)) == [2, 3, 5, 6]


def test_every_expected_value_is_catalogued_used_and_said_in_japanese():
    """What a configuration's value should have been (``expect(...)``, in DP and synthetic
    messages) is a catalogued part: the Japanese message said it in English words."""
    import re

    import scoring.dp.config.parse
    from scoring.dp.errors import DPError
    from scoring.synthetic.config import parse_config as synth_config
    from scoring.synthetic.errors import SynthError

    called = set()
    for path in SCORING.rglob("*.py"):
        called |= set(re.findall(r'expect\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    catalogued = {c.removeprefix("expect.") for c in MESSAGES if c.startswith("expect.")}
    assert called == catalogued, called ^ catalogued
    for check, bad, error in (
        (synth_config, {"columns": {"a": "categorical"}, "label": "a", "n_train": 0}, SynthError),
        (scoring.dp.config.parse.parse_config, {**DP_VALID, "max_cells": 1}, DPError),
    ):
        try:
            check(bad)
        except error as refused:
            japanese = refused.render("ja")
        assert "でなければなりません" in japanese
        assert not re.search(r"\b(an|a|integer|number|object)\b", japanese), japanese


JAPANESE = r"[\u3040-\u30ff\u4e00-\u9fff]"


@pytest.mark.parametrize("expected", ["positive_number", "object", "challenge_size_train"])
def test_an_expected_value_sits_in_a_japanese_sentence_without_stray_spaces(expected):
    """``は 正の数 でなければ``: the nested part is Japanese words, written without spaces
    around them (a number inside it keeps its spaces: ``4 の倍数``; one it starts with is
    set off: ``は 2 × n_train``)."""
    from scoring.dp.errors import DPError
    from scoring.synthetic.errors import SynthError

    part = expect(expected, most=600)
    for japanese in (
        SynthError("syn.config.bad_value", key="k", expected=part, value=0).render("ja"),
        DPError("dp.config.bad_value", key="k", expected=part, value=0).render("ja"),
        ValidationError("seq.config.per_team", field="f", expected=part, value=0).render("ja"),
    ):
        assert not re.search(JAPANESE + " +" + JAPANESE, japanese), japanese
        assert not re.search(r"' は " + JAPANESE, japanese), japanese
        assert not re.search(r"' は[0-9A-Za-z]", japanese), japanese


DP_VALID = {
    "attributes": {"g": ["F", "M"]},
    "workload": [{"id": "t", "attributes": ["g"]}],
    "levels": [{"id": "e1", "epsilon": "1"}],
}


def test_a_listing_reads_in_both_languages_and_always_gives_the_total():
    rows = listing("rows_values", [3, 9], ["x", "y"])
    assert render("original.empty_cells", {"rows": listing("rows", [2])}, "en") == (
        "The original table has empty cells at row 2 (1 row in total). "
        "Rows are numbered from 1 after the header line."
    )
    english = render("submission.outside_domain", {"column": "'city'", "rows": rows}, "en")
    japanese = render("submission.outside_domain", {"column": "'city'", "rows": rows}, "ja")
    assert "row 3 ('x'), row 9 ('y') (2 rows in total)" in english
    assert "3 行目 ('x')、9 行目 ('y')（計 2 行）" in japanese


def test_a_listing_shows_ten_items_and_the_total():
    text = render("original.empty_cells", {"rows": listing("rows", range(1, 26))}, "en")
    assert "row 10 (25 rows in total)" in text and "row 11" not in text


def test_nested_messages_and_terms_are_translated():
    error = ValidationError(
        "header.mismatch",
        what="submission",
        problems=[{"code": "header.missing", "params": {"columns": "'city'"}}],
        expected="age,city",
    )
    assert str(error) == (
        "The header of the submission differs from the original: missing column(s): 'city'. "
        "Expected header: age,city."
    )
    assert error.render("ja") == (
        "提出ファイルのヘッダーが元のテーブルと異なります: 足りない列: 'city'。正しいヘッダー: age,city。"
    )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("ja", "ja"),
        ("ja-JP", "ja"),
        ("ja_JP.UTF-8", "ja"),
        ("en-us", "en"),
        ("fr", "en"),
        (None, "en"),
    ],
)
def test_languages_other_than_japanese_read_english(lang, expected):
    text = render("submission.all_deleted", {}, lang)
    assert text == MESSAGES["submission.all_deleted"][expected]


def test_a_plain_message_has_no_code_and_renders_as_is():
    error = ScoringError("Some configuration problem.")
    assert error.code == "" and error.render("ja") == "Some configuration problem."


def test_clip_marks_the_cut_with_an_ellipsis():
    assert clip("a" * 80) == "a" * 80
    assert clip("a" * 81) == "a" * 79 + "…"
    assert len(clip("b" * 10_000_000)) == 80


BAD_INPUTS = [
    lambda: scoring.read_table(b"a,b\n1\n2,3,4\n"),
    lambda: scoring.read_table(b"a,a\n1,2\n"),
    lambda: scoring.read_table(b"\x00\x01"),
    lambda: scoring.read_correspondence(b"1\nx\n1,2\n", rows=3, reference_rows=2),
    lambda: scoring.read_correspondence(b"1\n9\n", rows=2, reference_rows=2),
    lambda: scoring.read_correspondence(b"1\n", rows=2, reference_rows=2),
]


@pytest.mark.parametrize("make_error", BAD_INPUTS)
def test_parameters_are_plain_json(make_error):
    """The platform stores the parameters in a JSON field, exactly as they are."""
    with pytest.raises(ValidationError) as info:
        make_error()
    error = info.value
    assert error.code in MESSAGES
    assert json.loads(json.dumps(error.params)) == error.params
    assert render(error.code, json.loads(json.dumps(error.params)), "ja") == error.render("ja")


def test_a_nested_expected_value_is_spaced_from_the_japanese_around_it():
    """``'n_challenge' は2 × n_train…`` read wrong: a nested message that starts or ends with
    a Latin letter or a digit is set off from the kana or kanji it touches, whatever the
    catalogue (synthetic, DP, the library's own); one in Japanese words is not."""
    from scoring.dp.errors import DPError
    from scoring.synthetic.errors import SynthError

    size = expect("challenge_size_train", most=4000)
    synth = SynthError("syn.config.bad_value", key="n_challenge", expected=size, value=50)
    assert synth.render("ja") == (
        "'n_challenge' は 2 × n_train（4000）以下の 4 の倍数でなければなりません（値: 50）"
    )
    assert synth.render("en").startswith("'n_challenge' must be a multiple of 4 of at most")
    boolean = DPError("dp.config.bad_value", key="feedback", expected=expect("boolean"), value=3)
    assert boolean.render("ja") == "'feedback' は true または false でなければなりません（値: 3）"
    words = SynthError("syn.config.bad_value", key="x", expected=expect("positive_number"), value=0)
    assert words.render("ja") == "'x' は正の数でなければなりません（値: 0）"
    params = {"field": "n", "expected": expect("integer_at_least", low=2), "value": 1}
    assert render("seq.config.per_team", params, "ja").startswith(
        "設定キー 'per_team.n' は 2 以上の整数でなければなりません"
    )
