"""Reading and writing CSV tables (UTF-8 with or without BOM, or CP932/Shift-JIS).

Every cell is returned as trimmed text; interpretation (numbers, codes) happens later
in :mod:`scoring.prepare`, so that validation can quote exactly what the file holds.
"""

from __future__ import annotations

import csv
import io
import os
from typing import Any

import numpy as np
import pandas as pd

from scoring.errors import ValidationError

_BOM = b"\xef\xbb\xbf"
# Byte patterns that reveal whitespace next to a field separator; when none occurs
# (and there is no quoting) no cell needs trimming, which saves a pass over 25M cells.
_EDGE_SPACE = (b" ,", b"\t,", b", ", b",\t", b" \n", b"\t\n", b"\n ", b"\n\t", b" \r", b"\t\r")


def read_bytes(source: Any, *, name: str = "file") -> bytes:
    """Return the raw bytes of a path, ``bytes`` object or binary file object."""
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    if isinstance(source, str | os.PathLike):
        try:
            with open(source, "rb") as handle:
                return handle.read()
        except OSError as exc:
            raise ValidationError(f"{name}: cannot read the file ({exc.strerror}).") from exc
    if hasattr(source, "read"):
        data = source.read()
        if isinstance(data, str):
            return data.encode("utf-8")
        return bytes(data)
    raise TypeError(f"cannot read a table from {type(source).__name__}")


def decode_text(data: bytes, *, name: str = "file") -> str:
    """Decode CSV bytes as UTF-8 (BOM allowed) or CP932/Shift-JIS.

    Raises
    ------
    ValidationError
        For an empty file, a binary file (NUL bytes) or bytes valid in neither encoding.
    """
    if not data.strip() or data.strip() == _BOM:
        raise ValidationError(f"{name} is empty: expected a CSV file with a header line.")
    if b"\x00" in data:
        raise ValidationError(
            f"{name} is a binary file, not CSV text (it contains NUL bytes). "
            "Upload a CSV file encoded in UTF-8 or Shift-JIS (CP932)."
        )
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as utf8_error:
        try:
            return data.decode("cp932")
        except UnicodeDecodeError:
            line = data[: utf8_error.start].count(b"\n") + 1
            raise ValidationError(
                f"{name} is not text in UTF-8 or Shift-JIS (CP932): undecodable bytes "
                f"on line {line} (byte offset {utf8_error.start}). Save the file as UTF-8 CSV."
            ) from None


def _structural_lines(data: bytes) -> tuple[np.ndarray, np.ndarray]:
    """Line boundaries and field counts of CSV bytes, honouring double quotes.

    A comma or newline is structural when an even number of quote characters precedes
    it (``""`` escapes keep the parity). Works on UTF-8 and CP932 bytes alike: neither
    encoding uses the bytes of ``,``, ``"`` or ``\\n`` inside a multi-byte character.

    Returns
    -------
    starts, fields : ndarray
        Start offset and number of fields of every line (the header included).
    """
    arr = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(arr == 0x0A)
    commas = np.flatnonzero(arr == 0x2C)
    if b'"' in data:
        quote_parity = np.cumsum(arr == 0x22, dtype=np.int64) & 1
        newlines = newlines[quote_parity[newlines] == 0]
        commas = commas[quote_parity[commas] == 0]
    ends = np.append(newlines, arr.size)
    starts = np.concatenate(([0], newlines + 1))
    line_of_comma = np.searchsorted(newlines, commas)
    fields = np.bincount(line_of_comma, minlength=ends.size) + 1
    blank = _blank_lines(arr, starts, ends)
    fields[blank] = 0
    return starts, fields


def _blank_lines(arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Lines holding nothing but spaces, tabs and carriage returns."""
    content = ~np.isin(arr, np.array([0x20, 0x09, 0x0D, 0x0A], dtype=np.uint8))
    before = np.concatenate(([0], np.cumsum(content, dtype=np.int64)))
    return (before[ends] - before[starts]) == 0


def _parse_header(text: str, *, name: str) -> list[str]:
    header = [cell.strip() for cell in next(csv.reader(io.StringIO(text)), [])]
    seen: dict[str, int] = {}
    duplicates = []
    for position, column in enumerate(header, start=1):
        if column in seen and column not in duplicates:
            duplicates.append(column)
        seen.setdefault(column, position)
    if duplicates:
        listed = ", ".join(repr(column) for column in duplicates)
        raise ValidationError(f"{name}: duplicate column name(s) in the header: {listed}.")
    return header


def read_table(source: Any, *, name: str = "file") -> pd.DataFrame:
    """Read a CSV table with a header into a DataFrame of trimmed text cells.

    Parameters
    ----------
    source : str, os.PathLike, bytes or binary file object
        The CSV file.
    name : str, optional
        How messages refer to the file (e.g. ``"anonymized.csv"``).

    Returns
    -------
    pandas.DataFrame
        Columns are the header names; cells are Python ``str`` (object dtype), trimmed,
        ``""`` for an empty cell. A line holding only whitespace is a row of empty cells
        (a deleted row); blank lines at the end of the file are ignored.

    Raises
    ------
    ValidationError
        Empty file, binary or undecodable file, duplicate header names, a row with a
        wrong number of fields.

    Examples
    --------
    >>> read_table(b"a,b\\n1, x\\n,\\n").values.tolist()
    [['1', 'x'], ['', '']]
    """
    data = read_bytes(source, name=name)
    text = decode_text(data, name=name)
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    # Trailing blank lines are an editor artefact, not deleted rows.
    data = data.rstrip(b" \t\r\n")
    text = text.rstrip(" \t\r\n")
    starts, fields = _structural_lines(data)
    header = _parse_header(text, name=name)
    width = len(header)
    data_fields = fields[1:]
    ragged = np.flatnonzero((data_fields != width) & (data_fields != 0))
    if ragged.size:
        shown = ", ".join(
            f"row {row + 1} has {data_fields[row]} fields" for row in ragged[:10].tolist()
        )
        more = f" ({ragged.size} rows in total)" if ragged.size > 10 else ""
        raise ValidationError(
            f"{name}: wrong number of fields (the header has {width}): {shown}{more}. "
            "Rows are numbered from 1 after the header line."
        )
    needs_trim = b'"' in data or any(pattern in data for pattern in _EDGE_SPACE)
    try:
        frame = pd.read_csv(
            io.StringIO(text),
            dtype=object,
            header=0,
            names=list(range(width)) if width else None,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=False,
            skipinitialspace=False,
            engine="c",
        )
    except (pd.errors.ParserError, ValueError) as exc:
        raise ValidationError(f"{name} is not a readable CSV table: {exc}") from None
    frame.columns = header
    if needs_trim:
        for column in range(width):
            values = frame.iloc[:, column]
            frame.isetitem(column, values.str.strip())
    return frame


def write_csv(table: pd.DataFrame, target: Any) -> None:
    """Write a table as UTF-8 CSV without index, with ``"\\n"`` line ends.

    Parameters
    ----------
    table : pandas.DataFrame
        The table to write; the header is its column names.
    target : str, os.PathLike or a text or binary file object
        Where to write.
    """
    text = table.to_csv(index=False, lineterminator="\n")
    if isinstance(target, str | os.PathLike):
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    elif isinstance(target, io.TextIOBase):
        target.write(text)
    else:
        target.write(text.encode("utf-8"))
