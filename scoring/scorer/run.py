"""One run of an organizer's scoring program on one submission: stage, sandbox, read.

:func:`scorer_run` lays out the Codabench folders in ``work`` (``input/res`` the submission,
unzipped when it is a ZIP; ``input/ref`` the round's reference data; ``input/context.json``
our optional context; ``output``), runs the program's command in the sandbox
(:mod:`scoring.scorer.sandbox`) with the environment's interpreter first on ``PATH``, and
returns a :class:`ScorerResult`: whatever the program did, the run ends as a result with a
message code, never as an exception. An attack run may also be given ``targets``, the frozen
releases of the other teams, each bound read-only at ``input/targets/<name>``.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from scoring.messages import clip, render
from scoring.scorer.environment import ScorerEnvironment
from scoring.scorer.errors import ScorerError
from scoring.scorer.launchers import Launcher, Mount
from scoring.scorer.limits import SandboxLimits
from scoring.scorer.output import ScorerOutput, output_read
from scoring.scorer.program import ScorerProgram
from scoring.scorer.sandbox import NOBODY, SandboxOutcome, sandbox_run
from scoring.scorer.unzip import UnzipLimits
from scoring.scorer.upload_layout import TARGET_NAME, upload_lay_out

# Codabench's folders inside the sandbox.
PROGRAM, INPUT, OUTPUT, SHARED = "/app/program", "/app/input", "/app/output", "/app/shared"
SUBSTITUTIONS = {"program": PROGRAM, "input": INPUT, "output": OUTPUT, "shared": SHARED}
PLACEHOLDER = re.compile(r"\$(?:\{(program|input|output|shared)\}|(program|input|output|shared)\b)")
MAX_TAIL_CHARS = 2_000
# A line of the tail longer than this keeps its start and its end (``_readable_tail``).
MAX_LINE_CHARS, LINE_END_CHARS = 400, 100
OUT_OF_MEMORY = ("MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory")
STATUSES = ("ok", "refused", "failed")  # failed: the platform's fault, not the submission's
TARGETS = f"{INPUT}/targets"
# Errors of the platform (its setup, or its caller), not of the submission.
PLATFORM_CODES = ("scorer.sandbox.", "scorer.targets.", "scorer.attacks.")
# The folders bound under ``input/``: how many parts each name has (``<team>``;
# ``<attacker>/<upload>``) and the code of a faulty one.
BOUND_FOLDERS = {"targets": (1, "scorer.targets.name"), "attacks": (2, "scorer.attacks.name")}


@dataclass(frozen=True)
class ScorerResult:
    """The end of one run.

    ``status`` is ``ok``, ``refused`` (the program's verdict or its misbehaviour) or
    ``failed`` (the platform could not run it). ``code`` and ``params`` make the message
    in the reader's language (:meth:`render`); ``tail`` is the last lines the program
    printed. ``program_seconds`` is the sandbox's run, ``platform_seconds`` the rest.
    """

    status: str
    code: str
    params: dict[str, Any]
    output: Path
    scores: dict[str, int | float] = field(default_factory=dict)
    targets: dict[str, dict[str, int | float]] = field(default_factory=dict)
    detailed_html: bytes | None = None
    public: tuple[str, ...] = ()
    tail: str = ""
    program_seconds: float = 0.0
    platform_seconds: float = 0.0

    def render(self, lang: str | None = "en") -> str:
        """The message in ``lang`` (``"en"`` or ``"ja"``)."""
        return render(self.code, self.params, lang)


def substitute(command: str) -> str:
    """The command with Codabench's ``$program``, ``$input``, ``$output``, ``$shared`` replaced.

    Examples
    --------
    >>> substitute("python3 $program/score.py $input ${output}")
    'python3 /app/program/score.py /app/input /app/output'
    """
    return PLACEHOLDER.sub(lambda m: SUBSTITUTIONS[m.group(1) or m.group(2)], command)


def scorer_run(
    program: ScorerProgram,
    *,
    environment: ScorerEnvironment,
    work: Path,
    kind: str = "score",
    submission: Path | None = None,
    reference: Path | None = None,
    truth: Path | None = None,
    context: Mapping[str, Any] | None = None,
    limits: SandboxLimits | None = None,
    primary_key: str | None = None,
    submission_limits: UnzipLimits | None = None,
    run_as: tuple[int, int] = NOBODY,
    targets: Mapping[str, Path] | None = None,
    launcher: Launcher | None = None,
    attacks: Mapping[str, Path] | None = None,
) -> ScorerResult:
    """Run ``program``'s command of ``kind`` on ``submission`` in the sandbox (started by
    ``launcher``: bubblewrap by default, or a container runtime's ``CommandLauncher``).

    ``work`` is an empty folder of the caller's (the output stays in ``work/output``);
    ``reference`` and ``truth`` are folders bound read-only, and so is each of ``targets``
    (``{name: folder}``, the frozen releases an attack is given) at
    ``/app/input/targets/<name>``; a name outside ``[a-z0-9][a-z0-9_-]{0,63}`` is the caller's
    mistake and ends the run as failed (``scorer.targets.name``). ``attacks`` (``{"<attacker>/
    <upload id>": folder}``, the uploads a ranking run reads) are bound the same way at
    ``/app/input/attacks/<attacker>/<upload id>`` (``scorer.attacks.name``). ``primary_key`` (else the
    metadata's) must be among the scores.
    """
    started = time.monotonic()
    limits = limits or SandboxLimits()
    output = work / "output"
    try:
        command = substitute(program.command(kind))
        folders = {"targets": targets or {}, "attacks": attacks or {}}
        mounts = _stage(
            program, work, submission, reference, truth, context, submission_limits, run_as, folders
        )
        outcome = sandbox_run(
            ["/bin/sh", "-c", command],
            mounts=mounts,
            environment=_variables(program, environment),
            limits=limits,
            chdir=PROGRAM,
            watched=output,
            extra_readonly=_interpreter_folders(environment),
            run_as=run_as,
            launcher=launcher,
        )
    except ScorerError as error:
        platform = error.code.startswith(PLATFORM_CODES)
        status = "failed" if platform else "refused"
        return _result(status, error.code, error.params, output, started)
    status, code, params, read = _judge(
        program, outcome, output, primary_key or program.primary_key, limits
    )
    return _result(status, code, params, output, started, read, outcome=outcome)


def _checked_folders(folders) -> dict[str, dict[str, Path]]:
    """The folders to bind under ``input/`` (``BOUND_FOLDERS``), each name checked: the
    caller's mistake ends the run (``scorer.<targets|attacks>.name``), never a path."""
    folders = {under: dict(folders.get(under) or {}) for under in BOUND_FOLDERS}
    for under, named in folders.items():
        count, code = BOUND_FOLDERS[under]
        for name in named:
            parts = name.split("/") if isinstance(name, str) else []
            if len(parts) != count or not all(map(TARGET_NAME.match, parts)):
                raise ScorerError(code, name=repr(clip(name)))
    return folders


def _stage(
    program, work, submission, reference, truth, context, submission_limits, run_as, folders=None
):
    """Make ``work``'s folders and return the sandbox's mounts."""
    folders = _checked_folders(folders or {})
    work.mkdir(parents=True, exist_ok=True)
    os.chmod(work, 0o711)
    inputs, output = work / "input", work / "output"
    res = inputs / "res"
    res.mkdir(parents=True, mode=0o755)
    output.mkdir(mode=0o755)
    if os.geteuid() == 0:
        os.chown(output, *run_as)
    if submission is not None:
        upload_lay_out(submission, name=submission.name, into=res, limits=submission_limits)
    if context is not None:
        text = json.dumps(context, allow_nan=False, ensure_ascii=False, indent=1)
        (inputs / "context.json").write_text(text, encoding="utf-8")
    mounts = [Mount(program.root, PROGRAM), Mount(inputs, INPUT), Mount(output, OUTPUT, True)]
    if reference is not None:
        (inputs / "ref").mkdir(mode=0o755)
        mounts.append(Mount(reference, f"{INPUT}/ref"))
    if truth is not None:
        inside = PurePosixPath(program.truth_mount)
        if inside.is_relative_to(INPUT):
            inputs.joinpath(*inside.relative_to(INPUT).parts).mkdir(parents=True, mode=0o755)
        mounts.append(Mount(truth, str(inside)))
    for under, named in folders.items():
        for name, folder in sorted(named.items()):
            (inputs / under / name).mkdir(parents=True, mode=0o755, exist_ok=True)
            mounts.append(Mount(Path(folder), f"{INPUT}/{under}/{name}"))
    for folder in (inputs, *(p for p in inputs.rglob("*") if p.is_dir())):
        os.chmod(folder, 0o755)
    return mounts


def _variables(program: ScorerProgram, environment: ScorerEnvironment) -> dict[str, str]:
    return {
        **program.environment,
        "PATH": f"{environment.bin}:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
    }


def _interpreter_folders(environment: ScorerEnvironment) -> list[Path]:
    """The environment, and its interpreter's installation when it is outside ``/usr``."""
    folders = [environment.path]
    real = Path(os.path.realpath(environment.python))
    if not real.is_relative_to("/usr"):
        folders.append(real.parents[1])
    return folders


def _readable_tail(text: str) -> str:
    r"""The last ``MAX_TAIL_CHARS`` of what the program printed, each long line cut in its
    middle first: a refusal's reason starts its line (``ValueError: unknown columns …``)
    and would be lost if a line of 10,000 column names were only cut from its start.

    >>> _readable_tail("ValueError: bad columns " + "c," * 5000 + "z\nexit")[:34]
    'ValueError: bad columns c,c,c,c,c,'
    """
    lines = [
        line
        if len(line) <= MAX_LINE_CHARS
        else f"{line[: MAX_LINE_CHARS - LINE_END_CHARS]} … {line[-LINE_END_CHARS:]}"
        for line in text.split("\n")
    ]
    return "\n".join(lines)[-MAX_TAIL_CHARS:]


def _judge(program, outcome: SandboxOutcome, output: Path, primary_key, limits: SandboxLimits):
    """-> (status, code, params, ScorerOutput or None)."""
    tail = _readable_tail(outcome.tail)
    if not outcome.started and not outcome.stopped:
        return "failed", "scorer.sandbox.failed", {"tail": tail}, None
    if outcome.stopped == "timeout":
        return (
            "refused",
            "scorer.timeout",
            {"seconds": f"{limits.timeout_seconds:g}", "tail": tail},
            None,
        )
    if outcome.stopped == "printed":
        return (
            "refused",
            "scorer.printed_too_much",
            {"limit": f"{limits.printed_bytes:,}", "tail": tail},
            None,
        )
    if outcome.stopped == "output":
        params = {"limit": f"{limits.output_bytes:,}", "files": f"{limits.output_files:,}"}
        return "refused", "scorer.output_too_large", params, None
    if outcome.exit_code != 0 and any(marker in tail for marker in OUT_OF_MEMORY):
        return (
            "refused",
            "scorer.memory",
            {"limit_mb": limits.memory_bytes // 2**20, "tail": tail},
            None,
        )
    if outcome.signal is not None:
        return "refused", "scorer.signal", {"signal": outcome.signal, "tail": tail}, None
    if outcome.exit_code != 0:
        return "refused", "scorer.exit", {"status": outcome.exit_code, "tail": tail}, None
    try:
        read = output_read(output, primary_key=primary_key, public_names=program.public)
    except ScorerError as error:
        return "refused", error.code, error.params, None
    return "ok", "scorer.ok", {}, read


def _result(
    status, code, params, output, started, read: ScorerOutput | None = None, *, outcome=None
):
    total = time.monotonic() - started
    program_seconds = outcome.seconds if outcome is not None else 0.0
    read = read or ScorerOutput(scores={})
    return ScorerResult(
        status=status,
        code=code,
        params=params,
        output=output,
        scores=read.scores,
        targets=read.targets,
        detailed_html=read.detailed_html,
        public=read.public,
        tail=outcome.tail if outcome is not None else "",
        program_seconds=program_seconds,
        platform_seconds=max(0.0, total - program_seconds),
    )
