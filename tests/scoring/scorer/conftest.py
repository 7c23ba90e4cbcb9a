"""Fixtures of the scorer's tests: a folder the sandbox's user can reach, the environment of
no requirements (built once per session), and programs the tests write themselves.

pytest's ``tmp_path`` is private to root (0700), which the sandbox's unprivileged user cannot
cross, so the programs, submissions and reference data live under a folder of their own.
"""

import shutil
import tempfile
import textwrap
import uuid
from pathlib import Path

import pytest

from scoring.scorer import SandboxLimits, environment_ensure, program_read, scorer_run

# Small limits: every hostile program is stopped within a few seconds.
FAST = SandboxLimits(
    timeout_seconds=3,
    memory_bytes=512 * 1024**2,
    processes=48,
    output_bytes=4 * 1024**2,
    output_files=200,
    tmp_bytes=16 * 1024**2,
    printed_bytes=1024**2,
)
CODABENCH_METADATA = "command: python3 $program/score.py $input $output\n"

if shutil.which("bwrap") is None:
    pytest.skip("bubblewrap is missing: apt-get install bubblewrap", allow_module_level=True)


@pytest.fixture(scope="session")
def sandbox_base():
    base = Path(tempfile.mkdtemp(prefix="pwscup-scorer-tests-"))
    base.chmod(0o755)
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def bare_environment(sandbox_base):
    """The environment of a program without requirements (the interpreter's stdlib only)."""
    return environment_ensure("", cache=sandbox_base / "envs")


@pytest.fixture
def place(sandbox_base):
    """A fresh folder under the reachable base."""
    folder = sandbox_base / uuid.uuid4().hex[:12]
    folder.mkdir(mode=0o755)
    return folder


@pytest.fixture
def make_program(place):
    """``make_program(script, metadata=..., files={...})``: a program folder, read."""

    def make(script: str = "", *, metadata: str = CODABENCH_METADATA, files=None):
        root = place / "program"
        root.mkdir(mode=0o755)
        (root / "metadata").write_text(metadata)
        if script:
            (root / "score.py").write_text(textwrap.dedent(script))
        for name, text in (files or {}).items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        return program_read(root)

    return make


@pytest.fixture
def run_program(place, bare_environment):
    """``run_program(program, **scorer_run options)`` with the small limits."""

    def run(program, **options):
        options.setdefault("limits", FAST)
        return scorer_run(program, environment=bare_environment, work=place / "work", **options)

    return run


@pytest.fixture
def fast_limits():
    return FAST
