"""What counts as a time zone name, for the settings and the platform alike: one rule, with no
Django set-up needed, so that the settings refuse ``DJANGO_TIME_ZONE`` with it when they load
(Django refuses an unknown ``TIME_ZONE`` itself before any system check runs) and
pwscup/core/time_zones.py checks every other zone with it."""

import functools
import zoneinfo

# Files of the host's time zone database that load as zones but are no place to hold a round
# in: the host's own setting (a link to /etc/localtime), tzdata's "zone unknown" placeholder
# and the rules POSIX TZ strings borrow.
NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})


def zone_name_known(name) -> bool:
    """Whether ``name`` is a time zone this host knows: an IANA name ``zoneinfo`` loads,
    other than ``NOT_PLACES``."""
    if not isinstance(name, str) or not name or name in NOT_PLACES:
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
        return False
    return True


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every time zone this host knows, sorted, without ``NOT_PLACES``. Read once per process:
    ``zoneinfo.available_timezones()`` opens each of the database's ~600 files."""
    return tuple(sorted(zoneinfo.available_timezones() - NOT_PLACES))
