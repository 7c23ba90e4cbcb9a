"""Under ``--lang ja`` a command's success line is Japanese, as its error messages are:
publish, score-attack, anonymize, attack, synth check, seq check/baseline, dp release and
estimate (and the kit's "give --method or --recipe" refusal)."""

import json
from pathlib import Path

import pytest

import scoring
from scoring.dp._examples import TOY_CONFIG, toy_table
from scoring.kit._examples import bank, bank_config
from tests.scoring.cli_runner import in_process

ROOT = Path(__file__).resolve().parents[2]
SEQ = ROOT / "fixtures" / "sequential"


def ja(*args, status=0):
    done = in_process("--lang", "ja", *args)
    assert done.returncode == status, done.stderr
    return done


@pytest.fixture
def files(tmp_path):
    scoring.write_csv(bank(), tmp_path / "bank.csv")
    (tmp_path / "round.json").write_text(json.dumps(bank_config().to_dict()))
    return tmp_path


def test_publish_score_attack_anonymize_and_attack_speak_japanese(files):
    bank_csv, config = files / "bank.csv", ["--config", files / "round.json"]
    out = ja("anonymize", bank_csv, *config, "--method", "swap_in_class", "-o", files / "a.csv")
    assert (
        out.stdout
        == f"10 行（うち削除 0 行）を {files / 'a.csv'} に書き出しました: swap_in_class。\n"
    )
    refused = ja("anonymize", bank_csv, *config, "-o", files / "a.csv", status=2)
    assert (
        refused.stderr
        == "エラー: --method か --recipe を指定してください（手法は --help を参照）\n"
    )
    published, truth = files / "p.csv", files / "t.csv"
    args = ("--seed", 1, "--out-published", published, "--out-truth", truth)
    out = ja("publish", files / "a.csv", *args)
    assert out.stdout == f"10 行を {published} に公開しました。正解は {truth} にあります。\n"
    out = ja("attack", published, bank_csv, *config, "--method", "lecture", "-o", files / "g.csv")
    assert out.stdout.startswith("10 件の推測（うち推測なし ")
    assert out.stdout.endswith(f"件）を {files / 'g.csv'} に書き出しました: lecture。\n")
    out = ja("score-attack", files / "g.csv", "--truth", truth)
    assert out.stdout.startswith("再識別率 ") and "行が正解）" in out.stdout


def test_seq_check_and_baseline_speak_japanese(tmp_path):
    config = ["--config", SEQ / "zhang_config.json"]
    one = tmp_path / "release_1.csv"
    out = ja("seq", "baseline", SEQ / "zhang_master.csv", *config, "--release", 1, "-o", one)
    assert out.stdout.startswith(f"{one} を書き出しました: ") and "偽造タプル" in out.stdout
    releases = (SEQ / "zhang_release_1.csv", SEQ / "zhang_release_2_table4.csv")
    out = ja("seq", "check", SEQ / "zhang_master.csv", *releases, *config)
    assert out.stdout.startswith("OK: 有効な公開データは 2 個です。m = 2。\n")


def test_dp_release_and_estimate_speak_japanese(tmp_path):
    (tmp_path / "round.json").write_text(json.dumps(TOY_CONFIG))
    toy_table().to_csv(tmp_path / "table.csv", index=False)
    config, groups = (
        ["--config", tmp_path / "round.json"],
        ["--groups", "gender:rho=0.5", "age:rho=0.5"],
    )
    release = tmp_path / "release.csv"
    args = ("--level", "eps-4", *groups, "--seed", 7, "-o", release)
    out = ja("dp", "release", tmp_path / "table.csv", *config, *args)
    assert out.stdout.endswith(f"\n{len(toy_table())} 行を {release} に書き出しました\n")
    estimate = tmp_path / "bt.csv"
    out = ja("dp", "estimate", release, *config, "--estimator", "BT", "-o", estimate)
    assert out.stdout.endswith(f"\n{estimate} を書き出しました\n")


def test_synth_check_speaks_japanese(tmp_path):
    adult = ROOT / "fixtures" / "adult.csv"
    lines = adult.read_text().splitlines(keepends=True)
    (tmp_path / "small.csv").write_text("".join(lines[:401]))
    header = lines[0].strip().split(",")
    numeric = {"age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"}
    columns = {c: "numeric" if c in numeric else "categorical" for c in header}
    (tmp_path / "config.json").write_text(json.dumps({"columns": columns, "label": "income"}))
    pop = tmp_path / "pop.json"
    describe = ("describe", tmp_path / "small.csv", "--config", tmp_path / "config.json")
    assert ja("synth", *describe, "-o", pop).returncode == 0
    out = ja("synth", "check", tmp_path / "small.csv", "--population", pop)
    assert out.stdout == "OK: 400 行\n"
