"""The files a round requires of an upload (``release_files`` / ``attack_files``): the
patterns' matching, the check's two refusals and the setting's validation."""

import io
import zipfile

import pytest

from scoring.messages import render
from scoring.scorer import ScorerError
from scoring.scorer.round_config import parse_round_config
from scoring.scorer.unzip import UnzipLimits, member_names
from scoring.scorer.upload_files import (
    FileRule,
    files_check,
    not_a_zip_check,
    parse_file_rule,
    pattern_matches,
)


@pytest.mark.parametrize(
    ("pattern", "name", "expected"),
    [
        ("release.csv", "release.csv", True),
        ("release.csv", "Release.csv", False),  # case-sensitive
        ("release.csv", "data/release.csv", False),  # the whole path
        ("*.csv", "a.csv", True),
        ("*.csv", "a.csv.txt", False),
        ("*.csv", "data/a.csv", False),  # * never crosses a /
        ("data/*.csv", "data/a.csv", True),
        ("*/model.json", "v1/model.json", True),
        ("model-?.json", "model-1.json", True),
        ("model-?.json", "model-12.json", False),
        ("[ab].txt", "b.txt", True),
    ],
)
def test_a_pattern_matches_the_whole_path_part_by_part(pattern, name, expected):
    assert pattern_matches(pattern, name) is expected


def test_an_upload_holding_every_required_file_passes():
    rule = FileRule(required=("release.csv", "*.json"))
    files_check(["release.csv", "model.json", "notes.txt"], rule)  # others allowed


def test_the_missing_file_is_named_in_both_languages():
    rule = FileRule(required=("release.csv", "model.json"))
    with pytest.raises(ScorerError) as caught:
        files_check(["release.csv", "notes.txt"], rule)
    error = caught.value
    assert error.code == "scorer.files.missing"
    assert error.params["pattern"] == "'model.json'"
    assert "'model.json'" in render(error.code, error.params, "en")
    ja = render(error.code, error.params, "ja")
    assert "'model.json'" in ja and "ファイルがありません" in ja


def test_only_the_required_files_names_the_first_other_file():
    rule = FileRule(required=("release.csv",), only_required=True)
    files_check(["release.csv"], rule)
    with pytest.raises(ScorerError) as caught:
        files_check(["release.csv", "z.txt", "b/notes.txt"], rule)
    assert caught.value.code == "scorer.files.unexpected"
    assert caught.value.params["name"] == "'b/notes.txt'"  # the first in sorted order
    assert "'b/notes.txt'" in render(caught.value.code, caught.value.params, "ja")


def test_an_empty_rule_takes_anything():
    files_check([], FileRule())
    files_check(["anything.bin"], FileRule())


def test_an_empty_upload_says_it_holds_no_file_and_what_is_required():
    with pytest.raises(ScorerError) as caught:
        files_check([], FileRule(required=("a.csv", "b.csv")))
    assert caught.value.code == "scorer.files.empty"
    assert "a.csv, b.csv" in render(caught.value.code, caught.value.params, "en")
    assert "a.csv, b.csv" in render(caught.value.code, caught.value.params, "ja")


@pytest.mark.parametrize(
    ("value", "key"),
    [
        ([], "release_files"),
        ({"required": "a.csv"}, "release_files.required"),
        ({"required": [""]}, "release_files.required"),
        ({"required": ["../a.csv"]}, "release_files.required"),
        ({"required": ["/a.csv"]}, "release_files.required"),
        ({"required": ["a\\b.csv"]}, "release_files.required"),
        ({"required": ["a.csv", "a.csv"]}, "release_files.required"),
        ({"required": ["x" * 129]}, "release_files.required"),
        ({"required": [f"f{i}" for i in range(21)]}, "release_files.required"),
        ({"required": [], "only_required": True}, "release_files.only_required"),
        ({"required": ["a"], "only_required": "yes"}, "release_files.only_required"),
    ],
)
def test_a_bad_setting_names_its_key(value, key):
    with pytest.raises(ScorerError) as caught:
        parse_file_rule(value, key="release_files")
    assert caught.value.params["key"] == key


@pytest.mark.parametrize(
    ("required", "quoted"),
    [
        (["release.csv", "../x.csv", "*.json"], "'../x.csv'"),  # the pattern at fault
        (["a.csv", "b.csv", "a.csv"], "'a.csv'"),  # the pattern given twice
    ],
)
def test_a_refused_pattern_is_quoted_alone_as_typed_not_the_list(required, quoted):
    """The console's field takes one pattern a line: the refusal quotes the line at fault,
    not a Python list of every line (``['release.csv', '../x.csv', '*.json']``)."""
    with pytest.raises(ScorerError) as caught:
        parse_file_rule({"required": required}, key="release_files")
    assert caught.value.params["value"] == quoted
    assert f"is {quoted};" in render(caught.value.code, caught.value.params, "en")
    assert f"の値 {quoted} は" in render(caught.value.code, caught.value.params, "ja")


def test_an_unknown_key_of_the_setting_is_refused():
    with pytest.raises(ScorerError) as caught:
        parse_round_config({"attack_files": {"required": ["a"], "only": True}})
    assert caught.value.code == "scorer.config.unknown"
    assert "attack_files.only" in caught.value.params["key"]


def test_the_round_config_reads_both_rules_back_unchanged():
    config = parse_round_config(
        {
            "release_files": {"required": ["release.csv"], "only_required": True},
            "attack_files": {"required": ["*.csv"]},
        }
    )
    assert config.files_rule("release") == FileRule(("release.csv",), True)
    assert config.files_rule("attack") == FileRule(("*.csv",), False)
    assert parse_round_config(config.as_dict()) == config


def _zip(members: dict[str, bytes]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    buffer.seek(0)
    return buffer


def test_member_names_lists_files_not_folders():
    source = _zip({"data/": b"", "data/a.csv": b"1", "model.json": b"{}"})
    names = member_names(source, what="submission ZIP", limits=UnzipLimits())
    assert sorted(names) == ["data/a.csv", "model.json"]


def test_member_names_checks_what_unzip_checks():
    with pytest.raises(ScorerError) as caught:
        member_names(_zip({"../evil": b"x"}), what="submission ZIP", limits=UnzipLimits())
    assert caught.value.code == "scorer.zip.bad_member"
    with pytest.raises(ScorerError) as caught:
        member_names(
            _zip({f"f{i}": b"" for i in range(5)}),
            what="submission ZIP",
            limits=UnzipLimits(members=4),
        )
    assert caught.value.code == "scorer.zip.too_many"
    with pytest.raises(ScorerError) as caught:
        member_names(io.BytesIO(b"PK\x03\x04 not really"), what="x", limits=UnzipLimits())
    assert caught.value.code == "scorer.zip.not_zip"


def test_a_missing_file_names_the_files_the_upload_holds():
    # A team that zipped cc_1.csv for CC.csv (a wrong name, a wrong case) reads what it sent.
    rule = FileRule(required=("CC.csv", "DD.json"), only_required=True)
    with pytest.raises(ScorerError) as caught:
        files_check(["dd_1.json", "cc_1.csv"], rule)
    assert caught.value.code == "scorer.files.missing"
    assert caught.value.params["held"] == "cc_1.csv, dd_1.json"
    assert "cc_1.csv, dd_1.json" in render(caught.value.code, caught.value.params, "en")
    assert "cc_1.csv, dd_1.json" in render(caught.value.code, caught.value.params, "ja")


def test_a_file_named_zip_that_is_no_zip_is_named_as_such():
    rule = FileRule(required=("CC.csv", "DD.json"))
    with pytest.raises(ScorerError) as caught:
        not_a_zip_check("release.ZIP", rule)
    assert caught.value.code == "scorer.files.not_zip"
    assert "'release.ZIP'" in render(caught.value.code, caught.value.params, "en")
    assert "ZIP" in render(caught.value.code, caught.value.params, "ja")
    not_a_zip_check("release.csv", rule)  # a plain file: the usual check names what it lacks
    not_a_zip_check("bundle.zip", FileRule(required=("*.zip",)))  # a ZIP asked as a file


def test_one_file_sent_where_the_round_asks_for_several_says_to_zip_them():
    # PWSCup 2022: the anonymized data and its command log, sent as the CSV alone.
    rule = FileRule(required=("anonymized.csv", "commands.log"), only_required=True)
    assert rule.needs_zip and FileRule(required=("data/*.json",)).needs_zip
    assert not FileRule(required=("release.csv",)).needs_zip
    with pytest.raises(ScorerError) as caught:
        files_check(["anonymized.csv"], rule)
    assert caught.value.code == "scorer.files.missing_zip"
    assert "put them in one ZIP file" in render(caught.value.code, caught.value.params, "en")
    ja = render(caught.value.code, caught.value.params, "ja")
    assert "anonymized.csv, commands.log" in ja and "1 つの ZIP ファイルにまとめて" in ja
    with pytest.raises(ScorerError) as caught:  # a ZIP lacking one: the files it holds
        files_check(["anonymized.csv", "notes.txt"], rule)
    assert caught.value.code == "scorer.files.missing"


def test_a_zip_of_one_file_is_told_what_it_lacks_not_to_zip_it():
    # PWSCup 2024: ten files and id.txt in one ZIP; a ZIP holding C_0.csv alone was told to
    # "put them in one ZIP file", which it had done.
    rule = FileRule(required=tuple(f"C_{k}.csv" for k in range(10)) + ("id.txt",))
    with pytest.raises(ScorerError) as caught:
        files_check(["C_0.csv"], rule, zipped=True)
    assert caught.value.code == "scorer.files.missing"
    assert caught.value.params["pattern"] == "'C_1.csv'"
    with pytest.raises(ScorerError) as caught:  # the same file sent alone: zip them
        files_check(["C_0.csv"], rule)
    assert caught.value.code == "scorer.files.missing_zip"
