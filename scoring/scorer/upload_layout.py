"""The one layout of an upload in the sandbox: a run's own in ``res/``, and the uploads it is
given besides its own.

:func:`upload_lay_out` is the one layout of a kept upload: a ZIP unpacked (with the limits of
any ZIP, or the run's), any other file under its name, every file readable by the sandbox's
user (an executable member of a ZIP stays executable). :func:`scoring.scorer.run.scorer_run`
lays out with it the run's own upload in ``input/res/``; the worker lays out with it each
frozen release an attack is given and each counted attack a ranking run reads
(``pwscup.scorer.services.runs.submission_folder``); ``python -m scoring scorer run
--attacks DIR`` lays out with it the uploads of an organizer's trial, read by
:func:`attacks_read`. :func:`scoring.scorer.run.scorer_run` then binds each read-only at
``input/attacks/<attacker>/<upload>/``.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from scoring.errors import ScoringError
from scoring.scorer.errors import ScorerError
from scoring.scorer.unzip import UnzipLimits, looks_like_zip, unzip

# A target's or an upload's folder name inside the sandbox: a team's slug (Django's, which
# may hold capitals: the demo's teamA), or an upload's id; never a path.
TARGET_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def upload_lay_out(
    upload: Path, *, name: str, into: Path, limits: UnzipLimits | None = None
) -> Path:
    """The upload file ``upload`` laid out in the folder ``into`` as the program's ``res/``
    is when the upload runs: a ZIP unpacked (within ``limits``, else the limits of any
    ZIP), another file copied as ``name``; folders ``0755``, files ``0644``, an executable
    member of a ZIP ``0755``. Returns ``into``.

    Raises
    ------
    ScorerError
        ``scorer.submission.unreadable`` for an upload that cannot be read (none there, a
        folder); ``scorer.zip.*`` for a ZIP the platform refuses to unpack (a damaged one, a
        member with an unsafe name, more than the limits).
    """
    into.mkdir(parents=True, exist_ok=True)
    try:
        zipped = looks_like_zip(upload)
        if not zipped:
            shutil.copyfile(upload, into / name)
    except OSError as error:
        raise ScorerError(
            "scorer.submission.unreadable", detail=error.strerror or str(error)
        ) from None
    if zipped:
        unzip(upload, into, what="submission ZIP", limits=limits or UnzipLimits())
    _readable(into)
    return into


def attacks_read(folder: Path, *, into: Path) -> dict[str, Path]:
    """The counted attacks of a trial ranking run, from ``folder`` laid out as the worker
    lays them out: ``<attacker>/<upload>/`` and the upload's files. An upload folder holding
    one file only holds the upload as the team sent it, laid out by :func:`upload_lay_out`
    (a ZIP unpacked); one holding more is taken as laid out already. Each is copied under
    ``into`` (the given folder is left as it is); returns ``{"<attacker>/<upload>": copy}``,
    what :func:`scoring.scorer.run.scorer_run` takes as ``attacks``.

    Raises
    ------
    ScorerError
        ``scorer.attacks_dir.missing`` when ``folder`` is no folder;
        ``scorer.attacks_dir.layout`` naming the first path (in sorted order) that is not a
        folder of a valid name at the attacker's or the upload's level;
        ``scorer.attacks_dir.upload`` naming an upload the platform would refuse to unpack.
    """
    if not folder.is_dir():
        raise ScorerError("scorer.attacks_dir.missing", path=str(folder))
    found = {}
    for attacker in _named_folders(folder):
        for upload in _named_folders(attacker):
            name = f"{attacker.name}/{upload.name}"
            found[name] = _laid_out(upload, into / attacker.name / upload.name)
    if found:
        _readable(into)  # the folders above each upload's too
    return found


def _named_folders(folder: Path) -> list[Path]:
    """The entries of ``folder``, each a folder named as a team or an upload is."""
    entries = sorted(folder.iterdir())
    for entry in entries:
        if not entry.is_dir() or not TARGET_NAME.match(entry.name):
            raise ScorerError("scorer.attacks_dir.layout", path=str(entry))
    return entries


def _laid_out(upload: Path, into: Path) -> Path:
    files = list(upload.iterdir())
    if len(files) == 1 and files[0].is_file():
        try:
            return upload_lay_out(files[0], name=files[0].name, into=into)
        except ScoringError as error:
            reason = {"code": error.code, "params": error.params}
            raise ScorerError(
                "scorer.attacks_dir.upload", path=str(files[0]), reason=reason
            ) from None
    shutil.copytree(upload, into)
    _readable(into)
    return into


def _readable(folder: Path) -> None:
    """Every folder in ``folder`` ``0755``, every file ``0644`` (``0755`` when its owner may
    run it: a ZIP's executable member): the sandbox's user reads them."""
    for path in (folder, *folder.rglob("*")):
        runs = path.is_dir() or path.stat().st_mode & 0o100
        os.chmod(path, 0o755 if runs else 0o644)
