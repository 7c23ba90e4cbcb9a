"""Run one command in a sandbox, with limits, a bounded capture and a kill.

The sandbox's command line is a launcher's (:mod:`scoring.scorer.launchers`: bubblewrap by
default, or an operator's container runtime), which also sets the per-run limits inside
(:class:`scoring.scorer.limits.SandboxLimits`). Outside, :func:`sandbox_run` keeps the
wall-clock limit and kills the whole sandbox (its process group; the sandbox's PID 1 takes
every process inside with it), reads what the command prints incrementally (keeping its
start and its tail, stopping it past a bound) and watches the size of the output folder.

When the worker runs as root, the sandbox runs as an unprivileged user (``run_as``, default
``nobody``): the kernel counts processes per real user and exempts root, so only then does
the process limit stop a fork bomb. Every bound folder must then be readable by others.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import signal
import subprocess
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scoring.scorer.errors import ScorerError
from scoring.scorer.launchers import BwrapLauncher, Launcher, Mount
from scoring.scorer.limits import SandboxLimits

NOBODY = (65534, 65534)
POLL_SECONDS = 0.05
SIZE_CHECK_SECONDS = 0.25
READ_CHUNK = 64 * 1024


@dataclass(frozen=True)
class SandboxOutcome:
    """What happened to one run: ``stopped`` is ``""`` or why we stopped it."""

    exit_code: int | None  # None: killed by a signal (``signal``) or never started
    signal: int | None
    stopped: str  # "", "timeout", "printed", "output"
    started: bool  # the sandbox was set up and the command started
    tail: str
    printed_bytes: int
    seconds: float
    setup_error: str = field(default="")


def reachable_by_others(path: Path) -> bool:
    """Whether a user other than the owner can reach ``path`` (every folder above searchable)."""
    path = path.resolve()
    for folder in path.parents:
        if not os.stat(folder).st_mode & 0o001:
            return False
    return bool(os.stat(path).st_mode & (0o005 if path.is_dir() else 0o004))


def sandbox_run(
    command: Sequence[str],
    *,
    mounts: Sequence[Mount],
    environment: Mapping[str, str],
    limits: SandboxLimits,
    chdir: str,
    watched: Path,
    extra_readonly: Sequence[Path] = (),
    run_as: tuple[int, int] = NOBODY,
    tail_bytes: int = 4_096,
    launcher: Launcher | None = None,
) -> SandboxOutcome:
    """Run ``command`` in the sandbox until it exits or a limit stops it.

    ``watched`` is the host side of the writable output folder, whose size and number of
    files are checked while the command runs. ``launcher``: how the sandbox starts (default
    :class:`BwrapLauncher`). Raises :class:`ScorerError` only when the sandbox cannot be
    made (a missing tool, a folder the sandbox's user cannot reach, a bad template).
    """
    launcher = launcher or BwrapLauncher()
    as_root = os.geteuid() == 0
    if as_root:
        for path in [*(m.source for m in mounts), *extra_readonly]:
            if not reachable_by_others(path):
                raise ScorerError("scorer.sandbox.unreachable", path=str(path))
    status_read, status_write = os.pipe()
    try:
        argv = launcher.argv(
            command,
            mounts=mounts,
            environment=environment,
            limits=limits,
            chdir=chdir,
            status_fd=status_write,
            extra_readonly=extra_readonly,
        )
        if not argv or shutil.which(argv[0]) is None:
            raise ScorerError(
                "scorer.sandbox.missing",
                tool=argv[0] if argv else "?",
                package=argv[0] if argv else "?",
            )
        started = time.monotonic()
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(status_write,),
            start_new_session=True,
            close_fds=True,
            **({"user": run_as[0], "group": run_as[1], "extra_groups": []} if as_root else {}),
        )
        os.close(status_write)
        status_write = -1
        stopped, tail, printed = _watch(process, limits, watched, started, tail_bytes)
        seconds = time.monotonic() - started
        statuses = _read_statuses(status_read)
        if not launcher.reports_status:
            # The launcher's own exit status stands for the command's (128 + N: signal N).
            statuses = {"child-pid": process.pid}
            if process.returncode is not None and process.returncode >= 0:
                statuses["exit-code"] = process.returncode
    finally:
        os.close(status_read)
        if status_write >= 0:
            os.close(status_write)
    return _outcome(process.returncode, statuses, stopped, tail, printed, seconds)


# What is kept of the start of the output besides its tail: a reason printed first on a line
# that goes on for long (``refused: unknown columns `` and 10,000 names) joins the tail.
HEAD_BYTES = 1_024


def _watch(process, limits: SandboxLimits, watched: Path, started: float, tail_bytes: int):
    """Read the output until the process exits; stop it at a limit. -> (stopped, tail, bytes).
    The tail is the output's last ``tail_bytes``, after its first ``HEAD_BYTES`` and " … "
    when the two do not meet."""
    head = b""
    tail: deque[bytes] = deque()
    kept = printed = 0
    stopped = ""
    next_size_check = started + SIZE_CHECK_SECONDS
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        open_pipe = True
        while True:
            now = time.monotonic()
            if not stopped and now - started > limits.timeout_seconds:
                stopped = "timeout"
            if not stopped and now >= next_size_check:
                next_size_check = now + SIZE_CHECK_SECONDS
                if _too_large(watched, limits):
                    stopped = "output"
            if not stopped and printed > limits.printed_bytes:
                stopped = "printed"
            if stopped:
                _kill(process)
            if open_pipe and selector.select(POLL_SECONDS):
                chunk = os.read(process.stdout.fileno(), READ_CHUNK)
                if not chunk:
                    selector.unregister(process.stdout)
                    open_pipe = False
                if len(head) < HEAD_BYTES:
                    head += chunk[: HEAD_BYTES - len(head)]
                printed += len(chunk)
                tail.append(chunk)
                kept += len(chunk)
                while kept - len(tail[0]) >= tail_bytes:
                    kept -= len(tail.popleft())
            elif not open_pipe:
                try:
                    process.wait(POLL_SECONDS)
                except subprocess.TimeoutExpired:
                    continue
                break
    process.stdout.close()
    if not stopped and _too_large(watched, limits):
        stopped = "output"
    return stopped, _tail_text(_kept(head, b"".join(tail), printed, tail_bytes)), printed


def _kept(head: bytes, tail: bytes, printed: int, tail_bytes: int) -> bytes:
    """The output's start and its last ``tail_bytes`` bytes: whole when they meet.

    >>> _kept(b"ab", b"abcdef", 6, 4), _kept(b"ab", b"xxcdef", 9, 4)
    (b'abcdef', b'ab \xe2\x80\xa6 cdef')
    """
    tail = tail[-tail_bytes:]
    if printed <= len(head) + len(tail):
        return head[: printed - len(tail)] + tail
    return head + " … ".encode() + tail


def _kill(process) -> None:
    """Kill the sandbox's process group (bwrap and its PID 1, which takes everything inside)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _too_large(folder: Path, limits: SandboxLimits) -> bool:
    """Whether ``folder`` holds more than the output's bytes or files (links not followed)."""
    total = files = 0
    stack = [folder]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            files += 1
            if entry.is_dir(follow_symlinks=False):
                stack.append(Path(entry.path))
            else:
                total += entry.stat(follow_symlinks=False).st_blocks * 512
            if files > limits.output_files or total > limits.output_bytes:
                return True
    return False


def _tail_text(data: bytes, lines: int = 30) -> str:
    """The last ``lines`` lines of what was printed, as text (a cut first line dropped)."""
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
    parts = text.rstrip("\n").split("\n")
    return "\n".join(parts[-lines:])


def _read_statuses(fd: int) -> dict:
    """bwrap's JSON status documents ({"child-pid": …}, {"exit-code": …}) merged in one dict."""
    data = b""
    while chunk := os.read(fd, 65536):
        data += chunk
    statuses: dict = {}
    decoder = json.JSONDecoder()
    text, position = data.decode("utf-8", errors="replace"), 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        try:
            document, position = decoder.raw_decode(text, position)
        except ValueError:
            break
        if isinstance(document, dict):
            statuses.update(document)
    return statuses


def _outcome(returncode, statuses: dict, stopped: str, tail: str, printed: int, seconds: float):
    started = "child-pid" in statuses
    exit_code = statuses.get("exit-code")
    killed = None
    if exit_code is None and returncode is not None and returncode < 0:
        killed = -returncode
    elif exit_code is None and started and returncode is not None:
        exit_code = returncode
    # bwrap reports a command killed by signal N as exit code 128 + N.
    if isinstance(exit_code, int) and exit_code > 128 and exit_code - 128 in _SIGNALS:
        killed, exit_code = exit_code - 128, None
    return SandboxOutcome(
        exit_code=exit_code,
        signal=killed,
        stopped=stopped,
        started=started,
        tail=tail,
        printed_bytes=printed,
        seconds=seconds,
        setup_error="" if started or stopped else tail,
    )


_SIGNALS = {int(s) for s in signal.Signals}
