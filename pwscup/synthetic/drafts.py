"""The creation form's draft: the original table uploaded at step 1, kept between the two
steps of the console's creation form.

The upload is checked (encoding, header, cells) and written once to the private storage
(``private/synthetic/…``, the local folder or the bucket: every host reads it); the session
holds its name per competition. Step 2 and every form error read it back, so the organizer
never chooses the file again; creating the round, starting over or cancelling deletes it.
A draft whose file has gone (the storage lost it, the session expired) is reported, never
silently replaced.

Step 2 starts from proposals made here: each column's role (numbers → numeric, else
categorical), the label (the last categorical column) and the sizes (the spec's, scaled
down for a small table).
"""

import secrets
from dataclasses import dataclass

import numpy as np
import pandas as pd
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from pwscup.core.files import organizer_csv
from pwscup.core.storage import STORAGE_ERRORS, storage_unavailable, storage_write_slot
from scoring.numbers import parse_numbers
from scoring.synthetic.config import DEFAULTS
from scoring.tables import load_table

FOLDER = "private/synthetic"
EXAMPLES = 4


def _session_key(competition_id: int) -> str:
    return f"synthetic-round-draft-{competition_id}"


@dataclass(frozen=True)
class Draft:
    """A kept upload: its storage name and the name the organizer's file had."""

    file: str
    filename: str


def draft_of(session, competition_id: int) -> Draft | None:
    state = session.get(_session_key(competition_id)) or {}
    if not state.get("file"):
        return None
    return Draft(file=state["file"], filename=state.get("filename") or "original.csv")


def draft_clear(session, competition_id: int) -> None:
    """Forget the competition's draft and delete its file (if the storage still has it)."""
    state = session.pop(_session_key(competition_id), None) or {}
    session.modified = True
    if state.get("file"):
        try:
            default_storage.delete(state["file"])
        except STORAGE_ERRORS:
            pass  # a file left behind under private/ is never served


def draft_store(session, competition_id: int, *, content: bytes, filename: str) -> Draft:
    """Keep an upload for step 2 (replacing an earlier draft). Raises ``Refused`` (503)
    when the storage cannot take it."""
    draft_clear(session, competition_id)
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in filename)[-80:]
    try:
        with storage_write_slot():
            name = default_storage.save(
                f"{FOLDER}/{secrets.token_hex(12)}-{safe}", ContentFile(content)
            )
    except STORAGE_ERRORS as error:
        raise storage_unavailable() from error
    session[_session_key(competition_id)] = {"file": name, "filename": filename}
    session.modified = True
    return Draft(file=name, filename=filename)


def draft_bytes(draft: Draft) -> bytes | None:
    """The kept upload, or None when the storage no longer has it."""
    try:
        with default_storage.open(draft.file, "rb") as handle:
            return handle.read()
    except (FileNotFoundError, *STORAGE_ERRORS):
        return None


@dataclass(frozen=True)
class ColumnProfile:
    """What step 2 shows of a column, and the role proposed for it."""

    name: str
    numeric: bool
    distinct: int
    examples: tuple[str, ...]


def table_frame(content: bytes, *, filename: str) -> pd.DataFrame:
    """The upload's cells as text, read as the round will read it (UTF-8, or converted from an
    encoding recognised for sure). Raises ``scoring.ScoringError`` naming the fault."""
    csv = organizer_csv(content, name=filename)
    return load_table(csv.utf8, name=filename).to_frame()


def column_profiles(frame: pd.DataFrame) -> list[ColumnProfile]:
    """Per column: numeric (every cell a finite number, the platform's one number rule) or
    categorical, its distinct values and a few examples."""
    out = []
    for column in frame.columns:
        cells = frame[column].to_numpy(dtype=object)
        uniques = pd.unique(cells)
        numeric = bool(len(cells)) and bool(np.isfinite(parse_numbers(cells)).all())
        out.append(
            ColumnProfile(
                name=str(column),
                numeric=numeric,
                distinct=int(len(uniques)),
                examples=tuple(str(v)[:30] for v in uniques[:EXAMPLES]),
            )
        )
    return out


def proposed_label(profiles: list[ColumnProfile]) -> str:
    """The label proposed: the last categorical column (Adult's ``income``), else ``""``."""
    categorical = [p.name for p in profiles if not p.numeric]
    return categorical[-1] if categorical else ""


# Room the proposed sizes leave for this many teams' members and non-members.
PROPOSED_TEAMS = 10


def proposed_sizes(rows: int, *, teams: int = PROPOSED_TEAMS) -> dict:
    """The spec's sizes when ``rows`` holds the holdout, the auxiliary table and ``teams``
    teams' members and non-members; else all scaled down by one factor (n_challenge kept a multiple
    of 4, at most twice the members)."""
    spec = {k: DEFAULTS[k] for k in ("n_holdout", "n_train", "n_challenge", "n_aux")}
    needed = (
        spec["n_holdout"] + spec["n_aux"] + teams * (spec["n_train"] + spec["n_challenge"] // 2)
    )
    if rows >= needed:
        return spec
    factor = max(rows, 1) / needed
    n_train = max(2, int(spec["n_train"] * factor))
    n_challenge = max(4, int(spec["n_challenge"] * factor) // 4 * 4)
    n_challenge = min(n_challenge, max(4, (2 * n_train) // 4 * 4))
    return {
        "n_holdout": max(1, int(spec["n_holdout"] * factor)),
        "n_train": n_train,
        "n_challenge": n_challenge,
        "n_aux": max(1, int(spec["n_aux"] * factor)),
    }
