"""Bounds on a table's raw bytes, checked before any parser runs: the most columns a header
may name and the longest cell, so that a hostile file is refused for the price of a scan
(:func:`scoring.tables.load_table` calls both). Also the structural lines of a CSV file
(where each record starts and ends, and its number of fields), which the checking reader
uses to name a ragged row.
"""

from __future__ import annotations

import csv
import io

import numpy as np

from scoring.errors import ValidationError
from scoring.messages import clip, quoted

# The longest cell any table may hold, in bytes of UTF-8 (a value of a column: a category, a
# number, an id; the longest in the project's data is under 40). Checked on the raw bytes
# before any parser runs, so a hostile cell costs nothing: a column of text cells turned
# into a fixed-width array anywhere downstream costs rows × longest cell × 4 bytes (a 400 KB
# cell over 6,000 rows asked for 10 GB before this bound).
MAX_CELL_BYTES = 1024
# The most columns a table may have (the benchmarks' widest table has 25; the PWSCup
# editions' tables have tens). A header of a million one-letter columns is a 3 MB file that cost a
# reader 1.8 GB (``benchmarks/bench_hostile_files.py``): refused on its header line first.
MAX_COLUMNS = 1000
# The raw bytes are scanned for separators about this many at a time (a boolean per byte),
# so the scan's memory stays bounded whatever the file.
_CELL_SCAN_BYTES = 1 << 24
_SEPARATORS = (b",", b"\n", b"\r")


def structural_lines(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Line boundaries and field counts of CSV bytes, split as the CSV reader splits them.

    A double quote opens a quoted field only as the very first byte of a field (at the start
    of the file or right after a comma or newline that is itself structural); inside a quoted
    field ``""`` is a quote and a lone ``"`` closes the field. Anywhere else a quote is a
    literal character and opens nothing: in ``1, "2,3"`` the space comes first, so the line
    has three fields (``1``, `` "2`` and ``3"``). This is what pandas' C parser (the checking
    reader) does, and Python's ``csv`` module the same (the header's reader: its default
    ``skipinitialspace=False``): both switch to a quoted field only in their start-of-field
    state, and a byte after a closing quote (``"ab"c``) puts them back in an unquoted field,
    where quotes are literal again. Works on UTF-8 and CP932 bytes alike: neither encoding
    uses the bytes of ``,``, ``"`` or ``\\n`` inside a multi-byte character.

    Returns
    -------
    starts, ends, fields : ndarray
        Start and end offsets and number of fields of every line (the header included).

    Examples
    --------
    >>> structural_lines(b'a,b\\n"1,2",3\\n 1,"2,3"\\n 1, "2,3"')[2].tolist()
    [2, 2, 2, 3]
    """
    arr = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(arr == 0x0A)
    commas = np.flatnonzero(arr == 0x2C)
    if b'"' in data:
        quoted = _quoted_bytes(arr)
        newlines = newlines[~quoted[newlines]]
        commas = commas[~quoted[commas]]
    ends = np.append(newlines, arr.size)
    starts = np.concatenate(([0], newlines + 1))
    commas_before = np.searchsorted(commas, ends)
    fields = np.diff(commas_before, prepend=0) + 1
    return starts, ends, fields


def _quoted_bytes(arr: np.ndarray) -> np.ndarray:
    """Which bytes of CSV bytes lie in a quoted field (a boolean per byte; what it says of a
    quote itself is not meant).

    Usually the parity of the quotes up to a byte: a quoted field opens at a quote, ``""``
    pairs inside keep the parity and the quote that closes it makes it even again. That is
    the reader's state as long as every quote that makes the parity odd is one the reader
    takes to open a quoted field or to be the second of a ``""`` pair: the first byte of a
    field, or a quote right after a quote. Any other (``1, "2,3"``, ``"ab"c"d``) is a literal
    character to the reader, and the state is then worked out from every run of quotes
    (:func:`_quoted_spans`), which costs about twice the scan.
    """
    quote = arr == 0x22
    # The count's parity in one byte a position (it wraps at 256, an even number).
    inside = np.cumsum(quote, dtype=np.uint8)
    inside &= 1
    inside = inside.view(bool)
    literal = quote[1:] & inside[1:]
    before = arr[:-1]
    for byte in (0x22, 0x2C, 0x0A):
        literal &= before != byte
    if not literal.any():
        return inside
    flips = np.zeros(arr.size, dtype=np.uint8)
    flips[_quoted_spans(arr)] = 1
    inside = np.cumsum(flips, dtype=np.uint8, out=flips)
    inside &= 1
    return inside.view(bool)


def _quoted_spans(arr: np.ndarray) -> np.ndarray:
    """Where the quoted fields of CSV bytes open and close: sorted offsets, alternately the
    first quote of a run of quotes that opens a quoted field and the first quote of the run
    that closes it. A byte that is not a quote lies in a quoted field when an odd number of
    these offsets precede it.

    The reader's states, on runs of consecutive quotes (a run holds no comma or newline):
    outside a quoted field, a run at the start of a field opens one with its first quote and
    reads the rest as ``""`` pairs, so the field is left open after a run of odd length;
    a run elsewhere is literal. Inside, the run's pairs are quotes and an odd one out closes
    the field. So a run of even length changes nothing, one of odd length at the start of a
    field flips the state, and one of odd length elsewhere leaves it closed whatever it was:
    the state after a run is the parity of the flips since the last such run.

    Examples
    --------
    >>> _quoted_spans(np.frombuffer(b'"a,b",x"y,"z""', dtype=np.uint8)).tolist()
    [0, 4, 10]
    """
    quotes = np.flatnonzero(arr == 0x22)
    first = np.flatnonzero(np.diff(quotes, prepend=-2) != 1)  # each run's first quote
    starts = quotes[first]
    odd = (np.diff(first, append=quotes.size) & 1).astype(bool)
    before = arr[np.maximum(starts - 1, 0)]
    at_field_start = (starts == 0) | (before == 0x2C) | (before == 0x0A)
    flips = np.cumsum(odd & at_field_start, dtype=np.int64)
    closes = odd & ~at_field_start
    last_close = np.maximum.accumulate(np.where(closes, np.arange(starts.size), -1))
    inside = ((flips - np.where(last_close >= 0, flips[last_close], 0)) & 1).astype(bool)
    changed = inside != np.concatenate(([False], inside[:-1]))
    return starts[changed]


def check_shape(data: bytes, *, name: str = "file", most: int = MAX_COLUMNS) -> None:
    """Refuse a table whose header line has more than ``most`` fields (separators counted on
    the raw bytes, before any parser sees them).

    Examples
    --------
    >>> check_shape(b"a,b,c\\n1,2,3\\n", most=2)
    Traceback (most recent call last):
    ...
    scoring.errors.ValidationError: file: the header has 3 columns; a table may have at most 2.
    """
    end = data.find(b"\n")
    fields = data.count(b",", 0, end if end >= 0 else len(data)) + 1
    if fields > most:
        raise ValidationError("table.too_many_columns", name=clip(name), got=fields, most=most)


def check_cell_lengths(data: bytes, *, name: str = "file", limit: int = MAX_CELL_BYTES) -> None:
    """Refuse a table holding a run of more than ``limit`` bytes between two separators
    (``,`` or a line end), naming the column, the row and the limit.

    ``data`` is the file as UTF-8 with ``\\n`` or ``\\r\\n`` line ends. A quoted cell holding
    commas is measured in its parts, so the bound is on what lies between separators; parsing
    text of that shape costs memory in proportion to the file's size, which the upload limit
    bounds.

    Examples
    --------
    >>> check_cell_lengths(b"a,b\\n1,xxxxx\\n", limit=4)
    Traceback (most recent call last):
    ...
    scoring.errors.ValidationError: file: the cell in column 'b' at row 1 holds 5 bytes; a cell may hold at most 4 bytes. Rows are numbered from 1 after the header line.
    """
    if len(data) <= limit:
        return
    # A run of more than ``limit`` bytes covers at least one whole block of ``limit // 3``
    # bytes (also where it ends in the file's last, partial block): only a block holding no
    # separator at all is looked at closely, which in a real table none is.
    block = max(limit // 3, 1)
    arr = np.frombuffer(data, dtype=np.uint8)
    whole = arr.size // block * block
    span = max(_CELL_SCAN_BYTES // block, 1) * block
    checked_until = 0
    for start in range(0, whole, span):
        part = arr[start : min(start + span, whole)]
        separator = part == 0x2C
        separator |= part == 0x0A
        separator |= part == 0x0D
        for k in np.flatnonzero(~separator.reshape(-1, block).any(axis=1)).tolist():
            offset = start + k * block
            if offset < checked_until:
                continue  # a block of a run already measured
            # The run's ends are looked for within ``limit`` bytes of the block only (a search
            # through the whole file for each block would make a file of long cells cost
            # its length squared); a run reaching past that is over the bound.
            low, high = max(offset - limit - 1, 0), min(offset + block + limit + 1, len(data))
            run_start = max(data.rfind(byte, low, offset) for byte in _SEPARATORS) + 1
            ends = [data.find(byte, offset, high) for byte in _SEPARATORS]
            run_end = min((end for end in ends if end >= 0), default=-1)
            if run_start == 0 and low > 0 or run_end < 0 and high < len(data):
                run_start, run_end = _run_around(data, offset)
            elif run_end < 0:
                run_end = len(data)
            if run_end - run_start > limit:
                _refuse_long_cell(data, run_start, run_end - run_start, name, limit)
            checked_until = run_end


def _run_around(data: bytes, offset: int) -> tuple[int, int]:
    """The run of non-separator bytes holding ``offset``: its start and end (searched
    through the file, once, for the message of a refused cell)."""
    start = max(data.rfind(byte, 0, offset) for byte in _SEPARATORS) + 1
    ends = [data.find(byte, offset) for byte in _SEPARATORS]
    return start, min((end for end in ends if end >= 0), default=len(data))


def _refuse_long_cell(data: bytes, offset: int, size: int, name: str, limit: int) -> None:
    line_start = data.rfind(b"\n", 0, offset) + 1
    row = data.count(b"\n", 0, offset)  # 0: the header line
    position = _field_index(data[line_start:offset])
    if row == 0:
        raise ValidationError(
            "table.header_cell_too_long",
            name=clip(name),
            column=position + 1,
            size=size,
            limit=limit,
        )
    header = parse_header(data[: data.find(b"\n")].decode("utf-8", "replace"), name=name)
    column = header[position] if position < len(header) else f"#{position + 1}"
    raise ValidationError(
        "table.cell_too_long",
        name=clip(name),
        column=clip(column),
        row=row,
        size=size,
        limit=limit,
    )


def _field_index(prefix: bytes) -> int:
    """The 0-based field, in its line, of the cell that starts right after ``prefix`` (the
    line's bytes before it), as the CSV reader splits the line: a comma inside a quoted
    field (a sequential release's ``"[22,52]"``) separates nothing.

    >>> _field_index(b'1,"[22,52]","[14000,33000]",')
    3
    >>> _field_index(b'1,"a,')  # the cell is the rest of the quoted field "a,…"
    1
    """
    try:
        fields = next(csv.reader(io.StringIO(prefix.decode("utf-8", "replace"))), [""])
    except csv.Error:  # a quoted field past the csv module's field limit: count the commas
        return prefix.count(b",")
    return len(fields) - 1


def parse_header(text: str, *, name: str) -> list[str]:
    try:
        header = [cell.strip() for cell in next(csv.reader(io.StringIO(text)), [])]
    except csv.Error as exc:  # e.g. a header cell longer than the csv module's 128 KiB
        raise ValidationError(
            "table.unparsable", name=clip(name), detail=clip(f"header line: {exc}", 200)
        ) from None
    empty = [position for position, column in enumerate(header, start=1) if column == ""]
    if empty:
        # A nameless column (``a,,c``; a trailing comma; a spreadsheet's index column) names
        # nothing a configuration, a schema or a team could refer to: refused in every table.
        raise ValidationError(
            "table.empty_column_name", name=clip(name), positions=", ".join(map(str, empty))
        )
    seen: dict[str, int] = {}
    duplicates = []
    for position, column in enumerate(header, start=1):
        if column in seen and column not in duplicates:
            duplicates.append(column)
        seen.setdefault(column, position)
    if duplicates:
        raise ValidationError(
            "table.duplicate_columns", name=clip(name), columns=quoted(duplicates)
        )
    return header
