"""``python -m scoring anonymize`` and ``python -m scoring attack`` (the starter kit).

attr-depth ORIGINAL --config ROUND.json > attr_depth.json
anonymize ORIGINAL --config ROUND.json [--attr-depth attr_depth.json] [--recipe R.json]
          [--method NAME [--param KEY=VALUE ...]] ... [--seed S] -o OUT.csv
attack PUBLISHED REFERENCE --config ROUND.json --method NAME [--param KEY=VALUE ...]
       [--seed S] -o ANSWER.csv

Methods chain in the order given (a recipe's steps first); random methods share one
generator seeded with ``--seed``. The result is checked like an upload before it is
written, so a written file is a valid submission.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from scoring.bounded_json import load_json_file
from scoring.cli_usage import integer_option
from scoring.kit._common import KitError, deleted_rows, rng_of
from scoring.kit.attacks import correspondence_lines
from scoring.kit.hierarchy import attr_depth_example, load_hierarchy
from scoring.kit.registry import ATTACK_ENTRIES, METHODS, bind, describe
from scoring.messages import render
from scoring.schema import load_config
from scoring.tables import read_table, write_csv
from scoring.validation import validate_published, validate_submission


class _Step(argparse.Action):
    """``--method`` opens a step, ``--param`` adds to the latest one."""

    def __call__(self, parser, namespace, values, option_string=None):
        steps = getattr(namespace, "steps", None) or []
        if option_string == "--method":
            steps.append({"method": values, "params": {}})
        else:
            if not steps:
                parser.error(render("usage.param_first", {}, parser.language))
            key, sep, value = values.partition("=")
            if not sep:
                parser.error(render("usage.param_form", {"value": repr(values)}, parser.language))
            steps[-1]["params"][key.strip()] = value
        namespace.steps = steps


def _recipe_steps(path) -> list[dict]:
    """The steps of a recipe file: a JSON list of ``{"method": NAME, "params": {...}}`` (other
    keys of a step are parameters too), or an object whose ``"steps"`` is that list."""
    raw = load_json_file(path)
    steps = raw.get("steps", raw) if isinstance(raw, dict) else raw
    if not isinstance(steps, list):
        raise KitError("kit.bad_recipe", path=path, where="steps")
    out = []
    for number, step in enumerate(steps, start=1):
        if not isinstance(step, dict):
            raise KitError("kit.bad_recipe", path=path, where=f"steps[{number}]")
        step = dict(step)
        name = step.pop("method", None)
        params = step.pop("params", {})
        if not isinstance(name, str):
            raise KitError("kit.bad_recipe", path=path, where=f"steps[{number}].method")
        if not isinstance(params, dict):
            raise KitError("kit.bad_recipe", path=path, where=f"steps[{number}].params")
        out.append({"method": name, "params": {**step, **params}})
    return out


def run_steps(original, config, steps, *, seed=None, attr_depth=None):
    """Apply ``steps`` (``[{"method": name, "params": {...}}]``) in order to ``original``."""
    rng = rng_of(seed)
    hierarchy = load_hierarchy(attr_depth) if attr_depth is not None else None
    table = original
    for step in steps:
        entry, kwargs = bind(METHODS, step["method"], step.get("params", {}))
        if entry.random:
            kwargs["seed"] = rng
        if entry.hierarchy:
            if hierarchy is None:
                raise KitError(
                    "kit.bad_parameter",
                    method=step["method"],
                    name="--attr-depth",
                    reason="required by this method",
                )
            kwargs["hierarchy"] = hierarchy
        table = entry.function(table, config, **kwargs)
    return table


def cmd_anonymize(args) -> int:
    original = read_table(args.original, name="the original table")
    config = load_config(args.config, original)
    steps = (_recipe_steps(args.recipe) if args.recipe else []) + (args.steps or [])
    if not steps:
        message = render("cli.no_steps", {}, args.lang)
        print(render("cli.error", {"message": message}, args.lang), file=sys.stderr)
        return 2
    table = run_steps(original, config, steps, seed=args.seed, attr_depth=args.attr_depth)
    validate_submission(original, table, config)
    write_csv(table, args.output)
    deleted = int(deleted_rows(table).sum())
    names = " → ".join(step["method"] for step in steps)
    wrote = {"rows": len(table), "deleted": deleted, "output": args.output, "methods": names}
    print(render("cli.wrote_rows", wrote, args.lang))
    return 0


def cmd_attack(args) -> int:
    published = read_table(args.published, name="the published table")
    reference = read_table(args.reference, name="the reference table")
    config = load_config(args.config, reference)
    validate_published(published, config)
    steps = args.steps or [{"method": "lecture", "params": {}}]
    step = steps[-1]
    entry, kwargs = bind(ATTACK_ENTRIES, step["method"], step["params"])
    if entry.random:
        kwargs["seed"] = args.seed
    guesses = entry.function(published, reference, config, **kwargs)
    with open(args.output, "w", encoding="utf-8", newline="") as handle:
        handle.write(correspondence_lines(guesses))
    none = int(np.sum(np.asarray(guesses) < 0))
    wrote = {"guesses": len(guesses), "none": none, "output": args.output}
    print(render("cli.wrote_guesses", {**wrote, "method": step["method"]}, args.lang))
    return 0


def cmd_attr_depth(args) -> int:
    original = read_table(args.original, name="the original table")
    config = load_config(args.config, original)
    print(json.dumps(attr_depth_example(original, config), indent=2, ensure_ascii=False))
    return 0


def _kit_parser(commands, name: str, lang: str, *, heading: str, registry, example: str):
    """``anonymize`` or ``attack``: its help lists the registry's entries (in ``lang``)."""
    epilog = (
        f"{render(heading, lang=lang)}\n{describe(registry, lang)}\n\n"
        f"{render('help.kit.example', lang=lang)}\n  python -m scoring {name} {example}"
    )
    return commands.add_parser(
        name,
        help=render(f"help.{name}", lang=lang),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=epilog,
    )


def _step_options(sub, lang: str, *, method: str, param: str, seed: str) -> None:
    """``--method``, ``--param`` (steps, :class:`_Step`) and ``--seed``, then ``-o``."""
    for option, metavar, code in (("--method", "NAME", method), ("--param", "KEY=VALUE", param)):
        sub.add_argument(
            option, action=_Step, dest="steps", metavar=metavar, help=render(code, lang=lang)
        )
    sub.add_argument(
        "--seed", type=integer_option(lang), default=None, help=render(seed, lang=lang)
    )
    sub.add_argument("-o", "--output", required=True)


def add_kit_commands(commands, lang: str = "en") -> None:
    """Register ``anonymize``, ``attack`` and ``attr-depth`` on ``python -m scoring``
    (the commands' help in ``lang``)."""
    sub = commands.add_parser("attr-depth", help=render("help.attr_depth", lang=lang))
    sub.add_argument("original")
    sub.add_argument("--config", required=True, help=render("help.config", lang=lang))
    sub.set_defaults(handler=cmd_attr_depth)

    sub = _kit_parser(
        commands,
        "anonymize",
        lang,
        heading="help.kit.methods_heading",
        registry=METHODS,
        example="original.csv --config round.json --attr-depth attr_depth.json "
        "--method generalize --param levels=age:1 --method remove_record --param k=2 "
        "--seed 1 -o anonymized.csv",
    )
    sub.add_argument("original")
    sub.add_argument("--config", required=True, help=render("help.config", lang=lang))
    sub.add_argument(
        "--attr-depth", default=None, help=render("help.kit.attr_depth_file", lang=lang)
    )
    sub.add_argument("--recipe", default=None, help=render("help.kit.recipe", lang=lang))
    _step_options(sub, lang, method="help.kit.method", param="help.kit.param", seed="help.kit.seed")
    sub.set_defaults(handler=cmd_anonymize)

    sub = _kit_parser(
        commands,
        "attack",
        lang,
        heading="help.kit.attacks_heading",
        registry=ATTACK_ENTRIES,
        example="target.csv original.csv --config round.json --method lecture --param n=3 "
        "-o answer.csv",
    )
    sub.add_argument("published", help=render("help.kit.published", lang=lang))
    sub.add_argument("reference", help=render("help.kit.reference", lang=lang))
    sub.add_argument("--config", required=True, help=render("help.config", lang=lang))
    _step_options(
        sub,
        lang,
        method="help.kit.attack_method",
        param="help.kit.attack_param",
        seed="help.kit.attack_seed",
    )
    sub.set_defaults(handler=cmd_attack)
