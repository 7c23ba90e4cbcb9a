"""The files of a round in a bundle, as every kind's ``bundle_import`` checks them
(untrusted: read from an uploaded bundle): no file the kind does not take, and the ones it
needs. The refusals are ``ValidationError`` keyed by the file's name, in the kind's words.
"""

import re

from django.core.exceptions import ValidationError

from pwscup.core.errors import Refused

# The round's original table in a bundle, of a kind whose round is made from one (DP,
# synthetic data): as the organizer uploaded it.
ORIGINAL = "original.csv"
# A data choice's key as a file of the bundle names it (``c1.population.csv``: its pack's
# population, ``c1.truth.zip``: its hidden pack).
CHOICE_KEY = r"[-a-zA-Z0-9_]{1,32}"


def choice_file_key(name, suffix: str) -> str | None:
    """The data choice a file named ``<choice>.<suffix>`` is of; ``None`` for another name."""
    found = (
        re.fullmatch(rf"({CHOICE_KEY})\.{re.escape(suffix)}", name)
        if isinstance(name, str)
        else None
    )
    return found[1] if found else None


def unknown_files_refused(files, *, takes, message: str, known: str) -> None:
    """Refuse every one of ``files`` that the kind does not take (``takes(name)`` false),
    each keyed by its name: ``message`` (the kind's sentence, translated) with ``%(role)s``
    the file's name, quoted and cut, and ``%(known)s`` the ``known`` files' names."""
    unknown = sorted(name for name in set(files) if not takes(name))
    if unknown:
        raise ValidationError(
            {name: message % {"role": repr(name)[:80], "known": known} for name in unknown}
        )


def required_file(files, name: str, *, message: str) -> bytes:
    """The content of the file ``name``; refused with ``message`` when the bundle lacks it."""
    if name not in files:
        raise ValidationError({name: message})
    return files[name]


def file_kept(name: str, keep, **kwargs):
    """``keep(**kwargs)``: the kind's service keeping the bundle's file ``name`` (a pack, a
    program, a population), its refusal (``ValidationError`` or ``Refused``) keyed by that
    file's name."""
    try:
        return keep(**kwargs)
    except Refused as error:
        raise ValidationError({name: error.message}) from None
    except ValidationError as error:
        raise ValidationError({name: error.messages}) from None


def original_required(
    files, *, message: str, missing: str, takes=None, known: str = ORIGINAL
) -> bytes:
    """The round's original (``ORIGINAL``) of a bundle's round entry, as uploaded: an entry
    without it is refused with ``missing``, and every other file with ``message`` (as
    ``unknown_files_refused``) unless the kind also takes it (``takes(name)``, its other
    files named in ``known``). The kinds whose round is made from an original (DP,
    synthetic data) hand it to their creation service as ``table``."""
    unknown_files_refused(
        files,
        takes=lambda name: name == ORIGINAL or (takes is not None and takes(name)),
        message=message,
        known=known,
    )
    return required_file(files, ORIGINAL, message=missing)
