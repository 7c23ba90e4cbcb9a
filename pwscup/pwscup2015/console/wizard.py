"""The round wizard's state: kept in the session, the uploaded table in private storage.

The organizer uploads the original once; every later step (and every form error) reads it
back from ``private/wizard/…``, so it is never chosen again. The state is one JSON-able
dict per competition in the session; finishing (or starting over) deletes the file.
"""

import secrets
from dataclasses import dataclass

import numpy as np
import pandas as pd
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

import scoring
from pwscup.core.files import organizer_csv
from scoring.prepare import is_integral_column, numeric_values

STEPS = ("upload", "roles", "data", "phases", "rules", "review")
# A numeric column with more distinct values than this is a sensitive attribute by default;
# fewer make it a quasi-identifier (Adult's age has 73 distinct values, fnlwgt ~21,000).
SA_MIN_DISTINCT = 80
PREVIEW_ROWS = 8


def _session_key(competition_id: int) -> str:
    return f"console-round-wizard-{competition_id}"


def wizard_state(session, competition_id: int) -> dict:
    return dict(session.get(_session_key(competition_id)) or {})


def wizard_save(session, competition_id: int, state: dict) -> None:
    session[_session_key(competition_id)] = state
    session.modified = True


def wizard_clear(session, competition_id: int) -> None:
    state = session.pop(_session_key(competition_id), None) or {}
    if state.get("file"):
        default_storage.delete(state["file"])
    session.modified = True


def wizard_store_upload(session, competition_id: int, *, content: bytes, filename: str) -> dict:
    """Keep a checked upload for the next steps (replacing an earlier one); a new state."""
    wizard_clear(session, competition_id)
    safe_name = "".join(c if c.isalnum() or c in "._-" else "_" for c in filename)[-80:]
    name = default_storage.save(
        f"private/wizard/{secrets.token_hex(8)}-{safe_name}", ContentFile(content)
    )
    state = {"file": name, "filename": filename, "done": ["upload"]}
    wizard_save(session, competition_id, state)
    return state


def wizard_original(state: dict) -> bytes:
    with default_storage.open(state["file"], "rb") as handle:
        return handle.read()


def step_allowed(state: dict, step: str) -> bool:
    """A step is open once every step before it is done."""
    before = STEPS[: STEPS.index(step)]
    return all(s in state.get("done", []) for s in before)


def mark_done(state: dict, step: str) -> None:
    if step not in state.setdefault("done", []):
        state["done"].append(step)


@dataclass(frozen=True)
class ColumnProfile:
    name: str
    distinct: int
    numeric: bool
    integral: bool
    empty: int
    examples: tuple[str, ...]


def column_profiles(table: pd.DataFrame) -> list[ColumnProfile]:
    """Per column: distinct values, numeric or not, empty cells and a few example values."""
    profiles = []
    for column in table.columns:
        values = table[column].to_numpy(dtype=object)
        empty = values == ""
        filled = values[~empty]
        numeric = bool(filled.size) and bool(np.isfinite(numeric_values(filled)).all())
        uniques = pd.unique(filled)
        profiles.append(
            ColumnProfile(
                name=str(column),
                distinct=int(uniques.size),
                numeric=numeric,
                integral=numeric and is_integral_column(filled),
                empty=int(empty.sum()),
                examples=tuple(str(v)[:30] for v in uniques[:4]),
            )
        )
    return profiles


def default_config(profiles: list[ColumnProfile]) -> dict:
    """Starting roles: numeric and many-valued (or fractional) → SA, everything else → QI.

    The column with the most distinct values becomes ``e2_column`` (the exact-match attack),
    the last SA ``e4_column``; the first four QI are the cross-tabulated ones.
    """
    sa = [p for p in profiles if p.numeric and (p.distinct > SA_MIN_DISTINCT or not p.integral)]
    if not sa:
        numeric = [p for p in profiles if p.numeric]
        sa = [max(numeric, key=lambda p: p.distinct)] if numeric else []
    sa_names = [p.name for p in sa]
    qi = [p.name for p in profiles if p.name not in sa_names]
    e2 = max(sa, key=lambda p: p.distinct).name if sa else ""
    return {
        "qi": qi,
        "sa": sa_names,
        "cross": qi[:4],
        "e2_column": e2,
        "e4_column": sa_names[-1] if sa_names else "",
        "match_qi": qi,
        "euc_sa": sa_names,
        "domains": {},
    }


def read_original(content: bytes) -> pd.DataFrame:
    """The uploaded table, as the round will hold it (UTF-8, or converted to it from an
    encoding recognised for sure: ``organizer_csv``); raises ``scoring.ScoringError``
    naming the fault."""
    return scoring.read_table(organizer_csv(content, name="original").utf8, name="original")
