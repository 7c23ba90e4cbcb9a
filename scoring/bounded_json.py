"""The one JSON reader for configuration text typed or uploaded by people.

:func:`json.loads` recurses once per nesting level (a few thousand ``[`` raise
``RecursionError``), turns a 5,000-digit literal into ``ValueError`` (Python's limit on
integer string conversion) and reads ``1e400`` as infinity. :func:`loads_bounded` refuses
all of these before or while parsing, with one exception type,
:class:`scoring.errors.ConfigError`, whose code names the limit that was hit (rendered in
English or Japanese like every other scoring message). The standard library's hooks
(``parse_int``, ``parse_float``, ``parse_constant``) do the number checks; the depth is
found by a linear scan of the brackets outside strings before the parser runs, so the
check itself never recurses. No maintained library bounds all four (``orjson`` and
``ujson`` bound the depth only), hence this small module.

Examples
--------
>>> loads_bounded('{"U1": 50000, "U4": 0.2}')
{'U1': 50000, 'U4': 0.2}
>>> loads_bounded("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
scoring.errors.ConfigError: The JSON text is nested 100 levels deep; at most 32 levels are allowed.
>>> loads_bounded('{"limit": ' + "9" * 5000 + "}")
Traceback (most recent call last):
...
scoring.errors.ConfigError: The JSON text holds a number literal of 5000 characters ('99999999999999999999…'); at most 40 characters are allowed.
"""

from __future__ import annotations

import json
import math
import os
import re
from typing import Any

from scoring.encodings import looks_utf16
from scoring.errors import ConfigError

MAX_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_NUMBER_CHARS = 40
MAX_INTEGER = 2**63 - 1  # a PostgreSQL bigint; every integer setting fits in it

# A complete JSON string (the unrolled loop: linear, no backtracking); what is left after
# removing them holds the structural brackets only.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (brackets inside strings ignored).

    Examples
    --------
    >>> json_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _number_text(text: str) -> str:
    if len(text) > MAX_NUMBER_CHARS:
        raise ConfigError(
            "json.number_too_long",
            length=len(text),
            limit=MAX_NUMBER_CHARS,
            value=text[:20] + "…",
        )
    return text


def _parse_int(text: str) -> int:
    value = int(_number_text(text))
    if abs(value) > MAX_INTEGER:
        raise ConfigError("json.integer_too_large", value=text, limit=f"{MAX_INTEGER:,}")
    return value


def _parse_float(text: str) -> float:
    value = float(_number_text(text))
    if not math.isfinite(value):
        raise ConfigError("json.not_finite", value=text)
    return value


def _parse_constant(text: str) -> Any:
    raise ConfigError("json.not_finite", value=text)


def loads_bounded(
    text: str | bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Parse JSON text within the limits of size, depth, and number literals.

    Parameters
    ----------
    text : str or bytes
        The JSON text (bytes are decoded as UTF-8, a byte-order mark allowed).
    max_bytes, max_depth : int, keyword-only
        The size of the text in UTF-8 bytes and the nesting depth allowed.

    Returns
    -------
    The parsed value. Number literals are at most :data:`MAX_NUMBER_CHARS` characters,
    integers at most :data:`MAX_INTEGER` in magnitude, floats finite.

    Raises
    ------
    ConfigError
        ``json.too_large``, ``json.too_deep``, ``json.number_too_long``,
        ``json.integer_too_large``, ``json.not_finite``, ``json.utf16``, ``json.not_text`` or
        ``json.invalid`` (with the line and column of a syntax error).
    """
    size = len(text) if isinstance(text, bytes | bytearray) else len(text.encode("utf-8"))
    if size > max_bytes:
        raise ConfigError("json.too_large", size=f"{size:,}", limit=f"{max_bytes:,}")
    if isinstance(text, bytes | bytearray):
        if looks_utf16(bytes(text)):
            raise ConfigError("json.utf16")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise ConfigError("json.not_text", offset=error.start) from None
    depth = json_depth(text)
    if depth > max_depth:
        raise ConfigError("json.too_deep", depth=depth, limit=max_depth)
    try:
        return json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as error:
        raise ConfigError("json.invalid", line=error.lineno, column=error.colno) from None


def load_json_file(path: str | os.PathLike) -> Any:
    """The JSON value of the file at ``path``, read as bytes within the bounds of
    :func:`loads_bounded`; its errors (not UTF-8, a syntax error, ...) name the file as
    ``json.in_file``. An unreadable file raises :class:`OSError`.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
    ...     _ = handle.write(b'{"a": 1')
    >>> load_json_file(handle.name)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.ConfigError: ....json: Not valid JSON: the syntax breaks at line 1, column 8.
    """
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        return loads_bounded(data)
    except ConfigError as error:
        nested = {"code": error.code, "params": error.params}
        raise ConfigError("json.in_file", path=os.fspath(path)[-200:], error=nested) from None
