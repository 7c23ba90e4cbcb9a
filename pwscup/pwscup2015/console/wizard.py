"""The round wizard's state: kept in the session, the uploaded table in private storage.

The organizer uploads the original once; every later step (and every form error) reads it
back from ``private/wizard/…``, so it is never chosen again (a draft of
``pwscup.core.session_drafts``). The state is one JSON-able dict per competition in the
session, beside the draft's file; finishing (or starting over) deletes the file.
"""

import pandas as pd

import scoring
from pwscup.core.files import organizer_csv
from pwscup.core.session_drafts import Draft, SessionDrafts, draft_bytes
from scoring.profiles import ColumnProfile
from scoring.profiles import column_profiles as column_profiles

STEPS = ("upload", "roles", "data", "phases", "rules", "review")
# A numeric column with more distinct values than this is a sensitive attribute by default;
# fewer make it a quasi-identifier (Adult's age has 73 distinct values, fnlwgt ~21,000).
SA_MIN_DISTINCT = 80
PREVIEW_ROWS = 8


DRAFTS = SessionDrafts(session_key="console-round-wizard", folder="private/wizard")
wizard_state = DRAFTS.state
wizard_save = DRAFTS.save
wizard_clear = DRAFTS.clear


class DraftLost(Exception):
    """The original kept at the first step can no longer be read (the storage lost it)."""


def wizard_store_upload(session, competition_id: int, *, content: bytes, filename: str) -> dict:
    """Keep a checked upload for the next steps (replacing an earlier one); a new state.
    Raises ``Refused`` (503) when the storage cannot take it."""
    draft = DRAFTS.store(session, competition_id, content=content, filename=filename)
    state = {"file": draft.file, "filename": draft.filename, "done": ["upload"]}
    wizard_save(session, competition_id, state)
    return state


def wizard_original(state: dict) -> bytes:
    """The original kept at the first step; raises ``DraftLost`` when the storage no longer
    has it."""
    content = draft_bytes(Draft(file=state["file"], filename=state["filename"]))
    if content is None:
        raise DraftLost
    return content


def step_allowed(state: dict, step: str) -> bool:
    """A step is open once every step before it is done."""
    before = STEPS[: STEPS.index(step)]
    return all(s in state.get("done", []) for s in before)


def mark_done(state: dict, step: str) -> None:
    if step not in state.setdefault("done", []):
        state["done"].append(step)


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
