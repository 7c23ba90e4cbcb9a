"""The one rule of an identifier an organizer types that ends up in a URL or a file name:
a competition's or a round's address (a slug), a DP level's or workload target's id.

1 to 50 ASCII letters, digits, hyphens or underscores: what Django's ``<slug:…>`` URL
converter matches, within the models' 50-character slug fields. An id that is only a path
segment or a file name's part (a DP level's ``eps-0.1``) may also hold dots after its first
character (never ``.`` or ``..``, never a hidden file). Never a ``/``, a space or another
character: a level id ``a/b`` made every page that links the level fail to build its URL.
The bundle's JSON Schema (``$defs.slug`` and ``$defs.id``) states the same patterns.

Examples
--------
>>> is_identifier("round-1"), is_identifier("eps-0.1"), is_identifier("eps-0.1", dots=True)
(True, False, True)
>>> is_identifier("eps/1", dots=True), is_identifier(".x", dots=True), is_identifier("")
(False, False, False)
>>> is_identifier("x" * 51), is_identifier(3)
(False, False)
"""

import re

IDENTIFIER_MAX_LENGTH = 50
SLUG_PATTERN = re.compile(rf"[-a-zA-Z0-9_]{{1,{IDENTIFIER_MAX_LENGTH}}}")
DOTTED_PATTERN = re.compile(rf"[-a-zA-Z0-9_][-a-zA-Z0-9_.]{{0,{IDENTIFIER_MAX_LENGTH - 1}}}")


def is_identifier(value, *, dots: bool = False) -> bool:
    """Whether ``value`` is a text of 1 to 50 letters, digits, hyphens or underscores (with
    ``dots``: also dots after the first character)."""
    pattern = DOTTED_PATTERN if dots else SLUG_PATTERN
    return isinstance(value, str) and pattern.fullmatch(value) is not None
