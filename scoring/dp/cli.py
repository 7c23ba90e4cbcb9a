"""``python -m scoring dp ...``: the DP round's mathematics on local files (the server's code).

dp epsilon --sizes 2,7 (--rho R[,R...] | --epsilon E[,E...] | --total E) [--rows N]
dp release TABLE --config CFG --level L (--groups SPEC ... | --declaration D.json)
           [--seed S] [--no-shuffle] -o release.csv
dp estimate RELEASE --config CFG --estimator BT|BR|BI [--groups SPEC ... | --declaration D.json]
           -o estimate.csv
dp score ESTIMATE --truth TABLE --config CFG
dp check ESTIMATE --config CFG

``check`` is the server's check of an uploaded estimate.csv: the same verdict and message.

A group SPEC is ``ATTR[+ATTR...]:rho=R`` or ``ATTR[+ATTR...]:epsilon=E`` (E a decimal or
p/q), e.g. ``--groups gender:epsilon=0.3 age:epsilon=0.7``. Every command takes
``--format table|json``. Exit status 2 with the spec's message for bad input.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys

import numpy as np

from scoring.cli_usage import integer_option
from scoring.dp.config import load_dp_config
from scoring.dp.data import table_codes, true_histograms, validate_original, validate_release_table
from scoring.dp.errors import DPError, render_dp
from scoring.dp.estimators import ESTIMATORS, estimate_from_release, read_estimate, write_estimate
from scoring.dp.exact import ceil_nano, exact_text, format_epsilon, parse_epsilon
from scoring.dp.pk import (
    codes_to_table,
    epsilon_from_rho,
    equal_rho,
    k_of,
    parse_release_declaration,
    parse_rho,
    rho_from_epsilon,
    run_pk,
    system_generator,
)
from scoring.dp.utility import score_estimates
from scoring.messages import clip, render
from scoring.numbers import integer_of, number_of
from scoring.tables import read_table, write_csv


def _numbers(text: str, parse):
    return [parse(part) for part in text.split(",") if part.strip()]


def _group_spec(text: str, lang: str = "en") -> dict:
    names, sep, setting = text.partition(":")
    key, eq, value = setting.partition("=")
    key = key.strip().lower()
    if not sep or not eq or key not in ("rho", "epsilon") or not names.strip():
        raise argparse.ArgumentTypeError(
            render_dp("dp.cli.group_spec", {"value": repr(text)}, lang)
        )
    value = value.strip()
    if key == "rho":
        try:
            value = number_of(value)
        except ValueError:
            pass  # parse_release_declaration names it
    return {"attributes": [n.strip() for n in names.split("+")], key: value}


def _declaration(args) -> dict | None:
    if getattr(args, "declaration", None):
        with open(args.declaration, encoding="utf-8-sig") as handle:
            try:
                return json.load(handle)
            except ValueError as exc:
                raise DPError("dp.release.not_object") from exc
    if getattr(args, "groups", None):
        return {"mechanism": "pk_anonymization", "groups": list(args.groups)}
    return None


def _emit(result: dict, args, lines: list[str]) -> None:
    if args.format == "json":
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print("\n".join(lines))


def cmd_epsilon(args) -> int:
    try:
        sizes = _numbers(args.sizes, integer_of)
    except ValueError:
        sizes = []
    if not sizes or any(v < 2 for v in sizes):
        raise DPError("dp.cli.sizes", value=clip(args.sizes))
    if args.rows is not None and args.rows < 1:
        raise DPError("dp.cli.rows", value=args.rows)
    groups = []
    if args.total is not None:
        total = parse_epsilon(args.total)
        rho = equal_rho(float(total), sizes)
        groups = [{"cells": v, "rho": rho, "epsilon": epsilon_from_rho(rho, v)} for v in sizes]
        charge = total
    elif args.epsilon is not None:
        epsilons = _numbers(args.epsilon, lambda s: parse_epsilon(s, positive=False))
        epsilons = epsilons * len(sizes) if len(epsilons) == 1 else epsilons
        if len(epsilons) != len(sizes):
            raise DPError("dp.cli.one_per_size", name="epsilon")
        groups = [
            {"cells": v, "rho": rho_from_epsilon(float(e), v), "epsilon": float(e)}
            for v, e in zip(sizes, epsilons, strict=True)
        ]
        charge = sum(epsilons, start=parse_epsilon("0", positive=False))
    else:
        rhos = _numbers(args.rho, parse_rho)
        rhos = rhos * len(sizes) if len(rhos) == 1 else rhos
        if len(rhos) != len(sizes):
            raise DPError("dp.cli.one_per_size", name="rho")
        groups = [
            {"cells": v, "rho": r, "epsilon": epsilon_from_rho(r, v)}
            for v, r in zip(sizes, rhos, strict=True)
        ]
        charge = ceil_nano(math.fsum(g["epsilon"] for g in groups))
    epsilon = math.fsum(g["epsilon"] for g in groups)
    if charge <= 0:
        raise DPError("dp.release.zero")
    result = {"groups": groups, "epsilon": epsilon, "charge": exact_text(charge)}
    lines = [
        f"group {k}: V={g['cells']} rho={g['rho']:.6f} epsilon={g['epsilon']:.6f}"
        for k, g in enumerate(groups, start=1)
    ]
    lines.append(f"epsilon (eq. 6) = {epsilon:.9f}; charged {format_epsilon(charge)}")
    if args.rows is not None:
        result["k"] = k_of(args.rows, epsilon)
        lines.append(f"k (eq. 7, N={args.rows}) = {result['k']:.4f}")
    _emit(result, args, lines)
    return 0


def cmd_release(args) -> int:
    config = load_dp_config(args.config)
    table = validate_original(read_table(args.table, name="the table"), config)
    level = config.level(args.level)
    declaration = _declaration(args)
    if declaration is None:
        raise DPError("dp.cli.groups_needed")
    plan = parse_release_declaration(declaration, config)
    if plan.charge > level.epsilon:
        raise DPError(
            "dp.release.over_budget",
            cost=format_epsilon(plan.charge),
            budget=format_epsilon(level.epsilon),
        )
    rng = np.random.default_rng(args.seed) if args.seed is not None else system_generator()
    codes = run_pk(
        table_codes(table, config, plan.attributes), plan, config, rng, shuffle=not args.no_shuffle
    )
    write_csv(codes_to_table(codes, config, plan.attributes), args.output)
    result = plan.as_dict(len(table))
    result["rows"] = len(table)
    result["output"] = args.output
    lines = [
        f"group {k}: {'+'.join(g['attributes'])} rho={g['rho']:.6f} epsilon={g['epsilon']:.6f}"
        for k, g in enumerate(result["groups"], start=1)
    ]
    lines.append(
        f"epsilon (eq. 6) = {plan.epsilon:.9f}; charged {format_epsilon(plan.charge)} "
        f"of level {level.id}'s {format_epsilon(level.epsilon)}; k (eq. 7) = {result['k']:.4f}"
    )
    wrote = {"rows": len(table), "output": args.output}
    lines.append(render_dp("dp.cli.wrote_rows", wrote, getattr(args, "lang", None)))
    _emit(result, args, lines)
    return 0


def cmd_estimate(args) -> int:
    config = load_dp_config(args.config)
    name = os.path.basename(args.release)
    release = read_table(args.release, name=name)
    codes = validate_release_table(release, config, rows=None, name=name)
    declaration = _declaration(args)
    if declaration is None and args.estimator != "BT":
        raise DPError("dp.cli.estimator_groups", estimator=args.estimator)
    plan = None if declaration is None else parse_release_declaration(declaration, config)
    estimates = estimate_from_release(codes, plan, config, args.estimator)
    with open(args.output, "wb") as handle:
        handle.write(write_estimate(estimates, config))
    result = {
        "estimator": args.estimator,
        "rows": len(release),
        "targets": {key: [float(v) for v in value] for key, value in estimates.items()},
        "output": args.output,
    }
    lines = [f"{args.estimator} estimate of {len(estimates)} target(s) from {len(release)} rows"]
    lines += [
        f"  {key}: {len(value)} cells, sum {float(np.sum(value)):.4f}"
        for key, value in estimates.items()
    ]
    lines.append(render_dp("dp.cli.wrote", {"output": args.output}, getattr(args, "lang", None)))
    _emit(result, args, lines)
    return 0


def cmd_score(args) -> int:
    config = load_dp_config(args.config)
    truth = validate_original(read_table(args.truth, name="the truth table"), config)
    estimates = read_estimate(args.estimate, config, name=os.path.basename(args.estimate))
    result = score_estimates(estimates, true_histograms(truth, config))
    lines = [f"{'target':<24} {'L2':>12} {'Spearman':>9}"]
    for key, value in result["targets"].items():
        lines.append(f"{key:<24} {value['l2']:>12.4f} {value['spearman']:>9.4f}")
    lines.append(f"{'mean':<24} {result['l2']:>12.4f} {result['spearman']:>9.4f}")
    _emit(result, args, lines)
    return 0


def cmd_check(args) -> int:
    """The server's check of an uploaded ``estimate.csv`` (format only: no truth, no score)."""
    config = load_dp_config(args.config)
    if config.batch == "upload" and not config.interactive:
        raise DPError("dp.estimate.upload_mode")
    estimates = read_estimate(args.estimate, config, name=os.path.basename(args.estimate))
    cells = sum(len(value) for value in estimates.values())
    result = {"valid": True, "targets": {key: len(value) for key, value in estimates.items()}}
    valid = {"name": args.estimate, "targets": len(estimates), "cells": cells}
    lines = [render_dp("dp.check.valid", valid, getattr(args, "lang", None))]
    _emit(result, args, lines)
    return 0


def add_dp_commands(commands, lang: str = "en") -> None:
    """Add ``dp`` and its subcommands to the parser of ``python -m scoring`` (the command's
    help line in ``lang``)."""
    dp = commands.add_parser("dp", help=render("help.dp", lang=lang))
    sub = dp.add_subparsers(required=True)

    def with_format(parser):
        parser.add_argument("--format", choices=("table", "json"), default="table")
        return parser

    p = with_format(sub.add_parser("epsilon", help=render("help.dp.epsilon", lang=lang)))
    p.add_argument("--sizes", required=True, help=render("help.dp.sizes", lang=lang))
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--rho", help=render("help.dp.rho", lang=lang))
    how.add_argument("--epsilon", help=render("help.dp.epsilons", lang=lang))
    how.add_argument("--total", help=render("help.dp.total", lang=lang))
    p.add_argument(
        "--rows", type=integer_option(lang), default=None, help=render("help.dp.rows", lang=lang)
    )
    p.set_defaults(handler=cmd_epsilon)

    def with_groups(parser):
        parser.add_argument(
            "--groups",
            nargs="+",
            type=functools.partial(_group_spec, lang=lang),
            metavar="SPEC",
            help=render("help.dp.groups", lang=lang),
        )
        parser.add_argument("--declaration", help=render("help.dp.declaration", lang=lang))

    p = with_format(sub.add_parser("release", help=render("help.dp.release", lang=lang)))
    p.add_argument("table")
    p.add_argument("--config", required=True)
    p.add_argument("--level", required=True)
    with_groups(p)
    p.add_argument(
        "--seed",
        type=integer_option(lang),
        default=None,
        help=render("help.dp.seed", lang=lang),
    )
    p.add_argument(
        "--no-shuffle", action="store_true", help=render("help.dp.no_shuffle", lang=lang)
    )
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(handler=cmd_release)

    p = with_format(sub.add_parser("estimate", help=render("help.dp.estimate", lang=lang)))
    p.add_argument("release")
    p.add_argument("--config", required=True)
    p.add_argument("--estimator", required=True, choices=ESTIMATORS)
    with_groups(p)
    p.add_argument("-o", "--output", default="estimate.csv")
    p.set_defaults(handler=cmd_estimate)

    p = with_format(sub.add_parser("score", help=render("help.dp.score", lang=lang)))
    p.add_argument("estimate")
    p.add_argument("--truth", required=True, help=render("help.dp.truth", lang=lang))
    p.add_argument("--config", required=True)
    p.set_defaults(handler=cmd_score)

    p = with_format(sub.add_parser("check", help=render("help.dp.check", lang=lang)))
    p.add_argument("estimate")
    p.add_argument("--config", required=True)
    p.set_defaults(handler=cmd_check)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run: python -m scoring dp ...")
