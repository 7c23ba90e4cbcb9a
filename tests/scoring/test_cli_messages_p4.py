"""Smaller messages: UTF-16 without a byte-order mark is named, a count reads without a
plural slip, and evaluate/check print their table and summary in the --lang language."""

import json

import pytest

import scoring
from scoring import ValidationError
from scoring.kit._examples import bank, bank_config
from tests.scoring.test_cli import run


@pytest.fixture
def files(tmp_path):
    scoring.write_csv(bank(), tmp_path / "bank.csv")
    (tmp_path / "round.json").write_text(json.dumps(bank_config().to_dict()))
    return tmp_path


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_named_as_utf16_not_binary(encoding):
    data = "age,sex\n39,M\n40,F\n".encode(encoding)
    with pytest.raises(ValidationError) as caught:
        scoring.read_table(data, name="a.csv")
    assert caught.value.code == "table.utf16"
    assert "looks like UTF-16" in str(caught.value)


def test_a_file_with_scattered_nul_bytes_is_still_binary():
    with pytest.raises(ValidationError) as caught:
        scoring.read_table(b"a,b\n1,\x00\x00\x002\n", name="a.csv")
    assert caught.value.code == "table.binary"


def test_one_non_numeric_row_reads_without_a_plural_slip():
    original = bank()
    original.loc[2, "income"] = "n/a"
    with pytest.raises(scoring.ConfigError) as caught:
        scoring.load_config({**bank_config().to_dict(), "integer_columns": None}, original)
    text = str(caught.value)
    assert "1 non-numeric rows" not in text and "rows that are not numbers: 1" in text


def test_evaluate_and_check_print_in_japanese(files):
    bank_csv, config = files / "bank.csv", files / "round.json"
    done = run("--lang", "ja", "evaluate", bank_csv, bank_csv, "--config", config)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["指標", "名前", "値"]
    assert any(line.startswith("REF     参照攻撃") for line in lines)
    assert "10 行のうち 10 行を残し" in done.stdout and "rows kept" not in done.stdout
    check = run("--lang", "ja", "check", bank_csv, bank_csv, "--config", config)
    assert check.stdout.strip() == "OK: 10 行、5 列。提出ファイルは有効です。"
    english = run("evaluate", bank_csv, bank_csv, "--config", config)
    assert english.stdout.splitlines()[0].split() == ["metric", "name", "value"]
    assert "10 of 10 rows kept" in english.stdout
