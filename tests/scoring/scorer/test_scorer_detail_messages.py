"""What is wrong with a program's scores.json, its metadata or the sandbox's command template
is a catalogued message nested in the general one: a Japanese reader reads it in Japanese,
not an English fragment inside a Japanese sentence."""

import json
import re
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from scoring.errors import ValidationError
from scoring.kit.sequential import baseline_buckets
from scoring.messages import MESSAGES, placeholders, render
from scoring.scorer import CommandLauncher, SandboxLimits, ScorerError, output_read, program_unpack
from scoring.scorer.launchers import Mount
from scoring.scorer.output import MAX_KEY_CHARS, MAX_KEYS
from scoring.sequential import parse_config

# Each code the change added, with where it is nested (None: a message of its own).
DETAIL_CODES = {
    "scorer.scores.not_object": "scorer.scores.shape",
    "scorer.scores.targets_not_object": "scorer.scores.shape",
    "scorer.scores.target_not_object": "scorer.scores.shape",
    "scorer.scores.bad_name": "scorer.scores.shape",
    "scorer.scores.too_many": "scorer.scores.shape",
    "scorer.scores.not_number": "scorer.scores.shape",
    "scorer.sandbox.no_word": "scorer.sandbox.template",
    "scorer.sandbox.unsplittable": "scorer.sandbox.template",
    "scorer.sandbox.empty": "scorer.sandbox.template",
    "scorer.sandbox.bad_field": "scorer.sandbox.template",
    "scorer.metadata.too_large": "scorer.metadata.invalid",
    "scorer.metadata.encoding": "scorer.metadata.invalid",
    "scorer.metadata.not_yaml": "scorer.metadata.invalid",
    "scorer.metadata.yaml_at": "scorer.metadata.invalid",
    "scorer.metadata.not_mapping": "scorer.metadata.invalid",
    "scorer.metadata.want_text": "scorer.metadata.key",
    "scorer.metadata.no_file": "scorer.metadata.key",
    "scorer.metadata.want_variables": "scorer.metadata.key",
    "scorer.metadata.name_refused": "scorer.metadata.key",
    "scorer.metadata.not_plain": "scorer.metadata.key",
    "scorer.metadata.too_long": "scorer.metadata.key",
    "scorer.metadata.want_folder": "scorer.metadata.key",
    "scorer.metadata.want_files": "scorer.metadata.key",
    "scorer.metadata.not_relative": "scorer.metadata.key",
    "seq.baseline.too_few_values": None,
}
# What a Japanese sentence may hold in Latin letters: the file, format and settings names
# and the folders it is about (keys and values are quoted, or parameters).
NAMES = ("scores.json", "metadata", "YAML", "UTF-8", "NUL", "T(j)", "sa_domain", "/app/")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def japanese_leftovers(text: str, error=None) -> list[str]:
    """The Latin words of ``text`` outside quotes, paths, the names above and the values of
    ``error``'s parameters (a key, a variable's name)."""
    params = dict(error.params) if error is not None else {}
    params.update(params.get("detail", {}).get("params", {}) if params else {})
    for value in params.values():
        if isinstance(value, str):
            text = text.replace(value, "")
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "", text)
    text = re.sub(r"\S*/\S*", "", text)
    for name in NAMES:
        text = text.replace(name, "")
    return LATIN_WORD.findall(text)


def rendered(code: str, lang: str) -> str:
    """``code`` in ``lang`` with a quoted value for each parameter, nested where it is used."""
    params = {name: "'p'" for name in placeholders(MESSAGES[code]["en"])}
    outer = DETAIL_CODES[code]
    if outer is None:
        return render(code, params, lang)
    outer_params = {name: "'q'" for name in placeholders(MESSAGES[outer]["en"])}
    return render(outer, {**outer_params, "detail": {"code": code, "params": params}}, lang)


@pytest.mark.parametrize("code", sorted(DETAIL_CODES))
def test_each_new_code_reads_in_english_and_in_japanese_words(code):
    english, japanese = rendered(code, "en"), rendered(code, "ja")
    assert english != japanese
    assert japanese_leftovers(japanese) == [], japanese
    assert japanese_leftovers(english), english  # the check finds English words


def _scores(tmp_path, value) -> ScorerError:
    (tmp_path / "scores.json").write_text(json.dumps(value), encoding="utf-8")
    with pytest.raises(ScorerError) as caught:
        output_read(tmp_path)
    return caught.value


@pytest.mark.parametrize(
    ("written", "detail", "shown"),
    [
        ([1, 2], "scorer.scores.not_object", []),
        ({"score": 1, "targets": [1]}, "scorer.scores.targets_not_object", ['"targets"']),
        ({"targets": {"teama": 3}}, "scorer.scores.target_not_object", ["'teama'"]),
        ({"": 1}, "scorer.scores.bad_name", ["''", str(MAX_KEY_CHARS)]),
        ({"x" * 201: 1}, "scorer.scores.bad_name", [str(MAX_KEY_CHARS)]),
        ({f"k{n}": n for n in range(MAX_KEYS + 1)}, "scorer.scores.too_many", ["scores.json"]),
        ({"targets": {f"t{n}": {} for n in range(MAX_KEYS + 1)}}, "scorer.scores.too_many", []),
        ({"score": "high"}, "scorer.scores.not_number", ["scores.json", "'score'"]),
        ({"targets": {"teamb": {"r": None}}}, "scorer.scores.not_number", ["'teamb'", "'r'"]),
    ],
    ids=[
        "array",
        "targets-list",
        "target-number",
        "empty-name",
        "long-name",
        "too-many",
        "too-many-targets",
        "text",
        "target-null",
    ],
)
def test_each_bad_shape_of_scores_json_has_its_own_code(tmp_path, written, detail, shown):
    error = _scores(tmp_path, written)
    assert error.code == "scorer.scores.shape"
    assert error.params["detail"]["code"] == detail
    japanese = error.render("ja")
    assert japanese.startswith("採点プログラムの scores.json は")
    assert japanese_leftovers(japanese) == [], japanese
    for text in shown:  # which key, which team, the limit: in both languages
        assert text in japanese and text in error.render("en")


def test_the_limit_on_names_is_said_in_both_languages(tmp_path):
    error = _scores(tmp_path, {f"k{n}": n for n in range(MAX_KEYS + 1)})
    assert f"more than {MAX_KEYS:,} names" in error.render("en")
    assert f"{MAX_KEYS:,} 個を超えて" in error.render("ja")


def _metadata_error(tmp_path, metadata: str, **files) -> ScorerError:
    archive = tmp_path / "program.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("metadata", metadata)
        for name, data in files.items():
            zipped.writestr(name, data)
    with pytest.raises(ScorerError) as caught:
        program_unpack(archive, tmp_path / "out")
    return caught.value


COMMAND = "command: python3 $program/score.py $input $output\n"


@pytest.mark.parametrize(
    ("metadata", "code", "detail", "shown"),
    [
        ("- a list\n", "scorer.metadata.invalid", "scorer.metadata.not_mapping", []),
        ("command: [1\n", "scorer.metadata.invalid", "scorer.metadata.yaml_at", ["2 行目"]),
        (b"command: \xff\n", "scorer.metadata.invalid", "scorer.metadata.encoding", []),
        ("x: " + "a" * 70_000, "scorer.metadata.invalid", "scorer.metadata.too_large", []),
        (COMMAND + "primary_key: ''\n", "scorer.metadata.key", "scorer.metadata.want_text", []),
        (
            COMMAND + "requirements: deps.txt\n",
            "scorer.metadata.key",
            "scorer.metadata.no_file",
            ["'deps.txt'"],
        ),
        (
            COMMAND + "environment: [1]\n",
            "scorer.metadata.key",
            "scorer.metadata.want_variables",
            [],
        ),
        (
            COMMAND + "environment: {LD_PRELOAD: x}\n",
            "scorer.metadata.key",
            "scorer.metadata.name_refused",
            ["'LD_PRELOAD'"],
        ),
        (
            COMMAND + "environment: {MODE: [1]}\n",
            "scorer.metadata.key",
            "scorer.metadata.not_plain",
            ["MODE"],
        ),
        (
            COMMAND + "environment: {MODE: " + "x" * 1001 + "}\n",
            "scorer.metadata.key",
            "scorer.metadata.too_long",
            ["MODE", "1,000"],
        ),
        (
            COMMAND + "truth_mount: /app/output/t\n",
            "scorer.metadata.key",
            "scorer.metadata.want_folder",
            [],
        ),
        (COMMAND + "public: {a: 1}\n", "scorer.metadata.key", "scorer.metadata.want_files", []),
        (
            COMMAND + "public: ../x.csv\n",
            "scorer.metadata.key",
            "scorer.metadata.not_relative",
            ["'../x.csv'"],
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and value.startswith("scorer.m") else None,
)
def test_each_bad_metadata_has_its_own_code(tmp_path, metadata, code, detail, shown):
    error = _metadata_error(tmp_path, metadata)
    assert (error.code, error.params["detail"]["code"]) == (code, detail)
    japanese = error.render("ja")
    assert japanese.startswith("採点プログラムの metadata")
    assert japanese_leftovers(japanese, error) == [], japanese
    for text in shown:
        assert text in japanese


def _template_error(template: str) -> ScorerError:
    launcher = CommandLauncher(template)
    with pytest.raises(ScorerError) as caught:
        launcher.argv(
            ["true"],
            mounts=[Mount(Path("/w/out"), "/app/output", True)],
            environment={},
            limits=SandboxLimits(),
            chdir="/app",
            status_fd=3,
        )
    return caught.value


@pytest.mark.parametrize(
    ("template", "detail", "shown"),
    [
        ("podman run img {command}", "scorer.sandbox.no_word", ["{mounts}"]),
        ("bwrap {mounts} 'unclosed {command}", "scorer.sandbox.unsplittable", []),
        ("   ", "scorer.sandbox.empty", []),
        ("bwrap {mounts} --x={nope} {command}", "scorer.sandbox.bad_field", ["'--x={nope}'"]),
    ],
    ids=["no-mounts", "unclosed", "empty", "unknown-field"],
)
def test_each_unusable_template_has_its_own_code(template, detail, shown):
    error = _template_error(template)
    assert (error.code, error.params["detail"]["code"]) == ("scorer.sandbox.template", detail)
    japanese = error.render("ja")
    assert "プラットフォーム設定の問題" in japanese
    assert japanese_leftovers(japanese, error) == [], japanese
    for text in shown:
        assert text in japanese and text in error.render("en")


def test_a_baseline_without_m_sensitive_values_says_so_in_the_readers_language():
    """The sequential round's sample download shows this refusal on the team's page."""
    table = pd.DataFrame({"pid": ["a", "b"], "Age": ["20", "30"], "Disease": ["flu", "cold"]})
    config = parse_config(
        {"type": "sequential", "n_releases": 2, "m": 3, "qi": {"Age": "num"}, "sa": "Disease"}
    )
    with pytest.raises(ValidationError) as caught:
        baseline_buckets(table, None, config)
    assert (caught.value.code, caught.value.params) == ("seq.baseline.too_few_values", {"m": 3})
    japanese = caught.value.render("ja")
    assert "3 種類未満" in japanese and japanese_leftovers(japanese) == [], japanese
    assert "3-unique" in caught.value.render("en")
