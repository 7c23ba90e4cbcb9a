"""``python -m scoring synth …``: the synthetic-data round on the command line.

The server's code, so every number is the server's for the same files.

synth describe ORIGINAL --config CFG [-o POPULATION.json]
    What a team's kit needs of the original table (domains, ranges, bin edges; no row).
synth check RELEASE --population POPULATION.json
    Check a release as the server does (exit 2 with the server's message).
synth score-release RELEASE --population P.json --train TRAIN.csv --holdout HOLDOUT.csv
    U_ML, U_1, U_2, R_copy and DCR_5 of the members and of the holdout. Without the
    round's holdout (kept secret), pass any table of the population — e.g. the practice
    split's or the auxiliary table — to see the same scores on it.
synth baseline TRAIN.csv --population P.json [--rows N] [--seed N] -o SYNTHETIC.csv
    The sample release: independent marginals of the members (uploadable as it is).
synth attack-dcr RELEASE CHALLENGE.csv --population P.json -o ANSWER.csv
    The sample attack: the DCR attack's answer to a challenge set (uploadable as it is).
synth attack-density RELEASE CHALLENGE.csv AUX.csv --population P.json -o ANSWER.csv
    The built-in density attack's answer, with the round's density_bandwidth (read from
    the population's configuration): the server's scores for the same files.
synth practice AUX.csv --population P.json [--challenge N] [--seed N] --out DIR
    A labelled practice split of the auxiliary table: practice_train.csv (the members),
    practice_challenge.csv (id and columns) and practice_truth.csv (id, member, half).
synth score-attack ANSWER.csv --truth TRUTH.csv [--fpr L ...] [--format table|json]
    AUC, TPR@FPR and the advantage on the dev and the final half.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from scoring.bounded_json import load_json_file
from scoring.cli_usage import integer_option, number_option
from scoring.messages import render
from scoring.synthetic.attack import read_attack, score_attack
from scoring.synthetic.config import parse_config
from scoring.synthetic.draws import practice_draw
from scoring.synthetic.kit import (
    challenge_text,
    dcr_answer,
    density_answer,
    independent_marginals,
    table_text,
)
from scoring.synthetic.population import Population, population_from_description, read_population
from scoring.synthetic.release import read_challenge, read_release, typed_rows
from scoring.synthetic.utility import release_scores
from scoring.tables import read_table

HALVES = ("dev", "final")


def _json(path: str):
    """A JSON side file (``load_json_file``: its errors, one that is not UTF-8 included,
    name the file)."""
    return load_json_file(path)


def _population(path: str) -> Population:
    return population_from_description(_json(path))


def _members(path: str, population: Population) -> pd.DataFrame:
    name = Path(path).name
    return typed_rows(read_table(path, name=name), population, name=name, max_rows=None)


def _write(text: str, path: str) -> None:
    Path(path).write_text(text, encoding="utf-8")


def _print_scores(scores: dict, fmt: str) -> None:
    if fmt == "json":
        print(json.dumps(scores, indent=2))
        return
    for key, value in scores.items():
        if isinstance(value, dict):
            print(f"[{key}]")
            for inner, number in value.items():
                print(f"  {inner:<16} {number:.6f}")
        else:
            print(f"{key:<16} {value:.6f}")


def cmd_describe(args) -> int:
    config = parse_config(_json(args.config))
    population = read_population(args.original, config)
    text = json.dumps(population.describe(), ensure_ascii=False, indent=1) + "\n"
    if args.output:
        _write(text, args.output)
    else:
        print(text, end="")
    return 0


def cmd_check(args) -> int:
    release = read_release(args.release, _population(args.population), name=Path(args.release).name)
    print(render("cli.release_ok", {"rows": len(release)}, args.lang))
    return 0


def cmd_score_release(args) -> int:
    population = _population(args.population)
    release = read_release(args.release, population, name=Path(args.release).name)
    scores = release_scores(
        release, _members(args.train, population), _members(args.holdout, population), population
    )
    _print_scores(scores.as_dict(), args.format)
    return 0


def cmd_baseline(args) -> int:
    population = _population(args.population)
    members = _members(args.train, population)
    rows = args.rows or len(members)
    _write(table_text(independent_marginals(members, rows=rows, seed=args.seed)), args.output)
    return 0


def cmd_attack_dcr(args) -> int:
    population = _population(args.population)
    release = read_release(args.release, population, name=Path(args.release).name)
    challenge = read_challenge(args.challenge, population, name=Path(args.challenge).name)
    _write(
        dcr_answer(release, challenge, population).to_csv(index=False, lineterminator="\n"),
        args.output,
    )
    return 0


def cmd_attack_density(args) -> int:
    population = _population(args.population)
    release = read_release(args.release, population, name=Path(args.release).name)
    challenge = read_challenge(args.challenge, population, name=Path(args.challenge).name)
    aux = _members(args.aux, population)
    _write(
        density_answer(release, aux, challenge, population).to_csv(
            index=False, lineterminator="\n"
        ),
        args.output,
    )
    return 0


def cmd_practice(args) -> int:
    population = _population(args.population)
    aux = _members(args.aux, population)
    draw = practice_draw(len(aux), n_challenge=args.challenge, seed=args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    _write(table_text(aux.iloc[draw.members].reset_index(drop=True)), out / "practice_train.csv")
    challenge = aux.iloc[draw.challenge].reset_index(drop=True)
    _write(challenge_text(challenge), out / "practice_challenge.csv")
    truth = pd.DataFrame(
        {
            "id": np.arange(1, len(draw.labels) + 1),
            "member": draw.labels,
            "half": np.where(draw.dev, "dev", "final"),
        }
    )
    _write(truth.to_csv(index=False, lineterminator="\n"), out / "practice_truth.csv")
    return 0


def read_truth(path: str) -> tuple[np.ndarray, np.ndarray]:
    """``(labels, dev)`` of a truth file ``id,member,half`` in id order."""
    truth = read_table(path, name=Path(path).name)
    order = np.argsort(truth["id"].astype(int).to_numpy())
    labels = truth["member"].astype(int).to_numpy()[order]
    dev = (truth["half"].to_numpy() == "dev")[order]
    return labels, dev


def cmd_score_attack(args) -> int:
    labels, dev = read_truth(args.truth)
    scores = read_attack(args.answer, len(labels), name=Path(args.answer).name)
    result = score_attack(scores, labels, dev, fpr_levels=tuple(args.fpr))
    _print_scores({"dev": result.dev, "final": result.final}, args.format)
    return 0


def add_synth_commands(commands, lang: str = "en") -> None:
    """Register ``synth …`` under the ``python -m scoring`` parser's subcommands (the
    command's help line in ``lang``)."""
    synth = commands.add_parser("synth", help=render("help.synth", lang=lang))
    sub = synth.add_subparsers(required=True)

    p = sub.add_parser("describe", help=render("help.synth.describe", lang=lang))
    p.add_argument("original")
    p.add_argument("--config", required=True)
    p.add_argument("-o", "--output")
    p.set_defaults(handler=cmd_describe)

    p = sub.add_parser("check", help=render("help.synth.check", lang=lang))
    p.add_argument("release")
    p.add_argument("--population", required=True)
    p.set_defaults(handler=cmd_check)

    p = sub.add_parser("score-release", help=render("help.synth.score_release", lang=lang))
    p.add_argument("release")
    p.add_argument("--population", required=True)
    p.add_argument("--train", required=True)
    p.add_argument("--holdout", required=True)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=cmd_score_release)

    p = sub.add_parser("baseline", help=render("help.synth.baseline", lang=lang))
    p.add_argument("train")
    p.add_argument("--population", required=True)
    p.add_argument("--rows", type=integer_option(lang), default=0)
    p.add_argument("--seed", type=integer_option(lang), default=0)
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(handler=cmd_baseline)

    p = sub.add_parser("attack-dcr", help=render("help.synth.attack_dcr", lang=lang))
    p.add_argument("release")
    p.add_argument("challenge")
    p.add_argument("--population", required=True)
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(handler=cmd_attack_dcr)

    p = sub.add_parser("attack-density", help=render("help.synth.attack_density", lang=lang))
    p.add_argument("release")
    p.add_argument("challenge")
    p.add_argument("aux")
    p.add_argument("--population", required=True)
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(handler=cmd_attack_density)

    p = sub.add_parser("practice", help=render("help.synth.practice", lang=lang))
    p.add_argument("aux")
    p.add_argument("--population", required=True)
    p.add_argument("--challenge", type=integer_option(lang), default=200)
    p.add_argument("--seed", type=integer_option(lang), default=0)
    p.add_argument("--out", required=True)
    p.set_defaults(handler=cmd_practice)

    p = sub.add_parser("score-attack", help=render("help.synth.score_attack", lang=lang))
    p.add_argument("answer")
    p.add_argument("--truth", required=True)
    p.add_argument("--fpr", type=number_option(lang), nargs="+", default=[0.1])
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=cmd_score_attack)
