"""Bad input on the command line: an ``error:`` line naming the file or option, exit 2, never a
traceback (JSON side files not in UTF-8 or malformed, options out of range)."""

import json

import pytest

import scoring
from scoring.kit._examples import bank, bank_config
from tests.scoring.cli_runner import refused
from tests.scoring.test_cli import run

NOT_UTF8 = b'{"qi": ["\xe9"]}'


@pytest.fixture
def files(tmp_path):
    scoring.write_csv(bank(), tmp_path / "bank.csv")
    (tmp_path / "round.json").write_text(json.dumps(bank_config().to_dict()))
    (tmp_path / "latin1.json").write_bytes(NOT_UTF8)
    (tmp_path / "truncated.json").write_text('{"age": {"type"')
    return tmp_path


def test_a_config_not_in_utf8_is_refused_naming_the_file(files):
    bank_csv = files / "bank.csv"
    done = run("evaluate", bank_csv, bank_csv, "--config", files / "latin1.json")
    refused(done, "latin1.json: The JSON file is not UTF-8 text")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_json_side_file_in_utf16_is_named_utf16(files, encoding, lang):
    """With a byte-order mark or without (then, its ASCII text is valid UTF-8 with a NUL
    in every other byte): the message names UTF-16, as the CSV readers' do."""
    config = json.dumps(bank_config().to_dict()).encode(encoding)
    (files / "wide.json").write_bytes(config)
    (files / "recipe.json").write_bytes(b'[{"method": "sa_noise"}]'.decode().encode(encoding))
    bank_csv = files / "bank.csv"
    done = run("--lang", lang, "evaluate", bank_csv, bank_csv, "--config", files / "wide.json")
    refused(done, "wide.json", "UTF-16")
    done = run(
        "--lang", lang, "anonymize", bank_csv, "--config", files / "round.json",
        "--recipe", files / "recipe.json", "-o", files / "out.csv",
    )  # fmt: skip
    refused(done, "recipe.json", "UTF-16")


@pytest.mark.parametrize("side", ["latin1", "truncated"])
def test_a_bad_attr_depth_file_is_refused_naming_it(files, side):
    done = run(
        "anonymize", files / "bank.csv", "--config", files / "round.json",
        "--attr-depth", files / f"{side}.json", "--method", "sa_noise", "--param", "scale=1",
        "-o", files / "out.csv",
    )  # fmt: skip
    refused(done, f"{side}.json: ")


@pytest.mark.parametrize(
    ("recipe", "where"),
    [
        (NOT_UTF8, "not UTF-8"),
        (b'[{"method": "sa_noise"', "Not valid JSON"),
        (b"[1, 2]", "not a recipe at steps[1]"),
        (b'{"steps": 5}', "not a recipe at steps:"),
        (b'[{"method": "sa_noise", "params": 3}]', "not a recipe at steps[1].params"),
        (b'[{"params": {}}]', "not a recipe at steps[1].method"),
    ],
)
def test_a_bad_recipe_is_refused_naming_the_file_and_the_step(files, recipe, where):
    (files / "recipe.json").write_bytes(recipe)
    done = run(
        "anonymize", files / "bank.csv", "--config", files / "round.json",
        "--recipe", files / "recipe.json", "-o", files / "out.csv",
    )  # fmt: skip
    refused(done, "recipe.json: ", where)


def test_a_recipe_message_reads_in_japanese(files):
    (files / "recipe.json").write_bytes(b'{"steps": 5}')
    done = run(
        "--lang", "ja", "anonymize", files / "bank.csv", "--config", files / "round.json",
        "--recipe", files / "recipe.json", "-o", files / "out.csv",
    )  # fmt: skip
    refused(done, "レシピ")


def test_dp_and_seq_configs_not_in_utf8_are_refused(files):
    refused(run("dp", "check", files / "bank.csv", "--config", files / "latin1.json"), "UTF-8")
    master = "fixtures/sequential/small_master.csv"
    release = "fixtures/sequential/small_release_1.csv"
    done = run("seq", "check", master, release, "--config", files / "latin1.json")
    refused(done, "UTF-8")


@pytest.mark.parametrize("rows", ["0", "-3"])
def test_publish_refuses_fewer_than_one_row(files, rows):
    done = run(
        "publish", files / "bank.csv", "--seed", "1", "--rows", rows,
        "--out-published", files / "p.csv", "--out-truth", files / "t.csv",
    )  # fmt: skip
    refused(done, f"--rows must be an integer of at least 1; got {rows}.")


@pytest.mark.parametrize("sizes", ["2,x", "1,7", ","])
def test_dp_epsilon_refuses_bad_sizes_with_exit_2(sizes):
    refused(run("dp", "epsilon", "--sizes", sizes, "--total", "1"), "--sizes needs", repr(sizes))
    done = run("--lang", "ja", "dp", "epsilon", "--sizes", sizes, "--total", "1")
    refused(done, "--sizes には")


def test_dp_epsilon_refuses_zero_rows():
    refused(run("dp", "epsilon", "--sizes", "2,7", "--total", "1", "--rows", "0"), "--rows")


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "no such file or folder"), ("ja", "そのファイルまたはフォルダはありません")],
)
def test_a_file_it_cannot_write_is_named_in_the_language(files, tmp_path, lang, words):
    """An output in a folder that does not exist: the path and the cause in ``--lang``'s
    language, not the system's English ``[Errno 2]``."""
    missing = tmp_path / "nowhere" / "p.csv"
    done = run(
        "--lang", lang, "publish", files / "bank.csv", "--seed", "1",
        "--out-published", missing, "--out-truth", tmp_path / "t.csv",
    )  # fmt: skip
    refused(done, str(missing), words)
    assert "Errno" not in done.stderr
