"""``python -m scoring anonymize`` / ``attack`` on BANK (in this process: ``cli_runner``)."""

import json

import numpy as np
import pytest

import scoring
from scoring import kit
from scoring.kit._examples import bank, bank_config, bank_hierarchy
from tests.scoring.test_cli import run


def bank_files(folder):
    """``folder`` with the kit's BANK example: ``bank.csv``, ``round.json`` and
    ``attr_depth.json``."""
    scoring.write_csv(bank(), folder / "bank.csv")
    (folder / "round.json").write_text(json.dumps(bank_config().to_dict()))
    (folder / "attr_depth.json").write_text(json.dumps(bank_hierarchy(), ensure_ascii=False))
    return folder


@pytest.fixture
def files(tmp_path):
    return bank_files(tmp_path)


def test_help_lists_every_method_and_attack_with_parameters():
    done = run("anonymize", "--help")
    assert done.returncode == 0
    for name in kit.METHODS:
        assert f"  {name}: " in done.stdout
    assert "levels (levels, required; column:level,... e.g. age:1,pref:2)" in done.stdout
    attack = run("attack", "--help")
    for name in kit.ATTACK_ENTRIES:
        assert f"  {name}: " in attack.stdout
    assert "n (int, default 3)" in attack.stdout


def test_chained_methods_equal_the_recipe_and_the_library(files):
    out, recipe_out = files / "a.csv", files / "r.csv"
    done = run(
        "anonymize",
        files / "bank.csv",
        "--config",
        files / "round.json",
        "--attr-depth",
        files / "attr_depth.json",
        "--method",
        "generalize",
        "--param",
        "levels=age:2,pref:2",
        "--method",
        "remove_record",
        "--param",
        "k=2",
        "--method",
        "swap_in_class",
        "--seed",
        "7",
        "-o",
        out,
    )
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout
        == f"Wrote 10 rows (6 deleted) to {out}: generalize → remove_record → swap_in_class.\n"
    )
    steps = [
        {"method": "generalize", "levels": {"age": 2, "pref": 2}},
        {"method": "remove_record", "params": {"k": 2}},
        {"method": "swap_in_class"},
    ]
    (files / "recipe.json").write_text(json.dumps(steps))
    done = run(
        "anonymize",
        files / "bank.csv",
        "--config",
        files / "round.json",
        "--attr-depth",
        files / "attr_depth.json",
        "--recipe",
        files / "recipe.json",
        "--seed",
        "7",
        "-o",
        recipe_out,
    )
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == recipe_out.read_bytes()
    rng = np.random.default_rng(7)
    table = kit.generalize(
        bank(), bank_config(), hierarchy=bank_hierarchy(), levels={"age": 2, "pref": 2}, seed=rng
    )
    table = kit.remove_record(table, bank_config(), k=2)
    table = kit.swap_in_class(table, bank_config(), seed=rng)
    assert scoring.read_table(out).values.tolist() == table.values.tolist()
    assert run("check", files / "bank.csv", out, "--config", files / "round.json").returncode == 0


def test_errors_are_clear_and_exit_2_in_both_languages(files):
    args = [
        "anonymize",
        files / "bank.csv",
        "--config",
        files / "round.json",
        "-o",
        files / "o.csv",
    ]
    done = run(*args, "--method", "top_bottom_coding", "--param", "column=age", "--param", "top=80")
    assert done.returncode == 2
    assert done.stderr == "error: column 'age': code value 80 does not occur in the column\n"
    done = run(*args, "--method", "remove_record", "--param", "k=2", lang="ja_JP.UTF-8")
    assert done.returncode == 2 and "すべての行が削除されます" in done.stderr
    assert not (files / "o.csv").exists()
    done = run(*args, "--method", "nosuch")
    assert done.returncode == 2 and "unknown method 'nosuch'" in done.stderr
    done = run(*args, "--method", "mdav", "--param", "k=x")
    assert done.returncode == 2 and "mdav: parameter 'k': cannot read 'x' as int" in done.stderr


@pytest.mark.parametrize("method", sorted(kit.ATTACK_ENTRIES))
def test_attack_writes_a_correspondence_table_the_platform_reads(files, method):
    target = scoring.publish_target(bank(), seed=1)
    scoring.write_csv(target.table, files / "target.csv")
    done = run(
        "attack",
        files / "target.csv",
        files / "bank.csv",
        "--config",
        files / "round.json",
        "--method",
        method,
        "--seed",
        "3",
        "-o",
        files / "answer.csv",
    )
    assert done.returncode == 0, done.stderr
    answer = scoring.read_correspondence(files / "answer.csv", rows=10, reference_rows=10)
    assert scoring.score_correspondence(answer, target.truth).correct >= (
        5 if method != "E1" else 0
    )


def test_the_manual_kit_commands_run_on_adult(tmp_path):
    """The manual's kit example (docs/scoring.md): attr-depth, a chain of methods, publish,
    the lecture attack."""
    import re

    from tests.scoring.cli_runner import ROOT

    manual = (ROOT / "docs" / "scoring.md").read_text(encoding="utf-8")
    block = re.search(r"### Starter kit.*?```bash\n(.*?)```", manual, re.S).group(1)
    commands = [
        line.replace("\\\n", " ")
        for line in re.sub(r"\\\n\s*", " ", block).splitlines()
        if line.startswith(".venv/bin/python -m scoring")
    ]
    assert [c.split()[3] for c in commands] == ["attr-depth", "anonymize", "attack"]
    config = ROOT / "fixtures" / "adult_round.json"
    depth = run("attr-depth", ROOT / "fixtures" / "adult.csv", "--config", config)
    assert depth.returncode == 0, depth.stderr
    (tmp_path / "attr_depth.json").write_text(depth.stdout, encoding="utf-8")
    args = commands[1].split()[3:]
    args[args.index("attr_depth.json")] = tmp_path / "attr_depth.json"
    args[args.index("anonymized.csv")] = tmp_path / "anonymized.csv"
    done = run(*args)
    assert done.returncode == 0, done.stderr
    anonymized = scoring.read_table(tmp_path / "anonymized.csv")
    target = scoring.publish_target(anonymized, seed=5)
    scoring.write_csv(target.table, tmp_path / "P.csv")
    args = commands[2].split()[3:]
    args[args.index("P.csv")] = tmp_path / "P.csv"  # the name publish's command writes
    args[args.index("answer.csv")] = tmp_path / "answer.csv"
    done = run(*args)
    assert done.returncode == 0, done.stderr
    answer = scoring.read_correspondence(
        tmp_path / "answer.csv", rows=len(target.table), reference_rows=32561
    )
    assert scoring.score_correspondence(answer, target.truth).correct > 1000
