"""A window's upload limits in a competition bundle (``pwscup.kinds.bundles``): written by
``limits_export``, read back and checked by ``limits_read`` / ``window_limits_read``, for
every kind whose rounds have limits."""

from django.utils.translation import gettext as _

from pwscup.core.form_fields import POSITIVE_INT_MAX
from pwscup.kinds.bundle_checks import BundleChecks
from pwscup.kinds.bundles import (
    setting_required,
    setting_type_error,
    settings_known,
    settings_object,
)

LIMIT_KEYS = ("daily_limit", "total_limit")
# A phase's limit of uploads per target (its attack phase's, in a kind whose attacks name one).
TARGET_LIMIT_KEY = "target_limit"


def limits_export(limits, *, target: bool = False, prefix: str = "") -> dict:
    """A window's upload limits (``pwscup.competitions.models.UploadLimits``) as a bundle's
    settings hold them: ``{"daily_limit": int | None, "total_limit": int | None}``, with
    ``target`` its ``target_limit`` too; ``prefix``: the attributes' (``attack_``, a kind
    whose row holds a second window's limits)."""
    keys = (*LIMIT_KEYS, TARGET_LIMIT_KEY) if target else LIMIT_KEYS
    return {key: getattr(limits, prefix + key) for key in keys}


def limits_read(raw, *, field: str = "limits") -> dict:
    """The limits ``limits_export`` wrote, checked (``null``: no limit, else an integer from
    1 to the largest a form takes); a ``ValidationError`` keyed ``limits.<key>`` names the
    value."""
    limits = settings_object(raw, field)
    checks = BundleChecks()  # every limit read, each refusal kept
    checks.run(settings_known, limits, LIMIT_KEYS, field)
    for key in LIMIT_KEYS:
        checks.run(_limit_read, limits, key, field)
    checks.done()
    return {key: limits[key] for key in LIMIT_KEYS}


def target_limit_read(phase: dict, *, field: str) -> int | None:
    """A phase's optional ``target_limit`` (its uploads per target per team), checked as
    ``limits_read`` checks a limit; absent (a bundle written before it) or ``null``: none."""
    value = phase.get(TARGET_LIMIT_KEY)
    _limit_check(value, path=f"{field}.{TARGET_LIMIT_KEY}")
    return value


def window_limits_read(raw: dict, *, field: str, target: bool, absent: bool = False) -> dict:
    """``limits_export``'s limits read back from ``raw`` (a window's object, which may hold
    other keys: the kind checks its keys), every refusal kept: ``limits_read``'s, and with
    ``target`` the ``target_limit`` (``target_limit_read``); ``absent``: a limit left out is
    none (a bundle written before the window had limits), else it is refused as missing."""
    checks = BundleChecks()
    given = {key: raw[key] for key in LIMIT_KEYS if key in raw}
    defaults = dict.fromkeys(LIMIT_KEYS) if absent else {}
    limits = checks.run(limits_read, defaults | given, field=field)
    target_limit = checks.run(target_limit_read, raw, field=field) if target else None
    checks.done()
    return {**limits, TARGET_LIMIT_KEY: target_limit} if target else limits


def _limit_read(limits: dict, key: str, field: str) -> None:
    _limit_check(setting_required(limits, key, field), path=f"{field}.{key}")


def _limit_check(value, *, path: str) -> None:
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= POSITIVE_INT_MAX
    ):
        raise setting_type_error(
            path,
            value,
            _("null (no limit) or an integer from 1 to %(max)s") % {"max": POSITIVE_INT_MAX},
        )
