"""``python -m scoring synth …`` (in this process, and once in a child interpreter): the kit
gives the server's numbers for the same files."""

import json
from pathlib import Path

import numpy as np
import pytest

from scoring.synthetic.attack import attack_scores, density_attack, read_attack, score_attack
from scoring.synthetic.config import parse_config
from scoring.synthetic.population import population_from_description, read_population
from scoring.synthetic.release import read_release
from scoring.synthetic.utility import release_scores
from tests.scoring.cli_runner import as_child, in_process, refused

ROOT = Path(__file__).resolve().parents[2]
ADULT = ROOT / "fixtures" / "adult.csv"
NUMERIC = {"age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"}


def run(*args, lang="en"):
    """``python -m scoring synth …`` in this process (``tests/scoring/cli_runner``)."""
    return in_process("--lang", lang, "synth", *args)


@pytest.fixture(scope="module")
def adult(tmp_path_factory):
    folder = tmp_path_factory.mktemp("synth")
    header = ADULT.read_text().splitlines()[0].split(",")
    config = {"columns": {c: "numeric" if c in NUMERIC else "categorical" for c in header}}
    (folder / "config.json").write_text(json.dumps({**config, "label": "income"}))
    assert (
        run(
            "describe", ADULT, "--config", folder / "config.json", "-o", folder / "pop.json"
        ).returncode
        == 0
    )
    lines = ADULT.read_text().splitlines(keepends=True)
    (folder / "train.csv").write_text("".join(lines[:1] + lines[1:801]))
    (folder / "holdout.csv").write_text("".join(lines[:1] + lines[5001:6001]))
    (folder / "aux.csv").write_text("".join(lines[:1] + lines[9001:9401]))
    return folder


def test_the_description_reproduces_the_populations_bins_and_embedding(adult):
    config = parse_config(json.loads((adult / "config.json").read_text()))
    server = read_population(ADULT, config)
    kit = population_from_description(json.loads((adult / "pop.json").read_text()))
    rows = server.rows(np.arange(0, 32561, 97))
    assert np.array_equal(server.codes(rows), kit.codes(rows))
    assert np.array_equal(server.embed(rows), kit.embed(rows))


def test_the_sample_release_is_valid_and_scores_as_the_library_does(adult):
    assert (
        run(
            "baseline",
            adult / "train.csv",
            "--population",
            adult / "pop.json",
            "--seed",
            5,
            "-o",
            adult / "syn.csv",
        ).returncode
        == 0
    )
    assert run("check", adult / "syn.csv", "--population", adult / "pop.json").returncode == 0
    result = run(
        "score-release",
        adult / "syn.csv",
        "--population",
        adult / "pop.json",
        "--train",
        adult / "train.csv",
        "--holdout",
        adult / "holdout.csv",
        "--format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    config = parse_config(json.loads((adult / "config.json").read_text()))
    server = read_population(ADULT, config)
    expected = release_scores(
        read_release(adult / "syn.csv", server),
        read_release(adult / "train.csv", server),
        server.rows(np.arange(5000, 6000)),
        server,
    )
    assert json.loads(result.stdout) == expected.as_dict()  # bit for bit: same code, same inputs


def test_practice_split_sample_attack_and_its_score(adult):
    pop = adult / "pop.json"
    assert (
        run(
            "practice",
            adult / "aux.csv",
            "--population",
            pop,
            "--challenge",
            40,
            "--out",
            adult / "practice",
        ).returncode
        == 0
    )
    practice = adult / "practice"
    assert (
        run(
            "baseline",
            practice / "practice_train.csv",
            "--population",
            pop,
            "-o",
            adult / "p_syn.csv",
        ).returncode
        == 0
    )
    assert (
        run(
            "attack-dcr",
            adult / "p_syn.csv",
            practice / "practice_challenge.csv",
            "--population",
            pop,
            "-o",
            adult / "answer.csv",
        ).returncode
        == 0
    )
    scores = read_attack(adult / "answer.csv", 40)  # uploadable as it is
    result = run(
        "score-attack",
        adult / "answer.csv",
        "--truth",
        practice / "practice_truth.csv",
        "--fpr",
        0.1,
        0.25,
        "--format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    truth = np.loadtxt(practice / "practice_truth.csv", delimiter=",", skiprows=1, dtype=str)
    labels, dev = truth[:, 1].astype(int), truth[:, 2] == "dev"
    expected = score_attack(scores, labels, dev, fpr_levels=(0.1, 0.25))
    assert json.loads(result.stdout) == {"dev": expected.dev, "final": expected.final}


def test_the_kits_density_attack_is_the_servers_with_the_rounds_bandwidth(adult):
    """A verbatim copy of the members attacked with ``attack-density``: the answer's scores are
    the library's (the bandwidth travels in ``population.json``), and they find the copy."""
    pop = json.loads((adult / "pop.json").read_text())
    assert pop["config"]["density_bandwidth"] == 0.1
    lines = ADULT.read_text().splitlines(keepends=True)
    rows = lines[1:51] + lines[5001:5051]  # 50 members (of train.csv), 50 holdout rows
    (adult / "density_challenge.csv").write_text(
        "id," + lines[0] + "".join(f"{k},{row}" for k, row in enumerate(rows, start=1))
    )
    result = run(
        "attack-density",
        adult / "train.csv",
        adult / "density_challenge.csv",
        adult / "aux.csv",
        "--population",
        adult / "pop.json",
        "-o",
        adult / "density_answer.csv",
    )
    assert result.returncode == 0, result.stderr
    scores = read_attack(adult / "density_answer.csv", 100)  # uploadable as it is
    server = read_population(ADULT, parse_config(pop["config"]))
    expected = density_attack(
        read_release(adult / "train.csv", server),
        read_release(adult / "aux.csv", server),
        server.rows(np.r_[np.arange(0, 50), np.arange(5000, 5050)]),
        server,
    )
    assert np.array_equal(scores, expected)  # bit for bit
    labels = np.r_[np.ones(50, int), np.zeros(50, int)]
    assert attack_scores(labels, scores, fpr_levels=(0.1,))["auc"] > 0.7


def test_a_refused_file_exits_2_with_the_message_in_japanese(adult):
    bad = adult / "bad.csv"
    bad.write_text(ADULT.read_text().splitlines()[0] + "\n" + "200," * 14 + "<=50K\n")
    result = run("check", bad, "--population", adult / "pop.json", lang="ja")
    assert result.returncode == 2
    assert "列 'workclass'" in result.stderr or "列 'age'" in result.stderr
    # Headed in Japanese too, as the pwscup client and the usage errors are (it said error:).
    assert result.stderr.startswith("エラー: ")
    # The entry point itself, in a child interpreter: the same refusal, word for word.
    child = as_child("--lang", "ja", "synth", "check", bad, "--population", adult / "pop.json")
    assert (child.returncode, child.stderr) == (2, result.stderr)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_side_file_that_is_not_utf8_is_an_error_line(adult, tmp_path, lang):
    """``describe --config`` and ``check --population`` read a JSON side file: one that is
    not UTF-8 is refused with an error line (exit 2), not a traceback."""
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"columns": {"\xe9": "numeric"}}')
    for args in (
        ("describe", ADULT, "--config", latin),
        ("check", "--population", latin, adult / "train.csv"),
    ):
        done = run(*args, lang=lang)
        refused(done, "latin.json" if lang == "en" else "UTF-8")
