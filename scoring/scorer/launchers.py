"""How a run's sandbox is started: the whole command line of one run (a :class:`Launcher`).

:class:`BwrapLauncher`, the default, writes bubblewrap's command line (:func:`sandbox_argv`):
no network and no host file beyond ``/usr`` (and the ``/bin``, ``/lib*`` links of a
merged-usr system), read-only: no ``/etc``, no ``/home``, no project, no media. The caller's
folders are bound at fixed places (read-only unless said), a fresh ``/proc``, ``/dev`` and a
size-bounded ``/tmp``. Inside, ``prlimit`` sets the per-run limits before the command starts
(:class:`scoring.scorer.limits.SandboxLimits`): address space, processes, file size, CPU
seconds, open files, no core dumps.

:class:`CommandLauncher` is a container runtime's command line written as a template by the
platform's operator (``podman run --network=none …``). Either way the watching, the limits
kept outside, the kill and the outcome are :func:`scoring.scorer.sandbox.sandbox_run`'s.
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol

from scoring.scorer.errors import ScorerError
from scoring.scorer.limits import SandboxLimits

MERGED_USR_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")


@dataclass(frozen=True)
class Mount:
    """A host folder (or file) bound at ``inside``."""

    source: Path
    inside: str
    writable: bool = False


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
                raise _unusable("scorer.sandbox.no_word", word=required)
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
        except ValueError:  # shlex: no closing quotation, or no escaped character
            raise _unusable("scorer.sandbox.unsplittable", setting=setting) from None
        if not words:
            raise _unusable("scorer.sandbox.empty", setting=setting)
        return words

    def _filled(self, template: str, setting: str, **values) -> list[str]:
        return [self._format(word, setting, values) for word in self._split(template, setting)]

    @staticmethod
    def _format(word: str, setting: str, values: Mapping) -> str:
        try:
            return word.format(**values)
        except (KeyError, IndexError, ValueError, AttributeError):
            raise _unusable("scorer.sandbox.bad_field", setting=setting, word=repr(word)) from None


def _unusable(code: str, **params) -> ScorerError:
    """A ``scorer.sandbox.template`` error: why the template cannot be used is the nested
    message ``code`` (in the reader's language too)."""
    return ScorerError("scorer.sandbox.template", detail={"code": code, "params": params})


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
