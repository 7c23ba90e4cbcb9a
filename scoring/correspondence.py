"""Attack-phase correspondence tables (metrics.md "Attack-phase correspondence table").

One line per published row, in the published order: the guessed 1-based row of the
reference table, or empty / ``0`` for no guess. An optional single header line (a
first line that is neither empty nor an integer) is skipped. Lines are file lines,
numbered from 1 (the header, when present, is line 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.tables import decode_text, read_bytes

MAX_LISTED = 10


@dataclass(frozen=True)
class AttackScore:
    """Result of scoring one correspondence table."""

    rate: float
    correct: int
    rows: int


def _lines_listing(lines: np.ndarray, values: np.ndarray) -> str:
    shown = [
        f"line {line} ({value!r})"
        for line, value in zip(
            lines[:MAX_LISTED].tolist(), values[:MAX_LISTED].tolist(), strict=True
        )
    ]
    text = ", ".join(shown)
    if lines.size > MAX_LISTED:
        text += f" ({lines.size} lines in total)"
    return text


def read_correspondence(source: Any, *, rows: int, reference_rows: int) -> np.ndarray:
    """Read a correspondence table answering a published target.

    Parameters
    ----------
    source : str, os.PathLike, bytes or binary file object
        The answer file.
    rows : int
        Rows of the published target (expected number of answer lines).
    reference_rows : int
        Rows of the reference table; guesses must lie in ``1..reference_rows``.

    Returns
    -------
    ndarray of int64
        ``rows`` guesses, 0 meaning no guess.

    Raises
    ------
    ValidationError
        Wrong line count, a line that is not an integer (or has several fields), a
        number outside ``1..reference_rows``; the message names the file lines.

    Examples
    --------
    >>> read_correspondence(b"guess\\n3\\n\\n0\\n", rows=3, reference_rows=4).tolist()
    [3, 0, 0]
    """
    data = read_bytes(source, name="correspondence table")
    if not data.strip():
        if rows == 0:
            return np.zeros(0, dtype=np.int64)
        text = ""
    else:
        text = decode_text(data, name="The correspondence table")
    lines = pd.Series(text.splitlines(), dtype=object)
    cells = lines.str.strip().str.strip('"').str.strip()
    first_line = 1
    if len(cells) and cells.iloc[0] != "" and not cells.iloc[0].lstrip("+-").isdigit():
        cells = cells.iloc[1:]
        first_line = 2
    if len(cells) != rows:
        header = " after the header line" if first_line == 2 else ""
        raise ValidationError(
            f"The correspondence table has {len(cells)} answer lines{header}; expected {rows} "
            "(one line per row of the published table, empty or 0 for no guess)."
        )
    values = cells.to_numpy(dtype=object)
    line_numbers = np.arange(first_line, first_line + rows)
    is_integer = cells.str.fullmatch(r"[+-]?\d+").to_numpy(dtype=bool) | (values == "")
    if not is_integer.all():
        bad = np.flatnonzero(~is_integer)
        raise ValidationError(
            "The correspondence table must hold one integer (a row number) per line; "
            f"not an integer at {_lines_listing(line_numbers[bad], values[bad])}."
        )
    numbers = pd.to_numeric(pd.Series(np.where(values == "", "0", values)), errors="coerce")
    guesses = numbers.to_numpy(dtype=np.float64)
    out_of_range = np.flatnonzero((guesses > reference_rows) | (guesses < 0))
    if out_of_range.size:
        raise ValidationError(
            f"Row numbers must be between 1 and {reference_rows} (or empty / 0 for no guess); "
            f"out of range at {_lines_listing(line_numbers[out_of_range], values[out_of_range])}."
        )
    return guesses.astype(np.int64)


def score_correspondence(answer: np.ndarray, truth: np.ndarray) -> AttackScore:
    """Re-identification rate of an answer: correct guesses / published rows.

    Examples
    --------
    >>> score_correspondence(np.array([2, 0, 1]), np.array([2, 3, 3]))
    AttackScore(rate=0.3333333333333333, correct=1, rows=3)
    """
    answer = np.asarray(answer, dtype=np.int64)
    truth = np.asarray(truth, dtype=np.int64)
    if answer.shape != truth.shape:
        raise ValidationError(
            f"The answer has {answer.size} rows but the published table has {truth.size}."
        )
    correct = int(np.sum((answer == truth) & (truth > 0)))
    rows = int(truth.size)
    return AttackScore(rate=correct / rows if rows else 0.0, correct=correct, rows=rows)
