"""One import names every error of a round entry at once (``pwscup.kinds.bundles``): the
kinds run their checks of an entry through a ``BundleChecks``, the one collector."""

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from pwscup.core.errors import scoring_errors_by
from scoring import ScoringError


class BundleChecks:
    """The refusals of one round entry's checks, gathered by path (``"config.levels[1]"``,
    ``"schedule.closes_at"``, a file's role) so that one import names every error of the
    entry.

    Each independent check runs through ``run``: its ``ValidationError`` is kept and the next
    check runs all the same. A check that needs another's result runs only when that result
    is there (``run`` gives ``otherwise`` for a check that failed). ``done`` raises one
    ``ValidationError`` holding every refusal, each message once, before the kind creates the
    round (its creation service, which needs every setting right, runs last).
    """

    def __init__(self):
        self.errors: dict[str, list[str]] = {}

    def run(self, check, /, *args, otherwise=None, **kwargs):
        """``check(*args, **kwargs)``, or ``otherwise`` when it refuses (its refusal kept)."""
        try:
            return check(*args, **kwargs)
        except ValidationError as error:
            self.add(error)
            return otherwise

    def add(self, error: ValidationError, *, top: str = NON_FIELD_ERRORS) -> None:
        """Keep ``error``'s messages by their keys (an error without keys goes to ``top``:
        by default the entry as a whole)."""
        keyed = error.message_dict if hasattr(error, "error_dict") else {top: error.messages}
        for key, messages in keyed.items():
            kept = self.errors.setdefault(key, [])
            kept.extend(message for message in messages if message not in kept)

    def config(self, config: dict | None, check, *, path, errors=ScoringError) -> None:
        """The configuration's own rules (``config_checked``) once it is read (``None``: its
        reading was refused, there is nothing to check)."""
        if config is not None:
            self.run(config_checked, config, check, path=path, errors=errors)

    @property
    def failed(self) -> bool:
        return bool(self.errors)

    def done(self) -> None:
        """Raise every refusal kept, as one ``ValidationError`` keyed by path."""
        if self.errors:
            raise ValidationError(self.errors)


def config_checked(config: dict, check, *, path, errors=ScoringError) -> None:
    """A bundle's configuration against the kind's own rules (``check(config)``, which
    raises ``errors`` naming every error it finds), each refusal keyed by its place in the
    settings, ``path(item, config)`` (``config.m``, ``config.levels[2].epsilon``)."""
    try:
        check(config)
    except errors as error:
        raise scoring_errors_by(error, lambda item: path(item, config)) from None
