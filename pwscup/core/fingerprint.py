"""Digests of what a cached page shows: its key changes whenever a stored field does.

The pages cached whole (a team's round page, the leaderboard) and the polled jobs fragment
are keyed on every stored column of the rows they show, read from the objects the request
has loaded anyway, so that no write anywhere (a bulk ``update()`` included) has to
invalidate them.
"""

import hashlib


def field_values(instance) -> list:
    """Every stored column of a model instance, so a column added later counts too."""
    return [getattr(instance, field.attname) for field in instance._meta.concrete_fields]


def digest(parts) -> str:
    """A short, stable digest of ``parts`` (built of lists, strings, numbers and dates)."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]
