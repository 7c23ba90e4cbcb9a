"""Read what a scoring program left in its output folder, once it has stopped.

``scores.json`` is a JSON object of flat score names to finite numbers, with an optional
``targets`` object (``{"targets": {"<team>": {"<key>": number}}}``: the per-target scores
of an attack that covers every target at once). ``detailed_results.html`` is kept as bytes.
The files of ``public/`` (or, without that folder, the files the metadata names) are what
attackers download of a release. Nothing is followed through a link: the program may have
left links to host files in its folder, and they are refused, never read.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from scoring.bounded_json import loads_bounded
from scoring.errors import ConfigError
from scoring.messages import clip
from scoring.scorer.errors import ScorerError

SCORES = "scores.json"
DETAILED = "detailed_results.html"
PUBLIC = "public"
MAX_SCORES_BYTES = 1024 * 1024
MAX_DETAILED_BYTES = 8 * 1024 * 1024
MAX_KEYS = 1_000
MAX_KEY_CHARS = 200
Number = int | float


@dataclass(frozen=True)
class ScorerOutput:
    """The scores, the per-target scores, the detailed page and the public files' paths."""

    scores: dict[str, Number]
    targets: dict[str, dict[str, Number]] = field(default_factory=dict)
    detailed_html: bytes | None = None
    public: tuple[str, ...] = ()  # relative to the output folder


def output_read(
    folder: Path, *, primary_key: str | None = None, public_names: Sequence[str] = ()
) -> ScorerOutput:
    """Read and check ``folder``; raise :class:`ScorerError` (``scorer.scores.*`` and others)."""
    data = read_regular(folder / SCORES, limit=MAX_SCORES_BYTES)
    if data is None:
        raise ScorerError("scorer.scores.missing")
    try:
        parsed = loads_bounded(data, max_bytes=MAX_SCORES_BYTES)
    except ConfigError as error:
        raise ScorerError(
            "scorer.scores.json", detail={"code": error.code, "params": error.params}
        ) from None
    if not isinstance(parsed, dict):
        raise _shape("scorer.scores.not_object")
    targets_value = parsed.pop("targets", {})
    scores = _flat(parsed, "scores.json")
    if not isinstance(targets_value, dict):
        raise _shape("scorer.scores.targets_not_object")
    if len(targets_value) > MAX_KEYS:
        raise _shape("scorer.scores.too_many", where='"targets"', limit=f"{MAX_KEYS:,}")
    targets = {}
    for team, values in targets_value.items():
        if not isinstance(values, dict):
            raise _shape("scorer.scores.target_not_object", team=repr(clip(team)))
        targets[_key(team)] = _flat(values, f'"targets"/{clip(team)!r}')
    if primary_key is not None and primary_key not in scores:
        raise ScorerError("scorer.scores.primary", key=repr(clip(primary_key)))
    return ScorerOutput(
        scores=scores,
        targets=targets,
        detailed_html=read_regular(folder / DETAILED, limit=MAX_DETAILED_BYTES),
        public=_public(folder, public_names),
    )


def _shape(code: str, **params) -> ScorerError:
    """A ``scorer.scores.shape`` error: the shape scores.json must have, then what is wrong
    with this one (the nested message ``code``, in the reader's language too)."""
    return ScorerError("scorer.scores.shape", detail={"code": code, "params": params})


def _key(key: str) -> str:
    if not key or len(key) > MAX_KEY_CHARS:
        raise _shape("scorer.scores.bad_name", name=repr(clip(key)), limit=MAX_KEY_CHARS)
    return key


def _flat(values: dict, where: str) -> dict[str, Number]:
    if len(values) > MAX_KEYS:
        raise _shape("scorer.scores.too_many", where=where, limit=f"{MAX_KEYS:,}")
    for key, value in values.items():
        _key(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _shape("scorer.scores.not_number", where=where, key=repr(clip(key)))
    return dict(values)


def read_regular(path: Path, *, limit: int) -> bytes | None:
    """The bytes of the regular file ``path`` (``None`` when absent or not a regular file,
    links included); :class:`ScorerError` when it holds more than ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = file.read(limit + 1)
    if len(data) > limit:
        raise ScorerError("scorer.file_too_large", name=path.name, limit=f"{limit:,}")
    return data


def _public(folder: Path, names: Sequence[str]) -> tuple[str, ...]:
    """The regular files of ``public/`` (no link followed), else the ``names`` asked for."""
    top = folder / PUBLIC
    if top.is_dir() and not top.is_symlink():
        found = []
        stack = [top]
        while stack:
            for entry in os.scandir(stack.pop()):
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    found.append(Path(entry.path).relative_to(folder).as_posix())
        return tuple(sorted(found))
    for name in names:
        path = folder / name
        linked = any(
            p.is_symlink() for p in [path, *path.parents] if p != folder and folder in p.parents
        )
        if linked or not path.is_file():
            raise ScorerError("scorer.public.missing", name=repr(clip(name)))
    return tuple(names)
