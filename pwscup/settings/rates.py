"""The one reader of a request rate (``50/h``, ``120/min``): the settings check each rate
variable with it when they load, and the throttles (the account pages' django-ratelimit, the
REST API's) count with what it returns. It needs no Django set-up: the settings import it."""

import re

from django.core.exceptions import ImproperlyConfigured

RATE_FORM = (
    "N/s, N/m, N/h or N/d (N requests per second, minute, hour or day; sec, min, hour and "
    "day are read too), e.g. 50/h"
)
_SECONDS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}
_RATE = re.compile(r"(?P<count>[0-9]+)/(?P<unit>[a-z]+)")


def rate_parse(text: str) -> tuple[int, int]:
    """``text`` (``N/unit``, ``RATE_FORM``) as ``(N, seconds)``; ``ValueError`` if it is not
    one. Throttles take the pair (django-ratelimit's ``rate``, DRF's ``parse_rate``)."""
    match = _RATE.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None or match["unit"] not in _SECONDS:
        raise ValueError(f"{text!r} is not a rate: write {RATE_FORM}.")
    return int(match["count"]), _SECONDS[match["unit"]]


def rate_setting(env, name: str, *, default: str) -> str:
    """The rate variable ``name`` (``default`` when unset), refused at load when it is not a
    rate: the start stops with a message naming the variable and the expected form."""
    text = env(name, default=default)
    try:
        rate_parse(text)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={text!r} is not a rate: write {RATE_FORM}.") from None
    return text
