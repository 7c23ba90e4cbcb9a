"""Reading a stored per-person table (``risk_per_person.csv``, spec §7.4, as
:func:`scoring.sequential.evaluate.risk_per_person_csv` writes it) back: the table as known at
a release (:func:`per_person_known_at`) and how many groups could hold each person in each
release (:func:`groups_per_release`). Text in, text or plain numbers out, so a table kept
from an earlier check reads the same wherever it is shown.

Examples
--------
>>> table = "pid,lsf,lsb,groups_per_release\\nA,1,3,2;1;1\\nB,2,2,3\\n"
>>> per_person_known_at(table, 2).splitlines()[1]
'A,1,2,2;1;1'
>>> [(row["step"], row["persons"], row["min"], row["max"]) for row in groups_per_release(table, upto=2)]
[(1, 1, 2, 2), (2, 2, 1, 3)]
"""

from __future__ import annotations

import csv
import io

import pandas as pd


def per_person_known_at(per_person_csv: str, step: int) -> str:
    """A per-person table of releases 1 … ``step`` with every ``lsb`` cut at ``step``, as the
    check against the master known at ``step`` (``Master.known_at``) writes it (then the text
    is returned unchanged): whatever a stored table holds, when a person leaves after
    ``step`` is not shown."""
    if not per_person_csv:
        return per_person_csv
    rows = list(csv.reader(io.StringIO(per_person_csv)))
    if "lsb" not in rows[0]:
        return per_person_csv
    column = rows[0].index("lsb")
    # By hand, row by row: only the cut cells change and every other cell keeps its text
    # as stored (a DataFrame written back would rewrite the numbers' text).
    changed = False
    for row in rows[1:]:
        if column < len(row) and row[column].isdigit() and int(row[column]) > step:
            row[column], changed = str(step), True
    if not changed:
        return per_person_csv
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def groups_per_release(per_person_csv: str, *, upto: int) -> list[dict]:
    """Per release ``1 … upto`` a person of the table is in: how many persons it covers and
    how many of its groups could hold each of them (the table's ``groups_per_release``, one
    count per release from the person's ``lsf``): ``{"step", "persons", "min", "mean",
    "max"}``, by step. Empty for an empty table, or one without those columns; a person
    whose ``lsf`` is not a whole number is left out."""
    try:
        table = pd.read_csv(io.StringIO(per_person_csv), dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        return []
    if not {"lsf", "groups_per_release"} <= set(table.columns):
        return []
    table = table[table["lsf"].str.isdigit()]
    pieces = table["groups_per_release"].str.split(";").explode()
    pieces = pieces[pieces.str.strip() != ""]
    # A person's n-th count is of release lsf + n (blank pieces are not counted).
    steps = table["lsf"].astype(int).reindex(pieces.index) + pieces.groupby(level=0).cumcount()
    counts = pd.DataFrame({"step": steps.to_numpy(), "groups": pieces.astype(int).to_numpy()})
    summary = counts[counts["step"] <= upto].groupby("step")["groups"]
    summary = summary.agg(["size", "min", "mean", "max"])
    return [
        {
            "step": int(step),
            "persons": int(row["size"]),
            "min": int(row["min"]),
            "mean": float(row["mean"]),
            "max": int(row["max"]),
        }
        for step, row in summary.iterrows()
    ]
