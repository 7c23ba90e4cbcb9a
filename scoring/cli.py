"""Command line: ``python -m scoring COMMAND ...`` (the same code the server runs).

Commands
--------
evaluate ORIGINAL ANONYMIZED --config ROUND.json [--range COL=LOW:HIGH ...] [--format table|json]
         [--classes OUT.csv]
check ORIGINAL ANONYMIZED --config ROUND.json [--range COL=LOW:HIGH ...]
publish ANONYMIZED --seed N --out-published P.csv --out-truth T.csv [--rows N]
score-attack ANSWER.csv --truth T.csv [--reference-rows M] [--format table|json]
config-template ORIGINAL
seq check MASTER RELEASE_1 … RELEASE_n --config CFG [--format table|json] [--per-person FILE]
dp epsilon|release|estimate|score ...   (the DP round; see scoring.dp.cli)
scorer run --program P.zip --submission S --reference DIR --output DIR   (scoring.scorer.cli)

Messages are in English, or in Japanese with ``--lang ja`` (before the command) or when
``PWSCUP_LANG`` (the client's) or ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG`` name Japanese
(``ja``, ``ja_JP.UTF-8``: ``scoring.messages.environment_language``); so are
argparse's refusals of the line and ``--help`` (``scoring.cli_usage``).

``--range age=13:85`` is a round's range rule (any number from 13 to 85 in ``age`` instead
of a value of the original column; repeat it per column). ``--rows N`` publishes a random
sample of N kept rows (the first N of the shuffle).

Without ``--reference-rows`` (the rows of the reference table) a guess is checked to be a
positive row number only; pass it to check ``1..M`` as the server does (a guess beyond the
table is never correct, so the rate is the same).

Exit status 0 on success, 2 with the message on stderr for an invalid file,
configuration or answer (and for usage errors).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import unicodedata
from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.cli_usage import (
    UsageError,
    integer_option,
    option_number,
    requested_language,
    usage_error_text,
    usage_parser,
)
from scoring.columns import Table
from scoring.correspondence import read_correspondence, score_correspondence
from scoring.display import format_metric, format_number, legend
from scoring.dp.cli import add_dp_commands
from scoring.errors import ScoringError, ValidationError
from scoring.evaluate import evaluate, indicator_classes
from scoring.kit.cli import add_kit_commands
from scoring.linkage import REFERENCE_ATTACK
from scoring.messages import environment_language, render
from scoring.metrics_info import ALL_METRICS, METRIC_NAMES
from scoring.prepare import is_integral_column, numeric_values
from scoring.publish import publish_target
from scoring.schema import load_config
from scoring.scorer.cli import add_scorer_commands
from scoring.sequential.cli import add_seq_commands
from scoring.synthetic.cli import add_synth_commands
from scoring.tables import load_table, read_bytes, read_table, write_csv
from scoring.validation import validate_original, validate_submission


def _load(args) -> tuple[Table, Table, object]:
    original = load_table(args.original, name="the original table")
    anonymized = load_table(args.anonymized, name="the anonymized table")
    config = load_config(args.config, original)
    return original, anonymized, config


def value_range(text: str, lang: str = "en") -> tuple[str, tuple[float, float]]:
    """``"age=13:85"`` → ``("age", (13.0, 85.0))`` (the ``--range`` option; LOW and HIGH
    read by the number rule, refusals said in ``lang``).

    >>> value_range("age=13:85")
    ('age', (13.0, 85.0))
    """
    column, _, bounds = text.rpartition("=")
    low, colon, high = bounds.partition(":")
    if not column or not colon:
        form = {"form": "COLUMN=LOW:HIGH", "value": repr(text)}
        raise argparse.ArgumentTypeError(render("usage.expected_form", form, lang))
    low_value, high_value = option_number(low, lang), option_number(high, lang)
    if not np.isfinite([low_value, high_value]).all() or low_value > high_value:
        raise argparse.ArgumentTypeError(render("usage.range_order", {"value": repr(text)}, lang))
    return column, (low_value, high_value)


def _ranges(args) -> dict[str, tuple[float, float]]:
    """The ``--range`` options by column; a column given twice is refused."""
    ranges: dict[str, tuple[float, float]] = {}
    for column, bounds in args.range or []:
        if column in ranges:
            raise ValidationError("cli.range_twice", column=repr(column))
        ranges[column] = bounds
    return ranges


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (a full-width character takes two)."""
    used = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(width - used, 0)


def cmd_evaluate(args) -> int:
    original, anonymized, config = _load(args)
    ranges = _ranges(args)
    results = evaluate(original, anonymized, config, value_ranges=ranges)
    if args.classes and config.indicators is not None:
        indicator_classes(original, anonymized, config, value_ranges=ranges).to_csv(
            args.classes, index=False
        )
    if args.format == "json":
        print(json.dumps(results, indent=2))
        return 0
    shown = [m for m in ALL_METRICS if m in results]  # the indicators when configured
    width = max(22, *(len(METRIC_NAMES[m]) + 1 for m in shown))
    metric_, name_, value_ = render("cli.evaluate_columns", {}, args.lang).split("|")
    print(f"{_pad(metric_, 7)} {_pad(name_, width)} {value_}")
    for metric in shown:
        print(
            f"{metric:<7} {METRIC_NAMES[metric]:<{width}} {format_metric(metric, results[metric])}"
        )
    if REFERENCE_ATTACK in results:
        label = render("cli.reference_attack", {}, args.lang)
        print(
            f"{REFERENCE_ATTACK:<7} {_pad(label, width)} {format_number(results[REFERENCE_ATTACK])}"
        )
    for note in legend(shown, results, args.lang or environment_language()):
        print(note)
    counts = {k: results[k] for k in ("kept_rows", "rows", "classes")}
    print("\n" + render("cli.evaluate_summary", counts, args.lang))
    return 0


def cmd_check(args) -> int:
    original, anonymized, config = _load(args)
    validate_original(original, config)
    validate_submission(original, anonymized, config, value_ranges=_ranges(args))
    shape = {"rows": len(anonymized), "columns": len(anonymized.columns)}
    print(render("cli.check_ok", shape, args.lang))
    return 0


def cmd_publish(args) -> int:
    if args.rows is not None and args.rows < 1:
        raise ValidationError("cli.too_small", option="--rows", least=1, value=args.rows)
    anonymized = read_table(args.anonymized, name="the anonymized table")
    target = publish_target(anonymized, seed=args.seed, rows=args.rows)
    write_csv(target.table, args.out_published)
    write_csv(pd.DataFrame({"row": target.truth}), args.out_truth)
    paths = {"published": args.out_published, "truth": args.out_truth}
    print(render("cli.published", {"rows": len(target.table), **paths}, args.lang))
    return 0


def read_truth(path) -> np.ndarray:
    """Read a truth file written by ``publish`` (header ``row``, one number per line)."""
    table = read_table(path, name="the truth file")
    if list(table.columns) != ["row"]:
        raise ValidationError("truth.header")
    values = numeric_values(table["row"].to_numpy(dtype=object))
    if not np.all(np.isfinite(values)) or np.any(values < 0) or np.any(values % 1):
        raise ValidationError("truth.values")
    return values.astype(np.int64)


def cmd_score_attack(args) -> int:
    truth = read_truth(args.truth)
    if args.reference_rows is not None and args.reference_rows < 1:
        raise ValidationError(
            "cli.too_small", option="--reference-rows", least=1, value=args.reference_rows
        )
    # Without --reference-rows the reference's size is unknown: the largest true row is
    # not it (the last rows may have been deleted), so no upper bound is checked.
    answer = read_correspondence(
        read_bytes(args.answer, name="the answer"),
        rows=truth.size,
        reference_rows=args.reference_rows,
    )
    score = score_correspondence(answer, truth)
    result = {"rate": score.rate, "correct": score.correct, "rows": score.rows}
    if args.format == "json":
        print(json.dumps(result))
    else:
        shown = {"rate": f"{score.rate:.4f}", "correct": score.correct, "rows": score.rows}
        print(render("cli.attack_rate", shown, args.lang))
    return 0


def config_template(original: pd.DataFrame) -> dict:
    """A starter configuration: non-integral numeric columns are ``sa``, the rest ``qi``."""
    sa, qi = [], []
    for column in original.columns:
        values = original[column].to_numpy(dtype=object)
        numeric = np.isfinite(numeric_values(values)).all()
        many = pd.unique(values).size > 50
        (sa if numeric and (many or not is_integral_column(values)) else qi).append(column)
    if not sa:
        sa = [qi.pop()] if len(qi) > 1 else sa
    return {
        "qi": qi,
        "sa": sa,
        "cross": qi[:6],
        "e2_column": sa[min(1, len(sa) - 1)] if sa else None,
        "e4_column": sa[-1] if sa else None,
        "match_qi": None,
        "euc_sa": None,
        "domains": {},
    }


def cmd_config_template(args) -> int:
    original = read_table(args.original, name="the original table")
    print(json.dumps(config_template(original), indent=2))
    return 0


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The argument parser of ``python -m scoring``, its help and refusals in ``lang``."""

    parser = usage_parser(lang)(
        prog="python -m scoring", description=render("help.description", lang=lang)
    )
    parser.add_argument(
        "--lang", choices=("en", "ja"), default=None, help=render("help.lang", lang=lang)
    )
    # No ``dest``: a missing command is then named by its choices, what a user types
    # (argparse names a required positional by its dest, e.g. "seq_command", if it has one).
    commands = parser.add_subparsers(required=True)

    for name, handler in (("evaluate", cmd_evaluate), ("check", cmd_check)):
        sub = commands.add_parser(name, help=render(f"help.{name}", lang=lang))
        sub.add_argument("original")
        sub.add_argument("anonymized")
        sub.add_argument("--config", required=True, help=render("help.config", lang=lang))
        sub.add_argument(
            "--range",
            type=functools.partial(value_range, lang=lang),
            action="append",
            metavar="COLUMN=LOW:HIGH",
            help=render("help.range", lang=lang),
        )
        if name == "evaluate":
            sub.add_argument("--format", choices=("table", "json"), default="table")
            sub.add_argument(
                "--classes", metavar="OUT.csv", default=None, help=render("help.classes", lang=lang)
            )
        sub.set_defaults(handler=handler)

    sub = commands.add_parser("publish", help=render("help.publish", lang=lang))
    sub.add_argument("anonymized")
    sub.add_argument("--seed", type=integer_option(lang), required=True)
    sub.add_argument("--out-published", required=True)
    sub.add_argument("--out-truth", required=True)
    sub.add_argument(
        "--rows",
        type=integer_option(lang),
        default=None,
        help=render("help.publish_rows", lang=lang),
    )
    sub.set_defaults(handler=cmd_publish)

    sub = commands.add_parser("score-attack", help=render("help.score_attack", lang=lang))
    sub.add_argument("answer")
    sub.add_argument("--truth", required=True, help=render("help.truth", lang=lang))
    sub.add_argument(
        "--reference-rows",
        type=integer_option(lang),
        default=None,
        help=render("help.reference_rows", lang=lang),
    )
    sub.add_argument("--format", choices=("table", "json"), default="table")
    sub.set_defaults(handler=cmd_score_attack)

    sub = commands.add_parser("config-template", help=render("help.config_template", lang=lang))
    sub.add_argument("original")
    sub.set_defaults(handler=cmd_config_template)
    add_kit_commands(commands, lang)  # anonymize, attack (scoring.kit)
    add_seq_commands(commands, lang)  # seq check (scoring.sequential)
    add_dp_commands(commands, lang)  # dp epsilon|release|estimate|score (scoring.dp)
    add_synth_commands(commands, lang)  # synth describe|check|score-release|… (scoring.synthetic)
    add_scorer_commands(commands, lang)  # scorer run (scoring.scorer: an organizer's program)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    words = sys.argv[1:] if argv is None else argv
    # The parser speaks the language asked for: its help, and its refusals of the line.
    lang = requested_language(words, environment_language())
    try:
        args = build_parser(lang).parse_args(words)
    except UsageError as error:
        print(usage_error_text(error, lang), end="", file=sys.stderr)
        return 2
    args.lang = args.lang or environment_language()  # what a command prints, in one language
    try:
        return args.handler(args)
    except ScoringError as error:
        print(error_line(error.render(args.lang), args.lang), file=sys.stderr)
        return 2
    except OSError as error:
        print(error_line(os_error_text(error, args.lang), args.lang), file=sys.stderr)
        return 2


def error_line(message: str, lang: str) -> str:
    """The line a refused command prints: ``error: …`` / ``エラー: …``."""
    return render("cli.error", {"message": message}, lang)


def os_error_text(error: OSError, lang: str) -> str:
    """A file the command could not open or write, said in ``lang`` with its path (the
    system's own words, English, only as the reason of a cause not named here)."""
    code = {
        FileNotFoundError: "cli.no_such_file",
        PermissionError: "cli.not_allowed",
        IsADirectoryError: "cli.is_folder",
    }.get(type(error), "cli.os_error")
    path = error.filename if error.filename is not None else "-"
    return render(code, {"path": path, "reason": error.strerror or str(error)}, lang)
