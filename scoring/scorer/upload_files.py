"""The files each upload of a round must hold, as the organizer declared them, and their check.

A round may declare, per submission type (a release, an attack), the file names or glob
patterns an upload must hold (``release.csv``, ``model.json``, ``*.csv``) and whether it may
hold nothing else. An upload's files are its ZIP's members (folders left out), or the one
file it is, under its name. A pattern is matched against a file's whole path in the ZIP,
part by part (``*`` and ``?`` never cross a ``/``): ``*.csv`` is a CSV at the top level,
``data/*.csv`` one in ``data/``. Names are compared case-sensitively.

Examples
--------
>>> rule = parse_file_rule({"required": ["release.csv", "*.json"], "only_required": True},
...                        key="release_files")
>>> files_check(["release.csv", "model.json"], rule)
>>> files_check(["model.json"], rule, zipped=True)  # a ZIP holding model.json alone
Traceback (most recent call last):
...
scoring.scorer.errors.ScorerError: The upload holds no file matching 'release.csv' (the round requires release.csv, *.json; the upload holds model.json).
>>> files_check(["model.json"], rule)  # the file sent alone
Traceback (most recent call last):
...
scoring.scorer.errors.ScorerError: The upload holds only model.json, but the round requires release.csv, *.json: put them in one ZIP file and upload it.
>>> files_check(["release.csv", "model.json", "notes.txt"], rule)
Traceback (most recent call last):
...
scoring.scorer.errors.ScorerError: The upload holds 'notes.txt', which the round does not accept: it takes only release.csv, *.json.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.messages import clip, expect
from scoring.scorer.errors import ScorerError

RULE_KEYS = ("required", "only_required")
MAX_PATTERNS = 20
MAX_PATTERN_CHARS = 128


@dataclass(frozen=True)
class FileRule:
    """The files an upload must hold (``required``: patterns, each matched by one file at
    least) and whether every file must match one of them (``only_required``)."""

    required: tuple[str, ...] = ()
    only_required: bool = False

    @property
    def empty(self) -> bool:
        """Whether the rule asks nothing (every upload passes it)."""
        return not self.required

    @property
    def needs_zip(self) -> bool:
        """Whether an upload needs a ZIP to pass: the rule asks for several files, or a file
        in a folder (one file uploaded alone is one file at the top). PWSCup 2022's release
        is the data and its command log, ``anonymized.csv`` and ``commands.log``."""
        return len(self.required) > 1 or any("/" in pattern for pattern in self.required)

    def as_dict(self) -> dict[str, Any]:
        return {"required": list(self.required), "only_required": self.only_required}


def pattern_matches(pattern: str, name: str) -> bool:
    """Whether the file ``name`` (a path in the upload) matches ``pattern``, part by part.

    Examples
    --------
    >>> pattern_matches("*.csv", "release.csv"), pattern_matches("*.csv", "data/release.csv")
    (True, False)
    >>> pattern_matches("data/*.csv", "data/release.csv")
    True
    """
    parts, name_parts = pattern.split("/"), name.split("/")
    return len(parts) == len(name_parts) and all(
        fnmatch.fnmatchcase(part, wanted) for part, wanted in zip(name_parts, parts, strict=True)
    )


def files_check(names: Iterable[str], rule: FileRule, *, zipped: bool = False) -> None:
    """Refuse an upload whose files (``names``) lack a required one or hold another.

    Raises
    ------
    ScorerError
        ``scorer.files.missing`` naming the first pattern no file matches, or
        ``scorer.files.unexpected`` naming the first file (in sorted order) no pattern
        matches when the rule takes only its files. The missing pattern's message lists
        the files the upload holds (``held``), so that a wrong name (``cc.csv`` for
        ``CC.csv``) shows; an upload of one file where the rule needs a ZIP
        (``FileRule.needs_zip``) is ``scorer.files.missing_zip``, saying to put the files
        in one ZIP, unless it came in a ZIP already (``zipped``: a ZIP of one member, PWSCup
        2024's ten files with nine left out, is told which file it lacks, not to zip it);
        an upload of no file at all is ``scorer.files.empty``.
    """
    if rule.empty:
        return
    names = sorted(set(names))
    listed = _listed(rule.required)
    if not names:
        raise ScorerError("scorer.files.empty", required=listed)
    # One file sent where the rule asks for several: say to send them together in a ZIP.
    alone = len(names) == 1 and not zipped
    missing = "scorer.files.missing_zip" if alone and rule.needs_zip else None
    for pattern in rule.required:
        if not any(pattern_matches(pattern, name) for name in names):
            raise ScorerError(
                missing or "scorer.files.missing",
                pattern=repr(clip(pattern)),
                required=listed,
                held=_listed(names),
            )
    if rule.only_required:
        for name in names:
            if not any(pattern_matches(pattern, name) for pattern in rule.required):
                raise ScorerError("scorer.files.unexpected", name=repr(clip(name)), required=listed)


def not_a_zip_check(name: str, rule: FileRule) -> None:
    """Refuse a file named ``*.zip`` that is no ZIP (a damaged download, another file
    renamed) when the round requires files: read as the one file it is, it would be refused
    for lacking the first required file, which sends its team looking for the wrong fault.
    A round asking for a ``*.zip`` file itself takes it as any file.

    Raises
    ------
    ScorerError
        ``scorer.files.not_zip`` naming the file and the files the round requires.
    """
    if rule.empty or not name.lower().endswith(".zip"):
        return
    if any(pattern_matches(pattern, name) for pattern in rule.required):
        return
    raise ScorerError(
        "scorer.files.not_zip", name=repr(clip(name)), required=_listed(rule.required)
    )


def _listed(names: Iterable[str]) -> str:
    """Names written as one short list for a message (bounded, as every parameter is)."""
    return clip(", ".join(names), 400)


def _pattern_problem(pattern: Any) -> bool:
    if not isinstance(pattern, str) or not 1 <= len(pattern) <= MAX_PATTERN_CHARS:
        return True
    parts = pattern.split("/")
    return (
        "\\" in pattern
        or any(ord(c) < 32 for c in pattern)
        or any(part in ("", ".", "..") for part in parts)
    )


def _refused_entry(required: Any) -> Any:
    """What a refused list of patterns is quoted by: its first bad or repeated pattern (the
    console's field takes one a line: the line at fault, as typed), else the whole value
    (not a list, or too many patterns)."""
    if isinstance(required, list):
        seen = set()
        for pattern in required:
            if _pattern_problem(pattern) or pattern in seen:
                return pattern
            seen.add(pattern)
    return required


def parse_file_rule(value: Any, *, key: str) -> FileRule:
    """The rule of the round's setting ``key`` (``{"required": [...], "only_required": bool}``),
    checked: 0 to 20 distinct patterns of 1 to 128 characters, each a relative path (no
    empty, ``.`` or ``..`` part, no backslash); ``only_required`` needs a pattern."""
    if not isinstance(value, Mapping):
        raise ScorerError(
            "scorer.config.value",
            key=key,
            value=repr(clip(value)),
            expected=expect("file_rule"),
        )
    for name in value:
        if name not in RULE_KEYS:
            raise ScorerError(
                "scorer.config.unknown",
                key=repr(clip(f"{key}.{name}")),
                known=", ".join(RULE_KEYS),
            )
    required = value.get("required", [])
    expected = expect("file_patterns", most=MAX_PATTERNS, chars=MAX_PATTERN_CHARS)
    if (
        not isinstance(required, list)
        or len(required) > MAX_PATTERNS
        or any(_pattern_problem(pattern) for pattern in required)
        or len(set(required)) != len(required)
    ):
        raise ScorerError(
            "scorer.config.value",
            key=f"{key}.required",
            value=repr(clip(_refused_entry(required))),
            expected=expected,
        )
    only = value.get("only_required", False)
    if not isinstance(only, bool) or (only and not required):
        raise ScorerError(
            "scorer.config.value",
            key=f"{key}.only_required",
            value=repr(clip(only)),
            expected=expect("only_required"),
        )
    return FileRule(required=tuple(required), only_required=only)
