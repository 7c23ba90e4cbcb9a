"""Names people read side by side (team names): one normal form to store, one folded form to
compare, so that a name cannot pass for another one of the same competition.

* ``name_normal``: Unicode NFKC (full-width ``Ｔｅａｍ`` → ``Team``, a no-break space or an
  ideographic space → a space, ``𝐓𝐞𝐚𝐦`` → ``Team``, half-width katakana → full-width),
  then every run of whitespace collapsed into one space and the ends trimmed.
* ``hidden_characters``: what a stored name must not hold once normal: characters of the
  Unicode categories C* — controls (Cc), format characters (Cf: zero-width space and
  joiners, the byte-order mark, every bidirectional control such as U+202E), surrogates,
  private-use and unassigned code points. They show as nothing, or as what the reader's font
  makes of them.
* ``name_skeleton``: the form two names are compared in: normal, letters of Cyrillic and
  Greek that look like Latin ones replaced by those (``LOOK_ALIKES``), case-folded, and
  without spaces (``ＴｅａｍＡ``, stored ``TeamA``, passes for ``Team A`` on a leaderboard).

``LOOK_ALIKES`` is written here by hand, on purpose small: Unicode's full confusables table
(UTS #39 ``confusables.txt``) is not in the standard library, and the maintained PyPI
packages around it detect mixed scripts or list a character's homoglyphs
(``confusable-homoglyphs``), or expand a string into every reading (``confusables``, which
grows exponentially with the length), rather than give one skeleton to compare. Mixed scripts
cannot be refused either: Japanese team names mix kanji, kana and Latin letters. Latin
look-alikes within Latin (``l``/``I``/``1``, ``O``/``0``, ``rn``/``m``) are left out: case
folding already makes ``I`` and ``i`` one letter, and mapping ``I`` to ``l`` as well would
make two names equal that differ in one only.
"""

import unicodedata

# Each capital maps to the Latin capital it looks like and each small letter to the small
# one, so that case folding afterwards treats both scripts alike (Greek capital eta ``Η``
# looks like ``H``; its small letter ``η`` like ``n``).
LOOK_ALIKES = {
    # Cyrillic capitals
    "\u0410": "A",  # А
    "\u0412": "B",  # В
    "\u0415": "E",  # Е
    "\u041a": "K",  # К
    "\u041c": "M",  # М
    "\u041d": "H",  # Н
    "\u041e": "O",  # О
    "\u0420": "P",  # Р
    "\u0421": "C",  # С
    "\u0422": "T",  # Т
    "\u0423": "Y",  # У
    "\u0425": "X",  # Х
    "\u0405": "S",  # Ѕ
    "\u0406": "I",  # І
    "\u0408": "J",  # Ј
    "\u04ae": "Y",  # Ү
    "\u04c0": "I",  # Ӏ (palochka)
    "\u051a": "Q",  # Ԛ
    "\u051c": "W",  # Ԝ
    # Cyrillic small letters
    "\u0430": "a",  # а
    "\u0435": "e",  # е
    "\u043e": "o",  # о
    "\u0440": "p",  # р
    "\u0441": "c",  # с
    "\u0443": "y",  # у
    "\u0445": "x",  # х
    "\u0455": "s",  # ѕ
    "\u0456": "i",  # і
    "\u0458": "j",  # ј
    "\u04bb": "h",  # һ
    "\u04af": "y",  # ү
    "\u04cf": "l",  # ӏ
    "\u051b": "q",  # ԛ
    "\u051d": "w",  # ԝ
    # Greek capitals
    "\u0391": "A",  # Α
    "\u0392": "B",  # Β
    "\u0395": "E",  # Ε
    "\u0396": "Z",  # Ζ
    "\u0397": "H",  # Η
    "\u0399": "I",  # Ι
    "\u039a": "K",  # Κ
    "\u039c": "M",  # Μ
    "\u039d": "N",  # Ν
    "\u039f": "O",  # Ο
    "\u03a1": "P",  # Ρ
    "\u03a4": "T",  # Τ
    "\u03a5": "Y",  # Υ
    "\u03a7": "X",  # Χ
    # Greek small letters
    "\u03b1": "a",  # α
    "\u03b3": "y",  # γ
    "\u03b9": "i",  # ι
    "\u03ba": "k",  # κ
    "\u03bd": "v",  # ν
    "\u03bf": "o",  # ο
    "\u03c1": "p",  # ρ
    "\u03c5": "u",  # υ
    "\u03c7": "x",  # χ
}
_LOOK_ALIKES = str.maketrans(LOOK_ALIKES)


def name_normal(name: str) -> str:
    """``name`` as it is stored: NFKC, whitespace collapsed, ends trimmed.

    >>> name_normal("  Ｔｅａｍ\\u00a0\\u00a0A ")
    'Team A'
    """
    return " ".join(unicodedata.normalize("NFKC", name).split())


def hidden_characters(name: str) -> list[str]:
    """The characters of ``name`` a stored name must not hold (categories C*), each once,
    in order.

    >>> hidden_characters("Team\\u200bA\\u202e")
    ['\\u200b', '\\u202e']
    """
    found = []
    for character in name:
        if unicodedata.category(character).startswith("C") and character not in found:
            found.append(character)
    return found


def look_alike_characters(name: str) -> list[str]:
    """The characters of ``name`` that ``name_skeleton`` replaces by a Latin letter
    (``LOOK_ALIKES``), each once, in order.

    >>> look_alike_characters("T\u0435\u0430m")  # Cyrillic е and а
    ['\u0435', '\u0430']
    """
    return list(dict.fromkeys(c for c in name_normal(name) if c in LOOK_ALIKES))


def characters_named(characters) -> str:
    """``characters`` as a reader can tell them apart: code point and Unicode name.

    >>> characters_named(["\u200b", "\u0435"])
    'U+200B ZERO WIDTH SPACE, U+0435 CYRILLIC SMALL LETTER IE'
    """
    return ", ".join(
        " ".join(filter(None, (f"U+{ord(c):04X}", unicodedata.name(c, "")))) for c in characters
    )


def name_skeleton(name: str) -> str:
    """The form in which two names are the same name: normal, look-alikes replaced,
    case-folded, spaces removed.

    >>> name_skeleton("TEAM \\u0410") == name_skeleton("team a")  # Cyrillic А
    True
    >>> name_skeleton("\\uff34\\uff45\\uff41\\uff4d\\uff21") == name_skeleton("Team A")  # ＴｅａｍＡ
    True
    """
    folded = name_normal(name).translate(_LOOK_ALIKES).casefold()
    # Case folding may turn an unmapped capital into a small look-alike: map once more.
    return "".join(folded.translate(_LOOK_ALIKES).split())
