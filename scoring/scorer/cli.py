"""``python -m scoring scorer run …``: an organizer's scoring program, run as the worker runs it.

scorer run --program PROG.zip|DIR --submission FILE|ZIP --reference DIR --output DIR
        [--truth DIR] [--context JSON] [--kind score|release|attack|ranking]
        [--target NAME=DIR ...] [--attacks DIR] [--primary-key KEY] [--timeout S] [--memory-mb MB]
        [--cache DIR] [--sandbox-command TEMPLATE [--sandbox-mount-ro WORDS]
        [--sandbox-mount-rw WORDS] [--sandbox-env WORDS]]
    Unpack the program, build (or reuse) its environment in ``--cache``, run it in the
    sandbox and print the result as JSON (status, scores, targets, public files, message).
    ``--output`` receives the program's output folder; each ``--target NAME=DIR`` (an
    attack's target, repeatable) is bound read-only at ``/app/input/targets/NAME``;
    ``--attacks DIR`` (``--kind ranking`` only) gives a ranking run the counted attacks,
    ``DIR/<attacker>/<upload>/``, laid out and bound at ``/app/input/attacks/`` as a worker
    does (:mod:`scoring.scorer.upload_layout`).
    ``--sandbox-command`` starts the sandbox with a container runtime's template instead of
    bubblewrap (``CommandLauncher``; the worker's ``PWSCUP_SCORER_SANDBOX_COMMAND``), to try
    a template on a host before a round uses it.
    Exit status 0 when the program scored the submission, 1 when it refused it (the message
    on stderr), 2 when it could not run (an invalid program, the sandbox missing).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from scoring.cli_usage import integer_option, number_option
from scoring.messages import environment_language, render
from scoring.scorer.environment import environment_ensure
from scoring.scorer.errors import ScorerError
from scoring.scorer.launchers import CommandLauncher
from scoring.scorer.limits import SandboxLimits
from scoring.scorer.program import program_read, program_unpack
from scoring.scorer.run import scorer_run
from scoring.scorer.upload_layout import attacks_read

DEFAULT_CACHE = Path(tempfile.gettempdir()) / "pwscup-scorer-envs"


def readable_copy(folder: Path | None, into: Path) -> Path | None:
    """``folder`` as the sandbox's user can read it. Run as root, the sandbox runs the program
    as nobody, and a worker's folders (the packs it unpacks, the program's) are always
    readable by others; an organizer's own folder may not be (a ZIP unpacked by root writes
    its members 0600, a checkout kept 0700), and the trial would fail where the worker does
    not. So under root the folder is copied into ``into`` and opened to reading (``a+rX``);
    the original is left as it is. Otherwise it is used as it is."""
    if folder is None or os.geteuid() != 0 or not folder.is_dir():
        return folder
    copy = Path(tempfile.mkdtemp(prefix="given-", dir=into))
    os.chmod(copy, 0o755)
    copy = copy / (folder.name or "folder")
    shutil.copytree(folder, copy, symlinks=True)
    for path in [copy, *copy.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | (0o555 if path.is_dir() else 0o444))
    return copy


def cmd_scorer_run(args) -> int:
    if args.attacks is not None and args.kind != "ranking":
        raise ScorerError("scorer.attacks_dir.kind", kind=args.kind)
    work = Path(tempfile.mkdtemp(prefix="pwscup-scorer-"))
    try:
        os.chmod(work, 0o711)  # the sandbox's user reaches the folders inside
        attacks = (
            attacks_read(Path(args.attacks).resolve(), into=work / "attacks")
            if args.attacks is not None
            else None
        )
        source = readable_copy(Path(args.program), work)
        if source.is_dir():
            program = program_read(source)
        else:
            program = program_unpack(source, work / "program")
        environment = environment_ensure(program.requirements, cache=Path(args.cache))
        context = json.loads(Path(args.context).read_text("utf-8")) if args.context else None
        limits = SandboxLimits(
            timeout_seconds=args.timeout, memory_bytes=args.memory_mb * 1024 * 1024
        )
        result = scorer_run(
            program,
            environment=environment,
            work=work / "run",
            kind=args.kind,
            submission=Path(args.submission) if args.submission else None,
            reference=readable_copy(Path(args.reference).resolve(), work)
            if args.reference
            else None,
            truth=readable_copy(Path(args.truth).resolve(), work) if args.truth else None,
            context=context,
            limits=limits,
            primary_key=args.primary_key,
            targets={name: readable_copy(folder, work) for name, folder in (args.target or [])}
            or None,
            attacks=attacks or None,
            launcher=_launcher(args),
        )
        if result.output.is_dir():
            shutil.copytree(result.output, args.output, symlinks=True, dirs_exist_ok=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lang = args.lang or environment_language()
    message = result.render(lang)
    summary = {
        "status": result.status,
        "scores": result.scores,
        "targets": result.targets,
        "public": list(result.public),
        "message": message,
        "program_seconds": round(result.program_seconds, 3),
        "platform_seconds": round(result.platform_seconds, 3),
    }
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    if result.status != "ok":
        print(render("cli.error", {"message": message}, lang), file=sys.stderr)
    return {"ok": 0, "refused": 1}.get(result.status, 2)


def _launcher(args) -> CommandLauncher | None:
    """The template's launcher when ``--sandbox-command`` is given, else bubblewrap's."""
    if not args.sandbox_command:
        return None
    return CommandLauncher(
        template=args.sandbox_command,
        mount_readonly=args.sandbox_mount_ro,
        mount_writable=args.sandbox_mount_rw,
        variable=args.sandbox_env,
    )


def _target(pair: str, lang: str = "en") -> tuple[str, Path]:
    """``NAME=DIR`` -> ``(NAME, DIR)``; the name itself is checked by the run."""
    name, equals, folder = pair.partition("=")
    if not equals or not name or not folder:
        form = {"form": "NAME=DIR", "value": repr(pair)}
        raise argparse.ArgumentTypeError(render("usage.expected_form", form, lang))
    return name, Path(folder).resolve()


def add_scorer_commands(commands, lang: str = "en") -> None:
    """Add ``scorer run`` to the subcommands of ``python -m scoring`` (the command's help
    line in ``lang``)."""
    scorer = commands.add_parser("scorer", help=render("help.scorer", lang=lang))
    sub = scorer.add_subparsers(required=True)
    run = sub.add_parser("run", help=render("help.scorer.run", lang=lang))
    run.add_argument("--program", required=True, help=render("help.scorer.program", lang=lang))
    run.add_argument("--submission", default=None, help=render("help.scorer.submission", lang=lang))
    run.add_argument("--reference", default=None, help=render("help.scorer.reference", lang=lang))
    run.add_argument("--truth", default=None, help=render("help.scorer.truth", lang=lang))
    run.add_argument("--context", default=None, help=render("help.scorer.context", lang=lang))
    run.add_argument("--output", required=True, help=render("help.scorer.output", lang=lang))
    run.add_argument("--kind", choices=("score", "release", "attack", "ranking"), default="score")
    run.add_argument(
        "--target",
        action="append",
        type=functools.partial(_target, lang=lang),
        default=None,
        metavar="NAME=DIR",
        help=render("help.scorer.target", lang=lang),
    )
    run.add_argument(
        "--attacks", default=None, metavar="DIR", help=render("help.scorer.attacks", lang=lang)
    )
    run.add_argument(
        "--primary-key", default=None, help=render("help.scorer.primary_key", lang=lang)
    )
    run.add_argument(
        "--timeout",
        type=number_option(lang),
        default=300.0,
        help=render("help.scorer.timeout", lang=lang),
    )
    run.add_argument(
        "--memory-mb",
        type=integer_option(lang),
        default=2048,
        help=render("help.scorer.memory", lang=lang),
    )
    run.add_argument(
        "--cache",
        default=str(DEFAULT_CACHE),
        help=render("help.scorer.cache", {"cache": DEFAULT_CACHE}, lang),
    )
    defaults = CommandLauncher("")
    run.add_argument(
        "--sandbox-command",
        default=None,
        metavar="TEMPLATE",
        help=render("help.scorer.sandbox_command", lang=lang),
    )
    run.add_argument("--sandbox-mount-ro", default=defaults.mount_readonly, metavar="WORDS")
    run.add_argument("--sandbox-mount-rw", default=defaults.mount_writable, metavar="WORDS")
    run.add_argument("--sandbox-env", default=defaults.variable, metavar="WORDS")
    run.set_defaults(handler=cmd_scorer_run)
