"""Exception types of the scoring engine.

Every failure a participant or an organiser can act on is one of these; ``str(error)``
is the message shown to them.
"""


class ScoringError(Exception):
    """Base class; ``str(error)`` is the participant-facing message."""


class ValidationError(ScoringError):
    """An invalid submission, table or correspondence table."""


class ConfigError(ScoringError):
    """An invalid round configuration; the message names the JSON key."""
