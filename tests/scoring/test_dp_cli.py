"""``python -m scoring dp epsilon|release|estimate|score``: the DP round's maths on local files."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scoring.cli import main
from scoring.dp import (
    load_dp_config,
    parse_release_declaration,
    pk_release,
    read_estimate,
    reconstruct,
    target_channel,
    true_histogram,
)
from scoring.dp._examples import TOY_CONFIG, TOY_Z, toy_table
from scoring.dp.errors import DPError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "round.json").write_text(json.dumps(TOY_CONFIG))
    toy_table().to_csv(tmp_path / "table.csv", index=False)
    return tmp_path


def run(capsys, *args):
    status = main([str(a) for a in args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_epsilon_from_rho_and_k(capsys):
    status, out, _ = run(
        capsys,
        "dp",
        "epsilon",
        "--sizes",
        "2,3",
        "--rho",
        "0.5",
        "--rows",
        "10",
        "--format",
        "json",
    )
    result = json.loads(out)
    assert status == 0
    assert round(result["epsilon"], 6) == 2.484907
    assert result["charge"] == "2.48490665"
    assert result["k"] == pytest.approx(1.0625)
    status, out, _ = run(capsys, "dp", "epsilon", "--sizes", "2,3", "--rho", "0.5")
    assert "charged 2.48490665" in out and "rho=0.500000" in out


def test_epsilon_to_rho_exactly_and_total_to_equal_rho(capsys):
    status, out, _ = run(
        capsys, "dp", "epsilon", "--sizes", "6", "--epsilon", "2.484906649788", "--format", "json"
    )
    assert round(json.loads(out)["groups"][0]["rho"], 6) == 0.647059
    status, out, _ = run(
        capsys,
        "dp",
        "epsilon",
        "--sizes",
        "2,7",
        "--total",
        "1",
        "--rows",
        "6040",
        "--format",
        "json",
    )
    result = json.loads(out)
    assert [round(g["rho"], 4) for g in result["groups"]] == [0.1335, 0.1335]
    assert result["charge"] == "1" and round(result["k"], 2) == 818.29
    status, out, _ = run(
        capsys, "dp", "epsilon", "--sizes", "2,3", "--epsilon", "1/3,1/6", "--format", "json"
    )
    assert json.loads(out)["charge"] == "0.5"


def test_epsilon_bad_input_exits_2_with_the_spec_message(capsys):
    status, _, err = run(capsys, "dp", "epsilon", "--sizes", "2,3", "--epsilon", "1e-3x")
    assert status == 2
    assert err.strip() == "error: epsilon '1e-3x' is not a decimal number or a fraction p/q"
    status, _, err = run(capsys, "dp", "epsilon", "--sizes", "2", "--rho", "1.0")
    assert status == 2 and "rho 1.0 is not < 1 (epsilon would be ∞)" in err
    status, _, err = run(
        capsys, "--lang", "ja", "dp", "epsilon", "--sizes", "2", "--epsilon", "abc"
    )
    assert status == 2 and "小数でも分数 p/q でもありません" in err


def test_release_is_reproducible_with_a_seed_and_matches_ex7(files, capsys):
    out_csv = files / "release.csv"
    status, out, _ = run(
        capsys,
        "dp",
        "release",
        files / "table.csv",
        "--config",
        files / "round.json",
        "--level",
        "eps-4",
        "--groups",
        "gender:rho=0.5",
        "age:rho=0.5",
        "--seed",
        "7",
        "--no-shuffle",
        "-o",
        out_csv,
        "--format",
        "json",
    )
    assert status == 0
    result = json.loads(out)
    assert result["charge"] == "2.48490665" and result["k"] == pytest.approx(1.0625)
    released = pd.read_csv(out_csv, dtype=str)
    assert list(released.columns) == ["gender", "age"] and len(released) == 10
    config = load_dp_config(files / "round.json")
    assert true_histogram(released, config, ("gender", "age")).tolist() == [1, 3, 2, 1, 2, 1]  # EX7


def test_release_over_the_level_budget_and_unknown_level(files, capsys):
    args = [
        "dp",
        "release",
        files / "table.csv",
        "--config",
        files / "round.json",
        "-o",
        files / "r.csv",
    ]
    status, _, err = run(
        capsys, *args, "--level", "eps-1", "--groups", "gender:rho=0.5", "age:rho=0.5"
    )
    assert status == 2 and "costs epsilon 2.48490665, above the level's budget 1" in err
    status, _, err = run(capsys, *args, "--level", "eps-9", "--groups", "gender+age:epsilon=1")
    assert status == 2 and "Level 'eps-9' does not exist; levels: eps-1, eps-4" in err
    status, _, err = run(capsys, *args, "--level", "eps-1", "--groups", "gender:epsilon=1")
    assert status == 2 and "Attribute 'age' is in no group" in err
    assert not (files / "r.csv").exists()


def test_release_without_a_seed_uses_fresh_randomness(files, capsys):
    big = pd.concat([toy_table()] * 50, ignore_index=True)  # 500 rows: two draws differ surely
    big.to_csv(files / "big.csv", index=False)
    draws = []
    for k in range(2):
        path = files / f"b{k}.csv"
        run(
            capsys,
            "dp",
            "release",
            files / "big.csv",
            "--config",
            files / "round.json",
            "--level",
            "eps-1",
            "--groups",
            "gender+age:epsilon=1",
            "-o",
            path,
        )
        draws.append(path.read_text())
    assert draws[0] != draws[1]


def test_estimate_bt_br_bi_and_score(files, capsys):
    config = load_dp_config(files / "round.json")
    plan = parse_release_declaration(
        {"groups": [{"attributes": ["gender"], "rho": 0.5}, {"attributes": ["age"], "rho": 0.5}]},
        config,
    )
    release = pk_release(toy_table(), config, plan, np.random.default_rng(7))
    release.to_csv(files / "release.csv", index=False)
    groups = ["--groups", "gender:rho=0.5", "age:rho=0.5"]
    status, _, _ = run(
        capsys,
        "dp",
        "estimate",
        files / "release.csv",
        "--config",
        files / "round.json",
        "--estimator",
        "BR",
        *groups,
        "-o",
        files / "br.csv",
    )
    assert status == 0
    estimates = read_estimate(files / "br.csv", config)
    expected = reconstruct(
        [1, 3, 2, 1, 2, 1], target_channel(plan, config, ("gender", "age"))
    ).estimate
    assert np.allclose(estimates["gender_age"], expected)
    status, out, _ = run(
        capsys,
        "dp",
        "score",
        files / "br.csv",
        "--truth",
        files / "table.csv",
        "--config",
        files / "round.json",
        "--format",
        "json",
    )
    scores = json.loads(out)
    assert round(scores["targets"]["gender_age"]["l2"], 4) == 3.8726  # EX7's BR
    assert round(scores["targets"]["gender_age"]["spearman"], 4) == 0.3339
    status, _, _ = run(
        capsys,
        "dp",
        "estimate",
        files / "release.csv",
        "--config",
        files / "round.json",
        "--estimator",
        "BT",
        "-o",
        files / "bt.csv",
    )
    assert read_estimate(files / "bt.csv", config)["gender_age"].tolist() == [1, 3, 2, 1, 2, 1]
    status, out, _ = run(
        capsys,
        "dp",
        "score",
        files / "bt.csv",
        "--truth",
        files / "table.csv",
        "--config",
        files / "round.json",
    )
    assert status == 0 and "gender_age" in out and "2.4495" in out and "mean" in out
    status, _, _ = run(
        capsys,
        "dp",
        "estimate",
        files / "release.csv",
        "--config",
        files / "round.json",
        "--estimator",
        "BI",
        *groups,
        "-o",
        files / "bi.csv",
    )
    bi = read_estimate(files / "bi.csv", config)["gender_age"]
    assert bi.sum() == pytest.approx(10)  # A⁻¹ keeps the total


def test_score_of_a_bad_estimate_exits_2(files, capsys):
    (files / "bad.csv").write_text("target,age,gender,count\n")
    status, _, err = run(
        capsys,
        "dp",
        "score",
        files / "bad.csv",
        "--truth",
        files / "table.csv",
        "--config",
        files / "round.json",
    )
    assert status == 2 and err.strip() == (
        "error: bad.csv: the header must be target,gender,age,count; "
        "misordered column(s): 'age', 'gender'"
    )
    (files / "truth.csv").write_text("gender,age\nF,17-\nM,18-24\n")
    status, _, err = run(
        capsys,
        "dp",
        "score",
        files / "bad.csv",
        "--truth",
        files / "truth.csv",
        "--config",
        files / "round.json",
    )
    assert (
        status == 2
        and "Column 'age' holds values outside its declared domain: row 1 ('17-')" in err
    )


def test_check_gives_the_verdict_and_message_of_the_server_s_check(files, capsys):
    lines = ["target,gender,age,count", "gender,F,,4", "gender,M,,6"]
    lines += [f"gender_age,{g},{a},1" for g in "FM" for a in ("<=17", "18-24", "25-34")]
    (files / "estimate.csv").write_text("\n".join(lines) + "\n")
    status, out, _ = run(
        capsys, "dp", "check", files / "estimate.csv", "--config", files / "round.json"
    )
    assert status == 0 and out.strip().endswith("valid (2 target(s), 8 cells)")
    status, out, _ = run(
        capsys,
        "--lang",
        "ja",
        "dp",
        "check",
        files / "estimate.csv",
        "--config",
        files / "round.json",
    )
    assert status == 0 and out.strip().endswith("有効です（対象 2 個、8 セル）")
    assert "valid" not in out
    (files / "estimate.csv").write_text("\n".join(lines[:-1]) + "\n")
    status, _, err = run(
        capsys,
        "--lang",
        "ja",
        "dp",
        "check",
        files / "estimate.csv",
        "--config",
        files / "round.json",
    )
    assert status == 2
    with pytest.raises(DPError) as raised:
        read_estimate(files / "estimate.csv", load_dp_config(files / "round.json"))
    assert err.strip() == f"エラー: {raised.value.render('ja')}"
    assert "(M,25-34)" in err


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_check_refuses_a_latin1_estimate_as_the_server_does(files, capsys, lang):
    lines = ["target,gender,age,count", "gender,F,,4", "gender,M,,6"]
    lines += [f"gender_age,{g},{a},1" for g in "FM" for a in ("<=17", "18-24", "25-34")]
    data = ("\n".join(lines) + "\n").replace("gender,F,,4", "gender,Femäle,,4").encode("latin-1")
    (files / "my_estimate.csv").write_bytes(data)
    status, _, err = run(
        capsys,
        "--lang",
        lang,
        "dp",
        "check",
        files / "my_estimate.csv",
        "--config",
        files / "round.json",
    )
    offset = data.index(b"\xe4")
    expected = {
        "en": "error: my_estimate.csv is not UTF-8 (it looks like Windows-1252 (Latin-1)): "
        f"the first byte that is not UTF-8 is on line 2 of the file (byte offset {offset}).",
        "ja": "エラー: my_estimate.csv は UTF-8 ではありません（Windows-1252 (Latin-1) の"
        f"ようです）。UTF-8 でない最初のバイトはファイルの 2 行目（バイト位置 {offset}）に"
        "あります。",
    }
    assert status == 2 and err.startswith(expected[lang])


def test_the_module_runs_in_a_fresh_interpreter(files):
    env = {k: v for k, v in os.environ.items() if k not in {"LC_ALL", "LC_MESSAGES"}}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "dp",
            "score",
            str(files / "table.csv"),
            "--truth",
            str(files / "table.csv"),
            "--config",
            str(files / "round.json"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**env, "LANG": "C.UTF-8"},
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "error: table.csv: the header must be target,gender,age,count; "
        "missing column(s): 'target', 'count'"
    )
    assert TOY_Z == [0, 2, 2, 1, 2, 3]


def test_the_readme_dp_commands_run(tmp_path, monkeypatch, capsys):
    import re
    import shlex

    readme = (ROOT / "docs" / "scoring.md").read_text(encoding="utf-8")
    section = readme[readme.index("### The DP round's mathematics") :]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1).replace("\\\n", " ")
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert len(commands) == 4
    monkeypatch.chdir(tmp_path)
    for command in commands:
        words = shlex.split(command.replace("fixtures/", f"{ROOT}/fixtures/"))
        assert words[:3] == [".venv/bin/python", "-m", "scoring"]
        assert main(words[3:]) == 0, command
        output = capsys.readouterr().out
    scores = json.loads(output)  # the last command prints JSON
    assert set(scores["targets"]) == {
        "sex_ageband",
        "sex_race",
        "sex_income",
        "ageband_race",
        "ageband_income",
        "race_income",
    }
    assert 0 < scores["l2"] < 6104  # BR at ε = 4 beats the ε = 0.1 expected BT of one target


def test_a_missing_or_mismatched_choice_is_a_usage_error_in_both_languages(files, capsys):
    """Exit 2 with the message in the language asked for (they were English SystemExits,
    exit status 1)."""
    sizes = ["dp", "epsilon", "--sizes", "2,7"]
    status, _, err = run(capsys, *sizes, "--rho", "0.1,0.2,0.3")
    assert (status, err) == (2, "error: give one rho, or one per size\n")
    status, _, err = run(capsys, "--lang", "ja", *sizes, "--epsilon", "0.1,0.2,0.3")
    assert status == 2
    assert err == "エラー: epsilon は 1 つか、--sizes のサイズごとに 1 つずつ指定してください\n"
    table = ["dp", "release", files / "table.csv", "--config", files / "round.json"]
    status, _, err = run(capsys, *table, "--level", "eps-4", "-o", files / "r.csv")
    assert (status, err) == (2, "error: give --groups or --declaration\n")
    table[1] = "estimate"
    status, _, err = run(capsys, "--lang", "ja", *table, "--estimator", "BR")
    assert status == 2
    assert err == "エラー: BR には開示の --groups か --declaration が必要です\n"
