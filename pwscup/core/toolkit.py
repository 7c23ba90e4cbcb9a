"""The participants' toolkit: the scorers (``scoring``, with ``scoring.kit``) and the team
client (``pwscup.client``, the ``pwscup`` command) as one wheel whose dependencies are only
what ``scoring`` imports — no Django, Celery, gunicorn or psycopg.

A team installs it with ``pip install pwscup_toolkit-<version>-py3-none-any.whl`` (the site
serves it and puts it in every starter-kit ZIP) and then computes exactly the server's scores
on its own machine. Its version is the platform's (``pyproject.toml``) and its dependencies
are the platform's own pins of the distributions named in ``NEEDS``: one place decides a
version.

The wheel is built from this repository by staging the toolkit's files with a generated
``pyproject.toml`` and running pip's standard wheel build (setuptools, no network). Nothing
here imports Django: ``scripts/build_toolkit`` and the Docker image call it before any
settings exist. Standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import functools
import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DISTRIBUTION = "pwscup-toolkit"
#: The third-party distributions ``scoring`` imports (a test checks the lists against its
#: imports); their versions are the platform's pins. What the anonymize-and-attack game's
#: 14 scores, the sequential round's scores and the client need (a fresh environment of
#: about 190 MB):
REQUIRED = ("numpy", "pandas", "charset-normalizer")
#: The rest are extras of the wheel, imported on first use (``scoring.extras``: a command
#: that needs a missing one says which extra to install). Two add speed, never a number (the
#: wheel without them reproduces the server's scores, which are computed with them:
#: tests/pwscup/test_toolkit_wheel.py): ``fast``, numba's compiled nearest-row search behind
#: EUC (10x scipy's cKDTree at 100k rows; without it, every candidate of a row's class is
#: compared in numpy blocks, ``scoring.nearest``) and Arrow's CSV reader (without it, the
#: checking reader reads every file). The others are what one game's code truly needs:
#: ``kit``, scipy for the starter kit's baseline attacks (nearest rows, matching); ``dp``,
#: scipy for the DP round's ranks and plausibility tests; ``synthetic``, scikit-learn for the
#: synthetic round's scores and attacks. Each round kind names the extra its pages and kit
#: install (``install_argument``). ``opendp``: OpenDP's Laplace sampler, which only the
#: platform's own answers use (``scoring.dp.laplace``; 270 MB, no team needs it). ``scorer``:
#: pyyaml, to read an organizer's scoring program's Codabench ``metadata`` (``scoring.scorer``).
#: ``formula``: simpleeval, to evaluate a round's total (``scoring.formula``; the platform's).
#: Fresh environments measured: the wheel alone 189 MB; with kit or dp 332 MB, synthetic
#: 391 MB, fast 566 MB.
EXTRAS = {
    "fast": ("numba", "pyarrow"),
    "kit": ("scipy",),
    "dp": ("scipy",),
    "synthetic": ("scikit-learn", "scipy"),
    "opendp": ("opendp",),
    "scorer": ("pyyaml",),
    "formula": ("simpleeval",),
}
NEEDS = tuple(dict.fromkeys(REQUIRED + tuple(n for names in EXTRAS.values() for n in names)))
#: What the wheel holds, relative to the repository. ``pwscup/__init__.py`` imports nothing
#: (the Celery app is loaded on first use), so ``pwscup.client`` works without the server.
SOURCES = ("scoring", "pwscup/__init__.py", "pwscup/client")
README = ROOT / "docs" / "toolkit.md"
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")


@functools.cache
def platform_metadata() -> dict:
    """``pyproject.toml``'s ``[project]`` table, read once per process (the round pages name
    the wheel on every request; the file changes only with the code). Read-only."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["project"]


def _name(requirement: str) -> str:
    return re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _pins(names) -> list[str]:
    pins = {_name(r): r for r in platform_metadata()["dependencies"]}
    missing = [name for name in names if name not in pins]
    if missing:
        raise LookupError(f"pyproject.toml pins no version of {', '.join(missing)}")
    return [pins[name] for name in names]


def toolkit_dependencies() -> list[str]:
    """The platform's pinned requirement of each distribution in ``REQUIRED``, in order."""
    return _pins(REQUIRED)


def toolkit_extras() -> dict[str, list[str]]:
    """Each extra of the wheel with the platform's pins of its distributions."""
    return {extra: _pins(names) for extra, names in EXTRAS.items()}


def wheel_filename(version: str | None = None) -> str:
    version = version or platform_metadata()["version"]
    return f"{DISTRIBUTION.replace('-', '_')}-{version}-py3-none-any.whl"


def install_argument(extra: str | None = None) -> str:
    """What follows ``pip install`` on a round's pages and in its kit's README: the wheel,
    with the extra its kind's code needs (``EXTRAS``), quoted for every shell (bash, zsh,
    PowerShell, cmd) since square brackets are a pattern to some."""
    if extra is None:
        return wheel_filename()
    if extra not in EXTRAS:
        raise LookupError(f"the toolkit has no extra {extra!r}")
    return f'"{wheel_filename()}[{extra}]"'


def _source_files() -> Iterator[Path]:
    for source in SOURCES:
        path = ROOT / source
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts and file.suffix != ".pyc":
                yield file


def sources_digest() -> str:
    """SHA-256 over the toolkit's files, its README and the platform's metadata: a wheel
    built from other sources is never served for these."""
    digest = hashlib.sha256()
    for file in [*_source_files(), README, ROOT / "pyproject.toml"]:
        digest.update(file.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def _pyproject(version: str, dependencies: list[str], extras: dict[str, list[str]]) -> str:
    requires = ",\n".join(f'    "{requirement}"' for requirement in dependencies)
    optional = "\n".join(
        f"{extra} = [{', '.join(repr(r).replace(chr(39), chr(34)) for r in pins)}]"
        for extra, pins in extras.items()
    )
    return f"""[project]
name = "{DISTRIBUTION}"
version = "{version}"
description = "PWSCup platform toolkit: the exact scorers, the starter kit and the team client"
readme = "README.md"
requires-python = ">=3.11"
dependencies = [
{requires},
]

[project.optional-dependencies]
{optional}

[project.scripts]
pwscup = "pwscup.client.cli:main"

[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[tool.setuptools.packages.find]
include = ["scoring*", "pwscup", "pwscup.client*"]
"""


def build(out_dir: Path) -> Path:
    """Build the wheel into ``out_dir`` and return its path (overwritten if present)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    version = platform_metadata()["version"]
    with tempfile.TemporaryDirectory(prefix="pwscup-toolkit-") as staging:
        stage = Path(staging)
        for source in SOURCES:
            path = ROOT / source
            target = stage / source
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.is_file():
                shutil.copy2(path, target)
            else:
                shutil.copytree(path, target, ignore=IGNORED)
        shutil.copy2(README, stage / "README.md")
        (stage / "pyproject.toml").write_text(
            _pyproject(version, toolkit_dependencies(), toolkit_extras())
        )
        # pip's standard build: setuptools in an isolated build environment (from the package
        # index, or pip's cache), the toolkit's dependencies not installed (--no-deps).
        built = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--quiet",
                "--no-deps",
                "--wheel-dir",
                str(out_dir),
                str(stage),
            ],
            capture_output=True,
            text=True,
        )
        if built.returncode != 0:
            raise RuntimeError(f"the toolkit's wheel build failed:\n{built.stderr[-4000:]}")
    return out_dir / wheel_filename(version)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def toolkit_wheel(cache_dir: Path) -> Path:
    """The wheel of the current sources, built into ``cache_dir/<digest>/`` the first time
    it is asked for (a deployment builds it ahead: ``scripts/build_toolkit``); concurrent
    callers wait for one build under a file lock."""
    folder = Path(cache_dir) / sources_digest()[:16]
    wheel = folder / wheel_filename()
    if wheel.is_file():
        return wheel
    with _locked(Path(cache_dir) / ".build.lock"):
        if not wheel.is_file():
            with tempfile.TemporaryDirectory(dir=cache_dir, prefix=".build-") as scratch:
                built = build(Path(scratch))
                folder.mkdir(parents=True, exist_ok=True)
                built.replace(wheel)  # atomic: a reader never sees half a wheel
    return wheel


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Build the participants' toolkit wheel.")
    parser.add_argument(
        "--cache-dir",
        type=Path,
        help="the platform's toolkit folder (PWSCUP_TOOLKIT_DIR): build it where the site "
        "looks for it",
    )
    parser.add_argument("--out", type=Path, help="or: write the wheel into this folder")
    args = parser.parse_args(argv)
    if args.out is not None:
        print(build(args.out))
    else:
        print(toolkit_wheel(args.cache_dir or ROOT / "var" / "toolkit"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
