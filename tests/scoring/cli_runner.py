"""``python -m scoring …`` run in this process, as ``subprocess.run`` would report it.

A fresh interpreter costs about a second of CPU (numpy, pandas and pyarrow imported again);
the CLI modules call their commands dozens of times. ``in_process`` calls the same
``scoring.cli.main`` the module entry point calls, with the arguments, environment
language, working directory and a terminal of the width a child sees, and returns its exit
status and both streams as a ``CompletedProcess``. Each CLI module keeps one run through a
real ``python -m scoring`` child (``as_child``), which proves the entry point itself.
"""

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

from scoring.cli import main

ROOT = Path(__file__).resolve().parents[2]
# The variables read before ``LANG`` (``scoring.messages.LANGUAGE_VARIABLES``).
OVERRIDING = ("PWSCUP_LANG", "LC_ALL", "LC_MESSAGES")


@contextlib.contextmanager
def _environment(lang: str, env: dict | None = None):
    """Messages follow ``LANG`` (``PWSCUP_LANG``/``LC_ALL``/``LC_MESSAGES`` unset, unless
    ``env`` sets them); help text is wrapped at the 80 columns a child without a terminal
    gets."""
    saved = dict(os.environ)
    for variable in OVERRIDING:
        os.environ.pop(variable, None)
    os.environ.update(LANG=lang, COLUMNS="80", **(env or {}))
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _stream() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline=None, write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    return stream.buffer.getvalue().decode("utf-8").replace("\r\n", "\n")


def in_process(
    *args, lang: str = "C.UTF-8", env: dict | None = None
) -> subprocess.CompletedProcess:
    """``python -m scoring *args`` in this process (``env``: variables set beside ``LANG``)."""
    argv = [str(a) for a in args]
    out, err = _stream(), _stream()
    with (
        _environment(lang, env),
        contextlib.chdir(ROOT),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            status = main(argv)
        except SystemExit as exit_:  # argparse: --help (0), a usage error (2)
            status = exit_.code if isinstance(exit_.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
    return subprocess.CompletedProcess(argv, status, _text(out), _text(err))


def as_child(*args, lang: str = "C.UTF-8", timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m scoring *args`` in a child interpreter (the entry point itself)."""
    env = {k: v for k, v in os.environ.items() if k not in OVERRIDING}
    return subprocess.run(
        [sys.executable, "-m", "scoring", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,  # a hang, not a timing
        env={**env, "LANG": lang},
    )


def refused(done, *parts) -> None:
    """``done`` (a run's result) refused its input as the command line must: exit 2, one
    ``error:`` line (``エラー:`` in Japanese) and no traceback, naming each of ``parts``."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    headed = done.stderr.startswith(("error: ", "エラー: "))
    assert headed and "Traceback" not in done.stderr, done.stderr
    for part in parts:
        assert part in done.stderr, done.stderr
