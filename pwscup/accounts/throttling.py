"""Per-address throttles of the account pages (sign-up, password-reset e-mails), counted by
django-ratelimit in the cache and keyed on the client address lock-outs use."""

from django_ratelimit.core import get_usage

from pwscup.accounts.addresses import client_ip
from pwscup.settings.rates import rate_parse


def _client_address(group, request) -> str:
    return client_ip(request)


def throttle_minutes(request, *, group: str, rate: str, increment: bool) -> int | None:
    """django-ratelimit's count of ``group`` for the client's address: the minutes until it
    may go on when the address has used up ``rate`` (a setting, read by ``rate_parse`` as the
    settings checked it), else ``None`` (counted if ``increment``)."""
    usage = get_usage(
        request, group=group, key=_client_address, rate=rate_parse(rate), increment=increment
    )
    if usage is None:  # the cache is unreachable: let the request through
        return None
    # Counted now, this request is one of the count; else the count is of those before it.
    allowed = usage["limit"] + 1 if increment else usage["limit"]
    if usage["count"] < allowed:
        return None
    return max(1, -(-usage["time_left"] // 60))
