"""Attack-phase correspondence tables (metrics.md "Attack-phase correspondence table").

One line per published row, in the published order: the guessed 1-based row of the
reference table, or empty / ``0`` for no guess. Lines are file lines, numbered from 1
(the header, when present, is line 1), ended by ``\\n``, ``\\r\\n`` or a lone ``\\r``.

* A file made only of empty lines holds that many "no guess" lines; only a file with
  no line at all (zero bytes, or a byte order mark alone) is empty.
* A guess is an integer as written (:func:`scoring.numbers.parse_integers`: full-width
  ``１２`` is 12); ``1e2`` and ``1.0`` are refused, naming the line and the value.
* An optional single header line is a first line holding one field that is neither
  empty nor a number; a line with a comma holds several fields and is rejected, the
  first line included (``1,2`` is not a header).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.messages import MAX_LISTED, clip, listing
from scoring.numbers import normalize_digits, parse_integers, parse_numbers
from scoring.tables import decode_text, read_bytes, unix_line_ends

_BOM = b"\xef\xbb\xbf"
NAME = "the correspondence table"


@dataclass(frozen=True)
class AttackScore:
    """Result of scoring one correspondence table."""

    rate: float
    correct: int
    rows: int


def _lines(lines: np.ndarray, values: np.ndarray) -> dict:
    return listing("lines_values", lines, [clip(v) for v in values[:MAX_LISTED].tolist()])


def _text(data: bytes, *, name: str) -> str:
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    data = unix_line_ends(data)
    if not data.strip():
        # Only ASCII whitespace: empty lines are "no guess" lines, not an empty file.
        return data.decode("ascii")
    return decode_text(data, name=name)


def read_correspondence(
    source: Any, *, rows: int, reference_rows: int | None, name: str = NAME
) -> np.ndarray:
    """Read a correspondence table answering a published target.

    Parameters
    ----------
    source : str, os.PathLike, bytes or binary file object
        The answer file (UTF-8, with or without BOM, or CP932).
    rows : int
        Rows of the published target (expected number of answer lines).
    reference_rows : int or None
        Rows of the reference table; guesses must lie in ``1..reference_rows``. ``None``
        when not known (the command line without ``--reference-rows``): any positive row
        number of at most 18 digits is read (a guess beyond the table is never correct).
    name : str
        What the messages call the file: the name it was uploaded under (the server's); empty
        or left out, "the correspondence table".

    Returns
    -------
    ndarray of int64
        ``rows`` guesses, 0 meaning no guess.

    Raises
    ------
    ValidationError
        An empty file, wrong line count, a line with several fields, a line that is not
        an integer, a number outside ``1..reference_rows``; the message names the file
        lines (the first ten of each kind, and their total), every kind found at once.

    Examples
    --------
    >>> read_correspondence(b"guess\\n3\\n\\n0\\n", rows=3, reference_rows=4).tolist()
    [3, 0, 0]
    >>> read_correspondence("\\n\\n２\\n".encode(), rows=3, reference_rows=4).tolist()
    [0, 0, 2]
    """
    name = name or NAME
    text = _text(read_bytes(source, name=name), name=name)
    if text == "":
        if rows == 0:
            return np.zeros(0, dtype=np.int64)
        raise ValidationError("answer.empty", expected=rows)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the end of the last line, not an extra line
    raw = pd.Series(lines, dtype=object).str.strip()
    cells = normalize_digits(raw.str.strip('"').str.strip())
    fields = cells.str.count(",").to_numpy(dtype=np.int64) + 1
    numbers = parse_numbers(cells.where(cells != "", "0"))
    first_line = 1
    if len(cells) and cells.iloc[0] != "" and fields[0] == 1 and np.isnan(numbers[0]):
        raw, cells, fields, numbers = raw.iloc[1:], cells.iloc[1:], fields[1:], numbers[1:]
        first_line = 2
    problems = []  # (code, params) of each kind of problem, in the order of the checks
    if len(cells) != rows:
        code = "answer.line_count_after_header" if first_line == 2 else "answer.line_count"
        problems.append((code, {"got": len(cells), "expected": rows}))
    values = raw.to_numpy(dtype=object)
    line_numbers = np.arange(first_line, first_line + len(cells))
    several = np.flatnonzero(fields > 1)
    if several.size:
        shown = several[:MAX_LISTED]
        problems.append(
            (
                "answer.fields",
                {
                    "lines": listing(
                        "lines_fields",
                        line_numbers[several],
                        fields[shown].tolist(),
                        value=[clip(v) for v in values[shown].tolist()],
                    )
                },
            )
        )
    integers = _guesses(cells)
    # A line of several fields is told as such, not again as "not an integer".
    not_integer = np.flatnonzero(np.isnan(integers) & (fields == 1))
    if not_integer.size:
        lines = _lines(line_numbers[not_integer], values[not_integer])
        problems.append(("answer.not_integer", {"lines": lines}))
    bound = np.inf if reference_rows is None else reference_rows
    out_of_range = np.flatnonzero((integers > bound) | (integers < 0) | np.isinf(integers))
    if out_of_range.size:
        lines = _lines(line_numbers[out_of_range], values[out_of_range])
        if reference_rows is None:
            problems.append(("answer.out_of_range_unbounded", {"lines": lines}))
        else:
            problems.append(
                ("answer.out_of_range", {"reference_rows": reference_rows, "lines": lines})
            )
    if problems:
        raise _problems_error(problems)
    return integers.astype(np.int64)


def _guesses(cells: pd.Series) -> np.ndarray:
    """Each line's guess as float64: NaN for a line that is not an integer as written, inf
    for digits too many for a row number."""
    # A row number is an integer as written: ``1e2`` or ``1.0`` are refused, not read as 100/1.
    integers = parse_integers(cells.where(cells != "", "0"))
    # Digits only but too many for a row number (19 or more): out of range, not "not an integer".
    too_long = ~np.isfinite(integers) & cells.str.fullmatch(r"[+-]?[0-9]+").to_numpy(dtype=bool)
    integers[too_long] = np.inf
    return integers


# Each kind's message → its part in ``answer.several`` (the same words, without the rule).
_PARTS = {
    "answer.line_count": "answer.part_line_count",
    "answer.line_count_after_header": "answer.part_line_count_after_header",
    "answer.fields": "answer.part_fields",
    "answer.not_integer": "answer.part_not_integer",
    "answer.out_of_range": "answer.part_out_of_range",
    "answer.out_of_range_unbounded": "answer.part_out_of_range_unbounded",
}


def _problems_error(problems: list[tuple[str, dict]]) -> ValidationError:
    """One kind of problem as its own message; several kinds as one message listing each
    (``answer.several``), so that one upload tells all there is to fix."""
    if len(problems) == 1:
        code, params = problems[0]
        return ValidationError(code, **params)
    parts = [{"code": _PARTS[code], "params": params} for code, params in problems]
    return ValidationError("answer.several", problems=parts)


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
        raise ValidationError("answer.length_mismatch", got=answer.size, expected=truth.size)
    correct = int(np.sum((answer == truth) & (truth > 0)))
    rows = int(truth.size)
    return AttackScore(rate=correct / rows if rows else 0.0, correct=correct, rows=rows)
