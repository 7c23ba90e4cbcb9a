"""The Python environment of a scoring program: a virtual environment per requirements, cached.

An environment is keyed by the hash of the program's pinned requirements and of the
interpreter it is made from, and built once per worker host in ``cache/<key>``: the
folder is complete when its ``.ready`` file exists, written last. A build holds an
exclusive lock (``cache/<key>.lock``), so two workers never build the same environment at
once, and the second finds it ready. An unchanged program's environment is never rebuilt;
its fifth run starts at once.

The build is ``python -m venv --without-pip`` and, when there are requirements, the
worker's own ``pip --python <venv> install --only-binary=:all:``: wheels only, so installing
runs no code of the packages (an sdist's build would run the organizer's choice of code
outside the sandbox). The build may reach the package index; the run may not. A program
without requirements gets the environment of the empty requirements: the interpreter's
standard library and nothing else, the same path as any other.

The interpreter is ``/usr/local/bin/python3`` or ``/usr/bin/python3`` by default: under
``/usr``, so inside the sandbox's read-only ``/usr`` (the worker's own interpreter may live
anywhere, e.g. under ``/root``).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scoring.scorer.errors import EnvironmentBuildError, ScorerError

SCHEME = "pwscup-scorer-env-1"  # a change of how environments are built makes new keys
READY = ".ready"
LOG = "build.log"
INTERPRETERS = ("/usr/local/bin/python3", "/usr/bin/python3")
LOG_TAIL_CHARS = 4_000


@dataclass(frozen=True)
class ScorerEnvironment:
    """A built environment: ``python`` is its interpreter, ``built`` whether this call built it."""

    key: str
    path: Path
    built: bool
    log: str
    seconds: float

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    @property
    def bin(self) -> Path:
        return self.path / "bin"


def default_interpreter() -> Path:
    """The interpreter environments are made from (the first of :data:`INTERPRETERS`)."""
    for candidate in INTERPRETERS:
        if os.access(candidate, os.X_OK):
            return Path(candidate)
    raise ScorerError("scorer.sandbox.missing", tool="python3", package="python3")


def environment_key(requirements: str, *, interpreter: Path) -> str:
    """The cache key: the scheme, the interpreter (its path, size and time) and the requirements."""
    real = Path(os.path.realpath(interpreter))
    stat = real.stat()
    digest = hashlib.sha256()
    for part in (SCHEME, str(real), str(stat.st_size), str(stat.st_mtime_ns), requirements):
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()[:32]


def environment_ensure(
    requirements: str,
    *,
    cache: Path,
    interpreter: Path | None = None,
    pip_options: Sequence[str] = (),
    timeout_seconds: float = 1_800,
) -> ScorerEnvironment:
    """The environment of ``requirements`` (checked pinned text), built if not cached yet.

    ``pip_options`` are the platform's (an index URL, ``--no-index --find-links DIR``), never
    the organizer's. Raises :class:`EnvironmentBuildError` (with the build's log) when pip
    fails or the build takes longer than ``timeout_seconds``; nothing of it is kept.
    """
    started = time.monotonic()
    interpreter = interpreter or default_interpreter()
    key = environment_key(requirements, interpreter=interpreter)
    path = cache / key
    if (path / READY).is_file():
        return ScorerEnvironment(key, path, False, _log(path), time.monotonic() - started)
    cache.mkdir(parents=True, exist_ok=True, mode=0o755)
    with open(cache / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be building it: wait
        if (path / READY).is_file():
            return ScorerEnvironment(key, path, False, _log(path), time.monotonic() - started)
        shutil.rmtree(path, ignore_errors=True)  # a build that died half-way
        try:
            log = _build(path, requirements, interpreter, pip_options, timeout_seconds)
        except BaseException:
            shutil.rmtree(path, ignore_errors=True)
            raise
        (path / LOG).write_text(log, encoding="utf-8")
        (path / READY).write_text(key, encoding="utf-8")
    return ScorerEnvironment(key, path, True, log, time.monotonic() - started)


def _log(path: Path) -> str:
    try:
        return (path / LOG).read_text(encoding="utf-8")
    except OSError:
        return ""


def _build(
    path: Path, requirements: str, interpreter: Path, pip_options: Sequence[str], timeout: float
) -> str:
    steps = [[str(interpreter), "-m", "venv", "--without-pip", str(path)]]
    if requirements:
        requirements_file = path.parent / f"{path.name}.requirements.txt"
        requirements_file.write_text(requirements + "\n", encoding="utf-8")
        steps.append(
            [
                sys.executable,
                "-m",
                "pip",
                "--python",
                str(path / "bin" / "python"),
                "install",
                "--no-input",
                "--disable-pip-version-check",
                "--no-cache-dir",
                "--only-binary=:all:",
                *pip_options,
                "--requirement",
                str(requirements_file),
            ]
        )
    log = []
    deadline = time.monotonic() + timeout
    for step in steps:
        log.append("$ " + " ".join(step))
        try:
            done = subprocess.run(
                step,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=max(1.0, deadline - time.monotonic()),
                env={**os.environ, "PIP_NO_INPUT": "1"},
            )
        except subprocess.TimeoutExpired:
            log.append(f"(stopped after {timeout:g} s)")
            raise EnvironmentBuildError(
                "scorer.build.timeout", log="\n".join(log), seconds=f"{timeout:g}"
            ) from None
        log.append(done.stdout + done.stderr)
        if done.returncode != 0:
            text = "\n".join(log)
            raise EnvironmentBuildError(
                "scorer.build.failed",
                log=text,
                status=done.returncode,
                tail=text[-LOG_TAIL_CHARS:],
            )
    return "\n".join(log)
