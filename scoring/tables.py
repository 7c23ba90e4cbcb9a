"""Reading and writing CSV tables (UTF-8 with or without BOM, or CP932/Shift-JIS).

Every cell is returned as trimmed text; interpretation (numbers, codes) happens later
in :mod:`scoring.prepare`, so that validation can quote exactly what the file holds.
"""

from __future__ import annotations

import io
import os
import re
from typing import Any

import numpy as np
import pandas as pd

from scoring.arrow_columns import ArrowColumn
from scoring.columns import Table
from scoring.encodings import (
    encoding_refusal,
    guess_encoding,
    is_shift_jis,
    looks_utf16,
    reads_as_japanese,
    utf8_error,
)
from scoring.errors import ValidationError
from scoring.messages import MAX_LISTED, clip, listing
from scoring.table_bounds import (  # noqa: F401 - MAX_*: the bounds' public names, here too
    MAX_CELL_BYTES,
    MAX_COLUMNS,
    check_cell_lengths,
    check_shape,
    parse_header,
    structural_lines,
)

_BOM = b"\xef\xbb\xbf"
_NUL_OR_ESC = re.compile(b"[\\x00\\x1b]")
_CHUNK_ROWS = 200_000
_ASCII_SPACE = np.frombuffer(b" \t\n\r\x0b\x0c", dtype=np.uint8)


def read_bytes(source: Any, *, name: str = "file") -> bytes:
    """Return the raw bytes of a path, ``bytes`` object or binary file object."""
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    if isinstance(source, str | os.PathLike):
        try:
            with open(source, "rb") as handle:
                return handle.read()
        except OSError as exc:
            raise ValidationError(
                "table.unreadable", name=clip(name), reason=str(exc.strerror)
            ) from exc
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
        For an empty file, a binary file (NUL bytes) or bytes in another encoding (the
        message names the likely one, and the line and byte offset of the first byte
        that is not UTF-8).
    """
    return _decode(data, name=name)[0]


def _decode(data: bytes, *, name: str) -> tuple[str, str]:
    if not data.strip() or data.strip() == _BOM:
        raise ValidationError("table.empty", name=clip(name))
    body = data[len(_BOM) :] if data.startswith(_BOM) else data
    error = utf8_error(data)
    if error is None:
        if b"\x00" in data:
            code = "table.utf16" if looks_utf16(data) else "table.binary"
            raise ValidationError(code, name=clip(name))
        return body.decode("utf-8"), "utf-8"
    # Not UTF-8: Shift_JIS (CP932) is read as it is when detection is sure of it, not just
    # because the bytes decode (Latin-1 "éa" is a valid CP932 character), or when no
    # plausible encoding reads them as text at all (full-width letters alone puzzle it) and
    # the CP932 reading is Japanese text (Latin-1 "Fémale" would be "F駑ale").
    guess = guess_encoding(body)
    if b"\x00" in data and guess.encoding != "utf_16":
        raise ValidationError("table.binary", name=clip(name))
    if (guess.confident and is_shift_jis(guess.encoding)) or (
        guess.encoding is None and reads_as_japanese(body)
    ):
        try:
            return body.decode("cp932"), "cp932"
        except UnicodeDecodeError:
            pass
    raise encoding_refusal(data, error, guess, name=name)


def unix_line_ends(data: bytes) -> bytes:
    """Bytes with CR-only line ends (old Mac and Excel exports) turned into ``\\n``.

    Files with ``\\n`` or ``\\r\\n`` line ends are returned unchanged (the CSV parser
    reads both). Safe on CP932 bytes: no multi-byte character contains ``\\r``.

    Examples
    --------
    >>> unix_line_ends(b"a\\r1\\r"), unix_line_ends(b"a\\r\\n1\\r\\n")
    (b'a\\n1\\n', b'a\\r\\n1\\r\\n')
    """
    if b"\r" not in data or data.count(b"\r") == data.count(b"\r\n"):
        return data
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _has_edge_spaces(data: bytes) -> bool:
    """Whether a space or tab touches a separator or a line end (cells need trimming)."""
    arr = np.frombuffer(data, dtype=np.uint8)
    spaces = np.flatnonzero((arr == 0x20) | (arr == 0x09))
    if spaces.size == 0:
        return False
    separators = np.array([0x2C, 0x0A, 0x0D], dtype=np.uint8)
    before = arr[np.maximum(spaces - 1, 0)]
    after = arr[np.minimum(spaces + 1, arr.size - 1)]
    return bool(
        np.isin(before, separators).any()
        or np.isin(after, separators).any()
        or spaces[0] == 0
        or spaces[-1] == arr.size - 1
    )


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
    return load_table(source, name=name).to_frame()


def load_table(source: Any, *, name: str = "file") -> Table:
    """Read a CSV table as :class:`scoring.columns.Table` (what the engine scores fastest).

    Same file rules and messages as :func:`read_table`, which is this table as a
    DataFrame. A plain file (no double quote, no space or tab next to a separator, every
    line with all its fields) is parsed by Arrow's multi-threaded CSV reader, whose cells
    are then the file's text as is; any other file goes through the checking reader
    (field counts of every line, blank lines as deleted rows, trimming), so every message
    names the same rows and values whichever reader ran.

    Examples
    --------
    >>> table = load_table(b"a,b\\n1,x\\n,\\n")
    >>> table.columns, len(table), table.column("a").numbers().tolist()
    (['a', 'b'], 2, [1.0, nan])
    """
    data = read_bytes(source, name=name)
    # ASCII is UTF-8 as it is, unless NUL bytes or ISO-2022-JP escapes (ESC) make it other.
    if data and not data.isspace() and data.isascii() and not _NUL_OR_ESC.search(data):
        text, encoding = "", "utf-8"  # valid UTF-8 as it is: no need to decode a copy
    else:
        text, encoding = _decode(data, name=name)
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    data = unix_line_ends(data)
    # Trailing blank lines are an editor artefact, not deleted rows.
    data = data.rstrip(b" \t\r\n")
    if encoding == "utf-8":
        plain = data
    else:
        plain = unix_line_ends(text.encode("utf-8")).rstrip(b" \t\r\n")
    del text  # the decoded copy of the whole file is not needed any more
    check_shape(plain, name=name)
    check_cell_lengths(plain, name=name)
    table = _read_plain(plain, name=name)
    del plain
    if table is not None:
        return table
    return Table.from_frame(_read_checked(data, encoding, name=name))


_MAX_BLOCK = 1 << 22
_MIN_BLOCK = 1 << 16


def _block_size(size: int) -> int:
    """Arrow's block size for ``size`` bytes: 4 MiB, but a small file is still cut into
    one block per core (Arrow parses blocks in parallel and one block runs on one core,
    so an upload of a few thousand rows would otherwise be parsed on one core). The
    margin keeps a small last block from forming when a block ends at its last full line."""
    per_core = size // (os.cpu_count() or 1) + _MIN_BLOCK
    return max(_MIN_BLOCK, min(_MAX_BLOCK, per_core))


def _read_plain(data: bytes, *, name: str) -> Table | None:
    """The table parsed by Arrow, or None when the file needs the checking reader."""
    if b'"' in data or ((b" " in data or b"\t" in data) and _has_edge_spaces(data)):
        return None
    header_end = data.find(b"\n")
    if header_end < 0:
        return None
    header = parse_header(data[:header_end].decode("utf-8").rstrip("\r"), name=name)
    width = len(header)
    if width == 0 or any(column == "" for column in header):
        return None
    try:
        import pyarrow as pa
        import pyarrow.csv as pacsv
    except ImportError:  # the toolkit without its "fast" extra: the checking reader reads it
        return None

    names = [str(k) for k in range(width)]
    # Arrow reads a copy in its own pool, not a view of the bytes. Its reader threads may drop
    # their last reference to the input after read_csv has returned; a buffer wrapping Python
    # bytes takes the GIL to be released, and a thread that asks for it while the interpreter
    # exits is ended mid-destructor: the process aborts ("terminate called without an active
    # exception"; the CLI once exited -6 after its message). Arrow's own memory is freed
    # without Python, whenever that thread lets go. The copy costs about 1 % of the read
    # (benchmarks/README.md, "Measurements behind design choices").
    body = pa.allocate_buffer(len(data) - header_end - 1)
    pa.FixedSizeBufferWriter(body).write(memoryview(data)[header_end + 1 :])
    try:
        parsed = pacsv.read_csv(
            pa.BufferReader(body),
            read_options=pacsv.ReadOptions(column_names=names, block_size=_block_size(len(data))),
            parse_options=pacsv.ParseOptions(
                delimiter=",", quote_char=False, newlines_in_values=False, ignore_empty_lines=False
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={k: pa.string() for k in names},
                null_values=[""],
                strings_can_be_null=True,
                check_utf8=False,
            ),
        )
    except pa.ArrowException:
        parsed = None  # a ragged line, a blank line: the checking reader says what it is
    if parsed is None:
        return None
    return Table(header, [ArrowColumn(parsed.column(k)) for k in range(width)], parsed.num_rows)


def _read_checked(data: bytes, encoding: str, *, name: str) -> pd.DataFrame:
    """The checking reader: field counts of every line, blank lines, trimming."""
    # ``structural_lines`` splits fields exactly as pandas' C parser below does (a quote opens
    # a quoted field only as a field's first byte), so a ragged line is named here, by row.
    starts, ends, fields = structural_lines(data)
    header = parse_header(data[: ends[0]].decode(encoding), name=name)
    width = len(header)
    data_fields = fields[1:].copy()
    if width != 1:
        # A line without any separator is either blank (a deleted row) or ragged; blank
        # when all its bytes are ASCII whitespace (what ``bytes.strip`` removes). In a table
        # of one column it is a row like any other; a line with a separator is ragged there.
        single = np.flatnonzero(data_fields == 1)
        if single.size:
            arr = np.frombuffer(data, dtype=np.uint8)
            solid = np.concatenate(([0], np.cumsum(~np.isin(arr, _ASCII_SPACE), dtype=np.int64)))
            blank = solid[ends[single + 1]] == solid[starts[single + 1]]
            data_fields[single[blank]] = 0
    ragged = np.flatnonzero((data_fields != width) & (data_fields != 0))
    if ragged.size:
        raise ValidationError(
            "table.ragged",
            name=clip(name),
            width=width,
            rows=listing("rows_fields", ragged + 1, data_fields[ragged[:MAX_LISTED]].tolist()),
        )
    needs_trim = b'"' in data or _has_edge_spaces(data)
    try:
        # The header line is read as a row, not as the column names: the parser then takes
        # the number of columns from it and refuses any longer line ("Expected 5 fields in
        # line 2, saw 6"). Given names, pandas would instead make the extra leading field of
        # a longer first row the index of the whole table and shift every column silently
        # (and with ``index_col=False`` drop the extra field with a mere warning).
        chunks = pd.read_csv(
            io.BytesIO(data),
            encoding=encoding,
            dtype=object,
            header=None,
            index_col=False,
            keep_default_na=False,
            na_filter=False,
            skip_blank_lines=False,
            engine="c",
            chunksize=_CHUNK_ROWS,
        )
        parts = [_share_values(chunk, trim=needs_trim) for chunk in chunks]
        if not parts or parts[0].shape[1] != width:
            got = parts[0].shape[1] if parts else 0
            raise ValueError(f"the header line has {got} fields, expected {width}")
        parts[0] = parts[0].iloc[1:]
        frame = pd.concat(parts, ignore_index=True)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        raise ValidationError("table.unparsable", name=clip(name), detail=clip(exc, 200)) from None
    frame.columns = header
    return frame


def _share_values(chunk: pd.DataFrame, *, trim: bool) -> pd.DataFrame:
    """Trim cells if needed and make equal cells share one ``str`` object.

    A million-row table holds 25 million cells but few distinct values per column;
    sharing them cuts the memory of the table by about seven times.
    """
    columns = {}
    for column in chunk.columns:
        codes, uniques = pd.factorize(chunk[column].to_numpy(dtype=object))
        uniques = np.asarray(uniques, dtype=object)
        if trim:
            uniques = pd.Series(uniques, dtype=object).str.strip().to_numpy(dtype=object)
        columns[column] = uniques[codes] if codes.size else np.empty(0, dtype=object)
    return pd.DataFrame(columns, index=chunk.index, dtype=object)


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
