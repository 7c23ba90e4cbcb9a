"""Which text encoding a CSV file is in, when it is not UTF-8.

A team's upload must be UTF-8 (what the kit writes) or Shift_JIS (CP932, what Japanese
Excel saves); any other file is refused with a message that names the encoding it most
likely is (:func:`scoring.tables.decode_text`). An organizer's original is converted to
UTF-8 (:func:`to_utf8`) when its encoding is recognised for sure. Detection is
charset-normalizer's, confined to the encodings this audience's files are plausibly in.

Examples
--------
>>> to_utf8("氏名,年齢\\n山田太郎,30\\n".encode("cp932"))
(b'\\xe6\\xb0\\x8f\\xe5\\x90\\x8d,\\xe5\\xb9\\xb4\\xe9\\xbd\\xa2\\n\\xe5\\xb1\\xb1\\xe7\\x94\\xb0\\xe5\\xa4\\xaa\\xe9\\x83\\x8e,30\\n', 'cp932')
>>> to_utf8(b"a,b\\n1,2\\n")
(b'a,b\\n1,2\\n', 'utf_8')
>>> encoding_label(guess_encoding("name\\nRenée\\n".encode("latin-1")).encoding)
'Windows-1252 (Latin-1)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from charset_normalizer import from_bytes

from scoring.errors import ValidationError
from scoring.messages import clip

UTF8 = "utf_8"
BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# ISO-2022-JP is 7-bit: its text decodes as UTF-8 (ASCII), its escapes give it away.
_ISO2022_ESCAPES = (b"\x1b$B", b"\x1b$@", b"\x1b(B", b"\x1b(J")
# What a CSV file of this audience is plausibly in besides UTF-8: Japanese Excel and
# editors, UTF-16 ("Unicode text"), Western Excel. Detection never picks anything else.
PLAUSIBLE = ("cp932", "shift_jis", "euc_jp", "iso2022_jp", "utf_16", "latin_1", "cp1252")
# A byte that is not UTF-8, as ``surrogateescape`` decodes it; a valid character beyond ASCII.
_STRAY = re.compile("[\udc80-\udcff]")
_VALID_BEYOND_ASCII = re.compile("[^\x00-\x7f\udc80-\udcff]")
_FAMILY = {
    "cp932": "ja",
    "shift_jis": "ja",
    "euc_jp": "ja",
    "iso2022_jp": "ja",
    "latin_1": "western",
    "cp1252": "western",
    "utf_16": "utf_16",
}
# How messages name an encoding (the same words in every language).
_LABELS = {
    UTF8: "UTF-8",
    "cp932": "Shift_JIS (CP932)",
    "shift_jis": "Shift_JIS (CP932)",
    "euc_jp": "EUC-JP",
    "iso2022_jp": "ISO-2022-JP",
    "utf_16": "UTF-16",
    "latin_1": "Latin-1 (ISO-8859-1)",
    "cp1252": "Windows-1252 (Latin-1)",
}
# Shift_JIS text is decoded as CP932, its superset (①, ～ and the NEC/IBM characters).
_CODEC = {"shift_jis": "cp932"}


# JIS X 0208 characters that CP932 (Windows) decodes to other code points than Shift_JIS
# and EUC-JP do (and than Macs and most IMEs type): the pairs look the same on screen.
# Values an organizer typed are compared with uploaded cells after folding both to the JIS
# form (:func:`fold_lookalikes`), so "60〜" typed and "60～" from a CP932 file are one value.
CP932_LOOKALIKES = {
    "\uff5e": "\u301c",  # FULLWIDTH TILDE → WAVE DASH (0x8160)
    "\uff0d": "\u2212",  # FULLWIDTH HYPHEN-MINUS → MINUS SIGN (0x817C)
    "\u2015": "\u2014",  # HORIZONTAL BAR → EM DASH (0x815C; Python's codecs both give U+2015)
    "\u2225": "\u2016",  # PARALLEL TO → DOUBLE VERTICAL LINE (0x8161)
    "\uffe0": "\u00a2",  # FULLWIDTH CENT SIGN → CENT SIGN (0x8191)
    "\uffe1": "\u00a3",  # FULLWIDTH POUND SIGN → POUND SIGN (0x8192)
    "\uffe2": "\u00ac",  # FULLWIDTH NOT SIGN → NOT SIGN (0x81CA)
}
_FOLD = str.maketrans(CP932_LOOKALIKES)


def fold_lookalikes(text: str) -> str:
    """``text`` with the CP932 look-alikes of :data:`CP932_LOOKALIKES` in their JIS form:
    the one form in which a categorical value an organizer typed meets an uploaded cell.

    Examples
    --------
    >>> fold_lookalikes("60\uff5e") == fold_lookalikes("60\u301c") == "60\u301c"
    True
    >>> fold_lookalikes("F")
    'F'
    """
    return text.translate(_FOLD) if not text.isascii() else text


def encoding_label(encoding: str | None) -> str:
    """How messages and pages name an encoding (``"Shift_JIS (CP932)"`` for ``cp932``)."""
    return _LABELS.get(encoding or "", encoding or "")


def is_shift_jis(encoding: str | None) -> bool:
    """Whether ``encoding`` is Shift_JIS or CP932 (a team may upload those as they are)."""
    return _CODEC.get(encoding or "", encoding) == "cp932"


@dataclass(frozen=True)
class Guess:
    """The likely encoding of bytes that are not UTF-8.

    ``encoding`` is a Python codec name (None: no plausible encoding decodes the bytes);
    ``confident`` is False when an encoding of another family fits as well, or when the
    bytes are mostly UTF-8 with a few bytes that are not (``encoding == "utf_8"``).
    """

    encoding: str | None
    confident: bool


def looks_utf16(data: bytes) -> bool:
    """Whether ``data`` is UTF-16 text: it starts with a UTF-16 byte-order mark, or has none
    and looks like UTF-16 of mostly ASCII characters (NUL in nearly every other byte and in
    no other; such bytes are valid UTF-8, so a UTF-8 decoder alone never notices).

    Examples
    --------
    >>> looks_utf16("a,b".encode("utf-16")), looks_utf16("a,b".encode("utf-16-be"))
    (True, True)
    >>> looks_utf16(b"a,b"), looks_utf16(b"\\x00\\x00\\x01\\x00")
    (False, False)
    """
    if data.startswith(_UTF16_BOMS):
        return True
    head = data[: 1 << 16]
    even, odd = head[0::2], head[1::2]
    for zeros, others in ((odd, even), (even, odd)):
        if zeros and zeros.count(0) >= 0.9 * len(zeros) and others.count(0) == 0:
            return True
    return False


def utf8_error(data: bytes) -> UnicodeDecodeError | None:
    """Why ``data`` (BOM allowed) is not UTF-8 text, or None when it is. ISO-2022-JP text,
    although ASCII, is not UTF-8 text here."""
    if any(escape in data for escape in _ISO2022_ESCAPES):
        start = min(data.find(e) for e in _ISO2022_ESCAPES if e in data)
        return UnicodeDecodeError("utf-8", data, start, start + 1, "ISO-2022-JP escape")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return error
    return None


def guess_encoding(data: bytes) -> Guess:
    """The likely encoding of ``data``, bytes that are not UTF-8 (see :func:`utf8_error`).

    Examples
    --------
    >>> guess_encoding("年齢,性別\\n30,男\\n".encode("cp932"))
    Guess(encoding='cp932', confident=True)
    >>> guess_encoding("name,city\\nRenée,Montréal\\n".encode() + b"Jos\\xe9,Paris\\n")
    Guess(encoding='utf_8', confident=False)
    """
    if data.startswith(_UTF16_BOMS):
        return Guess("utf_16", True)
    if any(escape in data for escape in _ISO2022_ESCAPES):
        return Guess("iso2022_jp", True)
    if _mostly_utf8(data):
        return Guess(UTF8, False)
    matches = from_bytes(data, cp_isolation=list(PLAUSIBLE))
    # A Japanese reading is dropped when it is not Japanese text (see reads_as_japanese):
    # Latin-1 letters read as CP932 give rare kanji or half-width kana inside a Latin word
    # ("Fémale" as "F駑ale"), which detection can prefer on a short file.
    readings = [
        match
        for match in matches
        if _FAMILY.get(match.encoding) != "ja"
        or reads_as_japanese(data, _CODEC.get(match.encoding, match.encoding))
    ]
    if not readings:
        # Nothing reads it: bytes only of 0xA0-0xFF beyond ASCII are what ISO-8859-1 text
        # holds (a few accented capitals puzzle detection), and what its message names.
        if not re.search(rb"[\x80-\x9f]", data) and not reads_as_japanese(data, "cp932"):
            return Guess("latin_1", False)
        return Guess(None, False)
    best = min(readings, key=lambda match: match.chaos)
    # A dropped Japanese reading that fits as well still makes the guess unsure.
    tied = [match.encoding for match in matches if match.chaos <= best.chaos]
    if len({_FAMILY.get(encoding) for encoding in tied}) == 1:
        return Guess(best.encoding, True)
    # A Japanese and a Western reading fit as well (a few Japanese words among ASCII, or
    # Latin-1 "éa", also a CP932 kanji). The Japanese reading wins when it holds a
    # character whose first byte is 0x81-0x9F (kana, full-width forms, the common kanji of
    # JIS level 1): ISO-8859-1 text never holds those bytes (Windows-1252 only as rare
    # punctuation), while Latin-1 letters (0xC0-0xFF) read as CP932 give half-width kana or
    # rare kanji. charset-normalizer ranks such ties by its English word model instead.
    japanese = next((encoding for encoding in tied if _FAMILY.get(encoding) == "ja"), None)
    if japanese and _common_japanese(data, _CODEC.get(japanese, japanese)):
        return Guess(japanese, True)
    return Guess(best.encoding, False)


def _common_japanese(data: bytes, codec: str) -> bool:
    """Whether ``data`` read in ``codec`` holds a double-byte character led by 0x81-0x9F."""
    try:
        characters = set(data.decode(codec))
    except UnicodeDecodeError:
        return False
    return any(_cp932_lead(character) in _COMMON_LEADS for character in characters)


# First bytes of the CP932 characters of everyday Japanese text: kana, full-width forms and
# punctuation, and the kanji of JIS level 1 (ISO-8859-1 text never holds these bytes).
_COMMON_LEADS = range(0x81, 0xA0)
_HALF_WIDTH_KANA = "\uff61-\uff9f"
# Half-width kana touching a Latin letter: a Latin-1 capital read as CP932 ("CAÑÓN" as
# "CAﾑﾓN"); Japanese text writes a kana word apart from Latin letters.
_KANA_IN_LATIN_WORD = re.compile(f"[A-Za-z][{_HALF_WIDTH_KANA}]|[{_HALF_WIDTH_KANA}][A-Za-z]")


def _cp932_lead(character: str) -> int | None:
    """The first byte of ``character`` in CP932 when it is a double-byte character there."""
    if character <= "\x7f":
        return None
    encoded = character.encode("cp932", errors="ignore")
    return encoded[0] if len(encoded) == 2 else None


def reads_as_japanese(data: bytes, codec: str = "cp932") -> bool:
    """Whether ``data`` read in ``codec`` (a Japanese one) is plausibly Japanese text.

    It is when it decodes and holds a character of everyday Japanese (kana, full-width
    forms, JIS level-1 kanji), or else only half-width kana written apart from Latin
    letters. ISO-8859-1 letters read as CP932 give neither: rare kanji or half-width kana
    inside a Latin word.

    Examples
    --------
    >>> reads_as_japanese("性別\\n女性\\n".encode("cp932")), reads_as_japanese("ｵﾄｺ".encode("cp932"))
    (True, True)
    >>> reads_as_japanese("sex\\nFémale\\n".encode("latin-1"))  # "F駑ale"
    False
    """
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return False
    characters = {character for character in set(text) if character > "\x7f"}
    if any(_cp932_lead(character) in _COMMON_LEADS for character in characters):
        return True
    kana = {c for c in characters if "\uff61" <= c <= "\uff9f"}
    return characters == kana and not _KANA_IN_LATIN_WORD.search(text)


def _mostly_utf8(data: bytes) -> bool:
    """Whether bytes that are not UTF-8 hold more valid UTF-8 characters beyond ASCII than
    stray bytes: a UTF-8 file with a few bytes of another encoding pasted in. Detection
    would call the whole file Windows-1252 and turn its UTF-8 characters into mojibake
    (``Ã©``), so this is checked first (charset-normalizer has no such answer)."""
    text = data.decode("utf-8", errors="surrogateescape")
    return len(_VALID_BEYOND_ASCII.findall(text)) > len(_STRAY.findall(text))


def position(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line of the file and the byte offset of byte ``offset`` of ``data``."""
    before = data[:offset]
    return before.count(b"\n") + before.replace(b"\r\n", b"").count(b"\r") + 1, offset


def encoding_refusal(data: bytes, error: UnicodeDecodeError, guess: Guess, *, name: str):
    """The ``ValidationError`` for ``data``, not UTF-8, naming ``guess`` (likely, or only
    possible when not confident) and the first byte that is not UTF-8 (its line of the
    file and byte offset)."""
    line, offset = position(data, error.start)
    params = {"name": clip(name), "line": line, "offset": offset}
    if guess.encoding is None:
        return ValidationError("table.encoding_unknown", **params)
    if guess.encoding == UTF8:
        return ValidationError("table.encoding_damaged", **params)
    code = "table.encoding" if guess.confident else "table.encoding_unsure"
    return ValidationError(code, encoding=encoding_label(guess.encoding), **params)


def to_utf8(data: bytes, *, name: str = "file") -> tuple[bytes, str]:
    """An organizer's CSV as UTF-8, and the encoding it was in (``"utf_8"``: already UTF-8,
    with or without BOM, returned as it is).

    Raises
    ------
    ValidationError
        When the encoding cannot be told for sure (two plausible encodings of different
        families fit; the message names the likelier), is none of :data:`PLAUSIBLE`, or
        the file is UTF-8 with a few bytes that are not.
    """
    error = utf8_error(data)
    if error is None:
        return data, UTF8
    guess = guess_encoding(data)
    if not guess.confident or guess.encoding is None:
        raise encoding_refusal(data, error, guess, name=name)
    try:
        text = data.decode(_CODEC.get(guess.encoding, guess.encoding))
    except UnicodeDecodeError:
        raise encoding_refusal(data, error, Guess(None, False), name=name) from None
    return text.encode("utf-8"), guess.encoding
