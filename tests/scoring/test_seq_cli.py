"""``python -m scoring seq check`` and ``seq baseline`` print what the server computes."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from scoring.cli import main

ROOT = Path(__file__).resolve().parents[2]
F = ROOT / "fixtures" / "sequential"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_check_prints_structure_utility_and_risk(capsys):
    status, out, err = run(
        capsys,
        "seq",
        "check",
        F / "zhang_master.csv",
        F / "zhang_release_1.csv",
        F / "zhang_release_2_table4.csv",
        "--config",
        F / "zhang_config.json",
    )
    assert status == 0, err
    assert "MINV 0 (2-invariant: no); MU_min 2" in out
    assert "person 'Bob': signature {bronchitis, dyspepsia} at release 1 but " in out
    assert "RN_over  2 (persons with Risk_N > 1/2)" in out
    assert "RN_mean  0.525000" in out
    assert "IL 0.180204" in out


def test_check_json_and_per_person_table(capsys, tmp_path):
    target = tmp_path / "risk_per_person.csv"
    status, out, err = run(
        capsys,
        "seq",
        "check",
        F / "small_master.csv",
        F / "small_release_1.csv",
        F / "small_release_2.csv",
        "--config",
        F / "small_config.json",
        "--format",
        "json",
        "--per-person",
        target,
    )
    assert status == 0, err
    summary = json.loads(out)
    assert summary["RN_max"] == pytest.approx(2 / 3, rel=1e-9)
    assert summary["RA_max"] == pytest.approx(1 / 2, rel=1e-9)
    assert summary["MINV"] == 2 and summary["CF"] == 1
    table = pd.read_csv(target)
    assert list(table.columns) == [
        "pid",
        "lsf",
        "lsb",
        "sa",
        "groups_per_release",
        "P_N_true",
        "P_A_true",
        "MAP_N",
        "MAP_A",
    ]
    bob = table.set_index("pid").loc["Bob"]
    assert bob["P_N_true"] == pytest.approx(2 / 3) and bob["groups_per_release"] == "1;2"


def test_an_invalid_release_exits_2_with_the_spec_message(capsys):
    status, out, err = run(
        capsys,
        "seq",
        "check",
        F / "zhang_master.csv",
        F / "zhang_release_1.csv",
        F / "zhang_release_2_table9_as_printed.csv",
        "--config",
        F / "zhang_config.json",
    )
    assert status == 2
    assert err.strip() == (
        "error: release 2, row 1: pid 'Bob' must carry its true Disease 'dyspepsia', got "
        "'gastritis' (Def. 2(2))"
    )
    status, _, err = run(
        capsys,
        "--lang",
        "ja",
        "seq",
        "check",
        F / "small_master.csv",
        F / "small_release_1.csv",
        F / "small_release_2_tampered.csv",
        "--config",
        F / "small_config.json",
    )
    assert status == 2 and "列 'tampered' はこのラウンドでは使えません" in err


def test_baseline_command_writes_releases_that_check(capsys, tmp_path):
    one, two = tmp_path / "release_1.csv", tmp_path / "release_2.csv"
    config = F / "zhang_config.json"
    assert (
        run(
            capsys,
            "seq",
            "baseline",
            F / "zhang_master.csv",
            "--config",
            config,
            "--release",
            1,
            "-o",
            one,
        )[0]
        == 0
    )
    status, out, _ = run(
        capsys,
        "seq",
        "baseline",
        F / "zhang_master.csv",
        "--config",
        config,
        "--release",
        2,
        "--previous",
        one,
        "-o",
        two,
    )
    assert status == 0 and "Wrote" in out
    status, out, err = run(
        capsys,
        "seq",
        "check",
        F / "zhang_master.csv",
        one,
        two,
        "--config",
        config,
        "--format",
        "json",
    )
    assert status == 0, err
    assert json.loads(out)["MINV"] >= 2
    status, _, err = run(
        capsys,
        "seq",
        "baseline",
        F / "zhang_master.csv",
        "--config",
        config,
        "--release",
        2,
        "-o",
        two,
    )
    assert status == 2 and "needs --previous" in err


@pytest.mark.parametrize("release", [99999, 3, 0, -3])
@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "release {release} is out of range: the configuration allows releases 1 to 2"),
        ("ja", "公開データ {release} は範囲外です。設定で使える公開データは 1 から 2 までです"),
    ],
)
@pytest.mark.parametrize("previous", [False, True])
def test_baseline_refuses_a_release_the_configuration_does_not_have(
    capsys, tmp_path, release, lang, expected, previous
):
    """Not "needs --previous release_99998.csv", nor an empty file written for it."""
    out_file = tmp_path / "release.csv"
    more = ["--previous", F / "zhang_release_1.csv"] if previous else []
    status, out, err = run(
        capsys, "--lang", lang, "seq", "baseline", F / "zhang_master.csv",
        "--config", F / "zhang_config.json", "--release", release, *more, "-o", out_file,
    )  # fmt: skip
    assert status == 2 and out == "", (out, err)
    assert expected.format(release=release) in err
    assert not out_file.exists()


def test_the_baseline_and_check_refusals_of_the_line_are_said_in_japanese(capsys, tmp_path):
    """A second release without --previous, and more releases than the round has: in the
    language of --lang, not English whatever the language."""
    config = F / "zhang_config.json"
    status, _, err = run(
        capsys, "--lang", "ja", "seq", "baseline", F / "zhang_master.csv", "--config", config,
        "--release", 2, "-o", tmp_path / "release_2.csv",
    )  # fmt: skip
    assert status == 2 and err == (
        "エラー: 公開データ 2 には --previous release_1.csv（前の公開データ）が必要です。\n"
    )
    three = [F / "zhang_release_1.csv", F / "zhang_release_2_table4.csv", F / "zhang_release_1.csv"]
    arguments = ("seq", "check", F / "zhang_master.csv", *three, "--config", config)
    status, _, err = run(capsys, "--lang", "ja", *arguments)
    assert status == 2 and err == (
        "エラー: 公開データが 3 個指定されましたが、このラウンドの公開データは 2 個です。\n"
    )
    status, _, err = run(capsys, *arguments)
    assert status == 2 and err == "error: 3 releases given; the round has 2.\n"


def test_the_command_runs_as_a_module():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "seq",
            "check",
            "small_master.csv",
            "small_release_1.csv",
            "small_release_2_last.csv",
            "--config",
            "small_config_last.json",
        ],
        cwd=F,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "RN_over  0" in result.stdout


def test_the_printed_commands_run_the_kit_s_files_in_order(capsys, tmp_path, monkeypatch):
    """What the round page and the kit print (``baseline_command``, ``check_command``) is
    this command line's own syntax: run in a folder holding the kit's files, the baselines
    write releases 1 and 2 and the check passes them."""
    from scoring.sequential.cli import baseline_command, check_command

    for name, source in (
        ("master.csv", "zhang_master.csv"),
        ("T1.csv", "zhang_master.csv"),
        ("T2.csv", "zhang_master.csv"),
        ("config.json", "zhang_config.json"),
    ):
        (tmp_path / name).write_bytes((F / source).read_bytes())
    monkeypatch.chdir(tmp_path)
    for command in (baseline_command(1), baseline_command(2), check_command(2)):
        words = command.split()
        assert words[:3] == ["python", "-m", "scoring"]
        status, _out, err = run(capsys, *words[3:])
        assert status == 0, (command, err)
    assert (tmp_path / "release_2.csv").exists()
