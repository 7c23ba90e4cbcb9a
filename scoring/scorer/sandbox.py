"""Run one command in a bubblewrap sandbox, with limits, a bounded capture and a kill.

The sandbox (:func:`sandbox_argv`) has no network and no host file beyond ``/usr`` (and the
``/bin``, ``/lib*`` links of a merged-usr system), read-only: no ``/etc``, no ``/home``, no
project, no media. The caller's folders are bound at fixed places (read-only unless said),
a fresh ``/proc``, ``/dev`` and a size-bounded ``/tmp``. Inside, ``prlimit`` sets the
per-run limits before the command starts (:class:`SandboxLimits`): address space, processes,
file size, CPU seconds, open files, no core dumps. Outside, :func:`sandbox_run` keeps the
wall-clock limit and kills the whole sandbox (its process group; the sandbox's PID 1 takes
every process inside with it), reads what the command prints incrementally (keeping the
tail, stopping it past a bound) and watches the size of the output folder.

When the worker runs as root, the sandbox runs as an unprivileged user (``run_as``, default
``nobody``): the kernel counts processes per real user and exempts root, so only then does
the process limit stop a fork bomb. Every bound folder must then be readable by others.

How the sandbox is launched is a :class:`Launcher`: :class:`BwrapLauncher` (the default,
the command line above) or :class:`CommandLauncher`, a container runtime's command line
written as a template by the platform's operator (``podman run --network=none …``). Either
way the watching, the limits kept outside, the kill and the outcome are this module's.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol

from scoring.scorer.errors import ScorerError

NOBODY = (65534, 65534)
MERGED_USR_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
POLL_SECONDS = 0.05
SIZE_CHECK_SECONDS = 0.25
READ_CHUNK = 64 * 1024


@dataclass(frozen=True)
class SandboxLimits:
    """The limits of one run; a round sets its own within :data:`CEILINGS`."""

    timeout_seconds: float = 300.0
    memory_bytes: int = 2 * 1024**3
    processes: int = 256  # threads count too
    output_bytes: int = 256 * 1024**2  # the output folder, and any one file anywhere
    output_files: int = 10_000
    tmp_bytes: int = 256 * 1024**2
    printed_bytes: int = 16 * 1024**2  # past this the program is stopped
    open_files: int = 1_024

    def __post_init__(self) -> None:
        for name, ceiling in CEILINGS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not 0 < value <= ceiling:
                raise ValueError(f"SandboxLimits.{name} must be in (0, {ceiling}], got {value!r}")


CEILINGS = {
    "timeout_seconds": 24 * 3600,
    "memory_bytes": 256 * 1024**3,
    "processes": 4_096,
    "output_bytes": 16 * 1024**3,
    "output_files": 1_000_000,
    "tmp_bytes": 16 * 1024**3,
    "printed_bytes": 1024**3,
    "open_files": 65_536,
}


@dataclass(frozen=True)
class Mount:
    """A host folder (or file) bound at ``inside``."""

    source: Path
    inside: str
    writable: bool = False


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


def sandbox_argv(
    command: Sequence[str],
    *,
    mounts: Sequence[Mount],
    environment: Mapping[str, str],
    limits: SandboxLimits,
    chdir: str,
    status_fd: int,
    extra_readonly: Sequence[Path] = (),
) -> list[str]:
    """The whole ``bwrap`` command line of one run (the sandbox in one place)."""
    argv = [
        _tool("bwrap", "bubblewrap"),
        "--unshare-all",  # ipc, pid, net, uts, cgroup (and user): no network at all
        "--unshare-user",  # explicitly, for --disable-userns: no namespace made inside
        "--die-with-parent",
        "--new-session",
        "--disable-userns",
        "--cap-drop",
        "ALL",
        "--json-status-fd",
        str(status_fd),
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for name in MERGED_USR_LINKS:
        host = Path("/") / name
        if host.is_symlink():
            argv += ["--symlink", os.readlink(host), f"/{name}"]
        elif host.is_dir():
            argv += ["--ro-bind", str(host), f"/{name}"]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    argv += ["--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
    for path in extra_readonly:  # after /tmp: an environment under /tmp stays visible
        argv += ["--ro-bind", str(path), str(path)]
    for mount in mounts:
        argv += ["--bind" if mount.writable else "--ro-bind", str(mount.source), mount.inside]
    argv += ["--remount-ro", "/"]  # the sandbox's own root: no file beside the mounts
    argv += ["--chdir", chdir, "--clearenv"]
    for name, value in environment.items():
        argv += ["--setenv", name, value]
    argv += ["--", *_prlimit(limits), "--", *command]
    return argv


class Launcher(Protocol):
    """How one run's sandbox is started: the whole command line of a run.

    ``reports_status``: the command line writes bwrap's JSON status documents to
    ``status_fd`` (whether the command started, its exit code); without them the launcher's
    own exit status is taken as the command's, and a runtime that cannot start shows as a
    non-zero exit of the program.
    """

    reports_status: bool

    def argv(
        self,
        command: Sequence[str],
        *,
        mounts: Sequence[Mount],
        environment: Mapping[str, str],
        limits: SandboxLimits,
        chdir: str,
        status_fd: int,
        extra_readonly: Sequence[Path] = (),
    ) -> list[str]: ...


@dataclass(frozen=True)
class BwrapLauncher:
    """The default launcher: bubblewrap, as :func:`sandbox_argv` writes it."""

    reports_status: ClassVar[bool] = True

    def argv(self, command, *, mounts, environment, limits, chdir, status_fd, extra_readonly=()):
        return sandbox_argv(
            command,
            mounts=mounts,
            environment=environment,
            limits=limits,
            chdir=chdir,
            status_fd=status_fd,
            extra_readonly=extra_readonly,
        )


# The template's words that stand for several words (each alone in its word).
LIST_FIELDS = ("{mounts}", "{env}", "{prlimit}", "{command}")


@dataclass(frozen=True)
class CommandLauncher:
    """A container runtime (or any launcher) as a command-line template, split like a shell
    line (``shlex``), then each word filled in; nothing is passed to a shell.

    Words standing for several: ``{mounts}`` (each bound folder, ``mount_readonly`` or
    ``mount_writable`` filled with ``{source}`` and ``{target}``; the environment's folders
    first, at their own path), ``{env}`` (each variable, ``variable`` filled with ``{name}``
    and ``{value}``), ``{prlimit}`` (the ``prlimit … --`` that sets the limits inside, for a
    runtime without its own), ``{command}`` (the program's command). Inside any word:
    ``{workdir}``, ``{memory_bytes}``, ``{memory_mb}``, ``{processes}``, ``{tmp_bytes}``,
    ``{tmp_mb}``, ``{timeout_seconds}``, ``{cpu_seconds}``, ``{open_files}``,
    ``{output_bytes}``. ``{mounts}`` and ``{command}`` are required.

    The runtime must give what bubblewrap gives (no network, no host file but the mounts,
    the limits) and must stop the run when its own process is killed (the wall clock and
    the output bounds are kept here, by killing the launcher's process group).

    Examples
    --------
    >>> launcher = CommandLauncher("run --rm {mounts} --memory {memory_mb}m img {command}")
    >>> launcher.argv(["sh", "-c", "echo hi"], mounts=[Mount(Path("/w/out"), "/app/output",
    ...     True)], environment={}, limits=SandboxLimits(memory_bytes=2**30), chdir="/app",
    ...     status_fd=3)
    ['run', '--rm', '-v', '/w/out:/app/output', '--memory', '1024m', 'img', 'sh', '-c', 'echo hi']
    """

    template: str
    mount_readonly: str = "-v {source}:{target}:ro"
    mount_writable: str = "-v {source}:{target}"
    variable: str = "--env {name}={value}"

    reports_status: ClassVar[bool] = False

    def argv(self, command, *, mounts, environment, limits, chdir, status_fd, extra_readonly=()):
        words = self._split(self.template, "PWSCUP_SCORER_SANDBOX_COMMAND")
        for required in ("{mounts}", "{command}"):
            if required not in words:
                raise ScorerError(
                    "scorer.sandbox.template",
                    detail=f"the template has no {required} word of its own",
                )
        values = {
            "workdir": chdir,
            "memory_bytes": limits.memory_bytes,
            "memory_mb": limits.memory_bytes // 2**20,
            "processes": limits.processes,
            "tmp_bytes": limits.tmp_bytes,
            "tmp_mb": max(1, limits.tmp_bytes // 2**20),
            "timeout_seconds": math.ceil(limits.timeout_seconds),
            "cpu_seconds": int(limits.timeout_seconds) + 5,
            "open_files": limits.open_files,
            "output_bytes": limits.output_bytes,
        }
        every = [Mount(Path(path), str(path)) for path in extra_readonly] + list(mounts)
        lists = {
            "{mounts}": [
                word
                for mount in every
                for word in self._filled(
                    self.mount_writable if mount.writable else self.mount_readonly,
                    "PWSCUP_SCORER_SANDBOX_MOUNT",
                    source=str(mount.source),
                    target=mount.inside,
                )
            ],
            "{env}": [
                word
                for name, value in environment.items()
                for word in self._filled(
                    self.variable, "PWSCUP_SCORER_SANDBOX_ENV", name=name, value=value
                )
            ],
            "{prlimit}": [*_prlimit(limits), "--"],
            "{command}": list(command),
        }
        argv = []
        for word in words:
            if word in LIST_FIELDS:
                argv += lists[word]
            else:
                argv.append(self._format(word, "PWSCUP_SCORER_SANDBOX_COMMAND", values))
        return argv

    @staticmethod
    def _split(template: str, setting: str) -> list[str]:
        try:
            words = shlex.split(template)
        except ValueError as error:
            raise ScorerError("scorer.sandbox.template", detail=f"{setting}: {error}") from None
        if not words:
            raise ScorerError("scorer.sandbox.template", detail=f"{setting} is empty")
        return words

    def _filled(self, template: str, setting: str, **values) -> list[str]:
        return [self._format(word, setting, values) for word in self._split(template, setting)]

    @staticmethod
    def _format(word: str, setting: str, values: Mapping) -> str:
        try:
            return word.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError) as error:
            raise ScorerError(
                "scorer.sandbox.template",
                detail=f"{setting}: the word {word!r} has an unknown field ({error})",
            ) from None


def _prlimit(limits: SandboxLimits) -> list[str]:
    cpu = int(limits.timeout_seconds) + 5  # a backstop; the wall clock is kept outside
    return [
        _tool("prlimit", "util-linux"),
        f"--as={limits.memory_bytes}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.output_bytes}",
        f"--cpu={cpu}",
        f"--nofile={limits.open_files}",
        "--core=0",
    ]


def _tool(name: str, package: str) -> str:
    path = shutil.which(name, path="/usr/bin:/bin:/usr/local/bin")
    if path is None:
        raise ScorerError("scorer.sandbox.missing", tool=name, package=package)
    return path


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


def _watch(process, limits: SandboxLimits, watched: Path, started: float, tail_bytes: int):
    """Read the output until the process exits; stop it at a limit. -> (stopped, tail, bytes)."""
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
    return stopped, _tail_text(b"".join(tail)[-tail_bytes:]), printed


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
