"""The creation form's draft: the original table uploaded at step 1, kept between the two
steps of the console's creation form.

The upload is checked (encoding, header, cells) and kept as every form of several steps
keeps a file (``pwscup.core.session_drafts``, under ``private/synthetic/``): step 2 and
every form error read it back; creating the round, starting over or cancelling deletes it.

Step 2 starts from proposals made here: each column's role (numbers → numeric, else
categorical), the label (the last categorical column) and the sizes (the spec's, scaled
down for a small table).
"""

from dataclasses import replace

import pandas as pd

from pwscup.core.files import organizer_csv
from pwscup.core.session_drafts import SessionDrafts
from pwscup.synthetic.engine import SIZE_KEYS
from scoring.profiles import ColumnProfile
from scoring.profiles import column_profiles as profiles_of
from scoring.synthetic.config import DEFAULTS
from scoring.tables import load_table

DRAFTS = SessionDrafts(session_key="synthetic-round-draft", folder="private/synthetic")


def table_frame(content: bytes, *, filename: str) -> pd.DataFrame:
    """The upload's cells as text, read as the round will read it (UTF-8, or converted from an
    encoding recognised for sure). Raises ``scoring.ScoringError`` naming the fault."""
    csv = organizer_csv(content, name=filename)
    return load_table(csv.utf8, name=filename).to_frame()


def column_profiles(frame: pd.DataFrame) -> list[ColumnProfile]:
    """Per column (``scoring.profiles``): numeric only when every cell is a finite number (the
    platform's one number rule; an empty cell makes the column categorical), its distinct
    values and a few examples."""
    return [replace(p, numeric=p.all_numeric) for p in profiles_of(frame)]


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
    spec = {k: DEFAULTS[k] for k in SIZE_KEYS}
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
