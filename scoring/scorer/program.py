"""An organizer's scoring program: its ZIP unpacked, its ``metadata`` read and checked.

The program follows Codabench's scoring-program convention, so a program written for
Codabench runs unchanged: a ``metadata`` (or ``metadata.yaml``) file at the top of the ZIP
holds ``command:``, a shell command in which ``$program``, ``$input``, ``$output`` and
``$shared`` are replaced by the folders of the sandbox. Our additions are optional keys
(docs/scorer.md):

``release_command``, ``attack_command``, ``ranking_command``
    The command of one kind of run; a missing release or attack command falls back to
    ``command``, the ranking program has no fallback.
``requirements``
    The program's pinned requirements file (default ``requirements.txt`` when present).
``environment``
    A few plain environment variables, ``NAME: value``.
``truth_mount``
    Where the round's hidden truth folder is mounted (default ``/app/truth``).
``public``
    The output files attackers download of a release, when the program writes no
    ``public/`` folder.
``primary_key``
    The score that ranks, which ``scores.json`` must hold.

Other keys (Codabench's ``description`` and the like) are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from scoring.extras import optional
from scoring.messages import clip
from scoring.scorer.errors import ScorerError
from scoring.scorer.unzip import UnzipLimits, unzip

METADATA_NAMES = ("metadata", "metadata.yaml", "metadata.yml")
MAX_METADATA_BYTES = 64 * 1024
MAX_REQUIREMENTS_BYTES = 64 * 1024
MAX_VARIABLES = 32
MAX_VALUE_CHARS = 1_000
DEFAULT_TRUTH_MOUNT = "/app/truth"
# run kind -> its metadata key; "score" is Codabench's own ``command``.
COMMAND_KEYS = {
    "score": "command",
    "release": "release_command",
    "attack": "attack_command",
    "ranking": "ranking_command",
}
FALLS_BACK = ("release", "attack")
# A run's kind in a message, in the reader's words (scoring/catalogues/scorer.py).
RUN_WORDS = {"release": "scorer.run.release", "attack": "scorer.run.attack"}
# The sandbox's own folders: the truth is mounted elsewhere, or inside /app/input.
APP_FOLDERS = ("/app/program", "/app/output", "/app/shared")
VARIABLE_NAME = re.compile(r"^[A-Z][A-Z0-9_]{0,63}$")
# Set by the sandbox (or able to change how the interpreter or the loader behaves).
RESERVED_VARIABLES = ("PATH", "HOME", "TMPDIR", "LANG", "LANGUAGE", "SHELL", "USER")
RESERVED_PREFIXES = ("LD_", "LC_", "PYTHON", "PIP_", "BASH", "ENV")
# name[extras]==version, an optional environment marker, optional --hash options.
PINNED = re.compile(
    r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?\s*==\s*[A-Za-z0-9.+!_-]+"
    r"(\s*;[^#]*?)?(\s+--hash=[a-z0-9]+:[0-9a-f]+)*$"
)


@dataclass(frozen=True)
class ScorerProgram:
    """An unpacked scoring program (``root`` holds the organizer's files)."""

    root: Path
    commands: dict[str, str]
    requirements: str = ""
    environment: dict[str, str] = field(default_factory=dict)
    truth_mount: str = DEFAULT_TRUTH_MOUNT
    public: tuple[str, ...] = ()
    primary_key: str | None = None

    def command(self, kind: str) -> str:
        """The command of a run of ``kind`` (``score``, ``release``, ``attack``, ``ranking``)."""
        if kind not in COMMAND_KEYS:
            raise ValueError(f"unknown run kind {kind!r}; expected one of {list(COMMAND_KEYS)}")
        if kind in self.commands:
            return self.commands[kind]
        if kind in FALLS_BACK and "score" in self.commands:
            return self.commands["score"]
        if kind in FALLS_BACK:  # the kind in the reader's words, not the key's
            run = {"code": RUN_WORDS[kind]}
            raise ScorerError("scorer.metadata.no_command", kind=run, key=COMMAND_KEYS[kind])
        if kind == "ranking":
            raise ScorerError("scorer.metadata.no_ranking_command")
        raise ScorerError("scorer.metadata.no_commands")


def program_unpack(
    archive: Path, destination: Path, *, limits: UnzipLimits | None = None
) -> ScorerProgram:
    """Unpack the program's ZIP into ``destination`` and read it (:func:`program_read`)."""
    unzip(archive, destination, what="scoring program", limits=limits or UnzipLimits())
    return program_read(destination)


def program_read(folder: Path) -> ScorerProgram:
    """Read and check an unpacked program: its metadata, commands and requirements.

    The metadata is at the top, or inside the one folder at the top (a ZIP made of a
    folder). Raises :class:`ScorerError` (``scorer.metadata.*``, ``scorer.requirements.*``).
    """
    root = _program_root(folder)
    metadata = _read_metadata(root)
    commands = {kind: _text(metadata, key) for kind, key in COMMAND_KEYS.items() if key in metadata}
    if not commands:
        raise ScorerError("scorer.metadata.no_commands")
    return ScorerProgram(
        root=root,
        commands=commands,
        requirements=_requirements(root, metadata),
        environment=_environment(metadata.get("environment")),
        truth_mount=_truth_mount(metadata.get("truth_mount", DEFAULT_TRUTH_MOUNT)),
        public=_public(metadata.get("public", [])),
        primary_key=_text(metadata, "primary_key") if "primary_key" in metadata else None,
    )


def _program_root(folder: Path) -> Path:
    if any((folder / name).is_file() for name in METADATA_NAMES):
        return folder
    entries = [entry for entry in folder.iterdir() if entry.name != "__MACOSX"]
    if len(entries) == 1 and entries[0].is_dir():
        inner = entries[0]
        if any((inner / name).is_file() for name in METADATA_NAMES):
            return inner
    raise ScorerError("scorer.metadata.missing")


def _read_metadata(root: Path) -> dict:
    path = next(root / name for name in METADATA_NAMES if (root / name).is_file())
    data = path.read_bytes()
    if len(data) > MAX_METADATA_BYTES:
        raise _invalid("scorer.metadata.too_large", limit=f"{MAX_METADATA_BYTES:,}")
    # pyyaml is the wheel's ``scorer`` extra: the toolkit's other commands never need it.
    yaml = optional("yaml", extra="scorer")
    try:
        metadata = yaml.safe_load(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise _invalid("scorer.metadata.encoding") from None
    except yaml.YAMLError as error:
        raise _yaml_error(error) from None
    if not isinstance(metadata, dict) or not all(isinstance(k, str) for k in metadata):
        raise _invalid("scorer.metadata.not_mapping")
    return metadata


def _text(metadata: dict, key: str) -> str:
    value = metadata[key]
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        raise _bad_key(key, "scorer.metadata.want_text")
    return value.strip()


def _requirements(root: Path, metadata: dict) -> str:
    name = _text(metadata, "requirements") if "requirements" in metadata else "requirements.txt"
    path = root.joinpath(*_relative(name, "requirements").parts)
    if not path.is_file():
        if "requirements" in metadata:
            raise _bad_key("requirements", "scorer.metadata.no_file", name=repr(clip(name)))
        return ""
    data = path.read_bytes()
    if len(data) > MAX_REQUIREMENTS_BYTES:
        raise ScorerError("scorer.requirements.too_large", limit=f"{MAX_REQUIREMENTS_BYTES:,}")
    return requirements_check(data.decode("utf-8-sig", errors="replace"))


def requirements_check(text: str) -> str:
    """The requirements without comments and blank lines, one per line, each pinned.

    Only ``name==version`` lines (with extras, a marker, ``--hash`` options) are accepted:
    no URL, path, ``-r``, ``-e`` or index option, so the platform alone chooses where
    packages come from.

    Examples
    --------
    >>> requirements_check("# scorer\\nnumpy==2.4.6  # maths\\n\\n")
    'numpy==2.4.6'
    """
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if not stripped:
            continue
        if not PINNED.match(stripped):
            raise ScorerError("scorer.requirements.line", line=number, text=repr(clip(stripped)))
        lines.append(stripped)
    return "\n".join(lines)


def _environment(value) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > MAX_VARIABLES:
        raise _bad_key("environment", "scorer.metadata.want_variables", limit=MAX_VARIABLES)
    variables = {}
    for name, raw in value.items():
        reserved = name in RESERVED_VARIABLES or str(name).startswith(RESERVED_PREFIXES)
        if not isinstance(name, str) or not VARIABLE_NAME.match(name) or reserved:
            raise _bad_key("environment", "scorer.metadata.name_refused", name=repr(clip(name)))
        if isinstance(raw, bool) or not isinstance(raw, str | int | float):
            raise _bad_key("environment", "scorer.metadata.not_plain", name=name)
        text = str(raw)
        if len(text) > MAX_VALUE_CHARS or "\x00" in text:
            raise _bad_key(
                "environment", "scorer.metadata.too_long", name=name, limit=f"{MAX_VALUE_CHARS:,}"
            )
        variables[name] = text
    return variables


def _truth_mount(value) -> str:
    path = PurePosixPath(value) if isinstance(value, str) else None
    if (
        path is None
        or not path.is_absolute()
        or ".." in path.parts
        or path.parts[:2] != ("/", "app")
        or len(path.parts) < 3
        or str(path) == "/app/input"
        or any(str(path) == f or str(path).startswith(f + "/") for f in APP_FOLDERS)
    ):
        raise _bad_key("truth_mount", "scorer.metadata.want_folder")
    return str(path)


def _public(value) -> tuple[str, ...]:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise _bad_key("public", "scorer.metadata.want_files")
    return tuple(str(_relative(name, "public")) for name in names)


def _relative(name: str, key: str) -> PurePosixPath:
    path = PurePosixPath(name)
    if path.is_absolute() or ".." in path.parts or "\\" in name or not path.parts:
        raise _bad_key(key, "scorer.metadata.not_relative", name=repr(clip(name)))
    return path


def _invalid(code: str, **params) -> ScorerError:
    """A ``scorer.metadata.invalid`` error: why is the nested message ``code``."""
    return ScorerError("scorer.metadata.invalid", detail={"code": code, "params": params})


def _yaml_error(error) -> ScorerError:
    """Where the YAML parser stopped (its own text is English): line and column, 1-based."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    if mark is None:
        return _invalid("scorer.metadata.not_yaml")
    return _invalid("scorer.metadata.yaml_at", line=mark.line + 1, column=mark.column + 1)


def _bad_key(key: str, code: str, **params) -> ScorerError:
    """A ``scorer.metadata.key`` error about ``key``: what is wrong is the nested ``code``."""
    return ScorerError("scorer.metadata.key", key=key, detail={"code": code, "params": params})
