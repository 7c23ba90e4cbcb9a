"""The dates the platform accepts: one check for every entry point, and stored dates kept
readable.

Every form, admin page, console page and service that takes a date-time (a phase's window,
a DP round's release window, a sequential round's release closes) calls ``dates_check``: a
date whose UTC value, or whose value in the round's time zone, falls outside
``EARLIEST`` … ``LATEST`` (1900-01-01 to 9000-12-31) is refused with a message naming the
field. The window lies well inside what Python's ``datetime`` holds (years 1 to 9999), so
the arithmetic pages and jobs do on an accepted date (a local day boundary, a close plus a
step length, a conversion to any time zone) cannot overflow.

A value stored before this check, or written by hand in SQL, may lie outside the window, even
outside what Python can hold (PostgreSQL keeps years 4713 BC to 294276). ``clamp_on_load``,
connected to every new PostgreSQL connection (``CompetitionsConfig.ready``), reads such a
value as ``BEFORE_WINDOW`` or ``AFTER_WINDOW``, just outside the window, so that no page or
job fails on it; the ``when`` template filter shows a date outside the window as "—".
"""

import datetime as dt
import zoneinfo
from collections.abc import Mapping

import psycopg
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.core.time_zones import time_zone_valid

EARLIEST = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
LATEST = dt.datetime(9001, 1, 1, tzinfo=dt.UTC)  # excluded: 9000-12-31 23:59 is the last
BEFORE_WINDOW = EARLIEST - dt.timedelta(days=1)
AFTER_WINDOW = LATEST + dt.timedelta(days=1)


def _zone(time_zone) -> dt.tzinfo:
    if isinstance(time_zone, dt.tzinfo):
        return time_zone
    if time_zone_valid(time_zone):  # else the time zone's own check reports it
        return zoneinfo.ZoneInfo(time_zone)
    return timezone.get_current_timezone()


def _wall_clock(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=None)


def date_in_window(value: dt.datetime, *, time_zone=None) -> bool:
    """Whether ``value`` is a date the platform accepts: its UTC value and its value in
    ``time_zone`` (the round's; a naive ``value`` is read in it) within the window."""
    zone = _zone(time_zone)
    if timezone.is_naive(value):
        value = value.replace(tzinfo=zone)
    naive_earliest, naive_latest = _wall_clock(EARLIEST), _wall_clock(LATEST)
    try:
        utc = value.astimezone(dt.UTC)
        local = value.astimezone(zone)
    except (OverflowError, ValueError):
        return False
    return all(
        naive_earliest <= _wall_clock(moment) < naive_latest for moment in (utc, local, value)
    )


def dates_check(
    dates: Mapping[str, dt.datetime | None],
    *,
    labels: Mapping[str, object] | None = None,
    time_zone=None,
) -> None:
    """Refuse any date outside the window (``date_in_window``); ``None`` values are left to
    the caller (a required field says so itself).

    ``dates`` maps a field name to its value; ``labels`` maps it to the name the page shows
    (the field name by default); ``time_zone`` is the round's (a name or a ``tzinfo``; the
    current one when not given). Raises ``ValidationError`` mapping each field at fault to a
    message naming the field and the value."""
    labels = labels or {}
    errors = {}
    for field, value in dates.items():
        if value is None or date_in_window(value, time_zone=time_zone):
            continue
        errors[field] = _(
            "%(field)s: %(value)s is outside the dates the platform accepts "
            "(%(earliest)s to %(latest)s)."
        ) % {
            "field": labels.get(field, field),
            "value": _wall_clock(value).isoformat(sep=" ", timespec="minutes"),
            "earliest": "1900-01-01",
            "latest": "9000-12-31",
        }
    if errors:
        raise ValidationError(errors)


def form_dates_check(form, names, *, time_zone=None) -> None:
    """``dates_check`` on a bound form's cleaned fields ``names``, labelled as on the form;
    each message goes next to its field."""
    values = {name: form.cleaned_data.get(name) for name in names}
    try:
        dates_check(
            {name: value for name, value in values.items() if isinstance(value, dt.datetime)},
            labels={name: form.fields[name].label or name for name in names},
            time_zone=time_zone,
        )
    except ValidationError as error:
        for name, messages in error.message_dict.items():
            form.add_error(name, messages)


# --- reading stored dates --------------------------------------------------------------------

TIMESTAMPTZ_OID = psycopg.adapters.types["timestamptz"].oid


class _WindowLoader:
    """Mixed into the timestamptz loader of a connection: a date outside the window (or one
    Python cannot hold, ``DataError``) is read as ``BEFORE_WINDOW`` / ``AFTER_WINDOW``."""

    def load(self, data):
        try:
            value = super().load(data)
        except psycopg.DataError:
            text = bytes(data).strip()
            before = text.startswith(b"-") or text.endswith(b"BC")
            value = BEFORE_WINDOW if before else AFTER_WINDOW
        else:
            if value is None:
                return value
            aware = value if timezone.is_aware(value) else value.replace(tzinfo=dt.UTC)
            if EARLIEST <= aware < LATEST:
                return value
            value = BEFORE_WINDOW if aware < EARLIEST else AFTER_WINDOW
        return value if settings.USE_TZ else _wall_clock(value)


def clamp_on_load(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: wrap the connection's timestamptz loader (the one
    Django registered, with its time zone) in ``_WindowLoader``.

    psycopg's public adapters API (``AdaptersMap.get_loader`` / ``register_loader`` and a
    subclass of the registered loader, psycopg's documented way to read infinite dates).
    Per connection, not once on ``psycopg.adapters``: Django registers its loader on each
    new connection, over any global one. It is a guard, not a speed-up; its cost: 34 µs per
    new connection, about 0.7 µs per timestamptz value read (benchmarks/README.md)."""
    if connection.vendor != "postgresql":
        return
    adapters = connection.connection.adapters
    loader = adapters.get_loader(TIMESTAMPTZ_OID, psycopg.pq.Format.TEXT)
    if loader is None or issubclass(loader, _WindowLoader):
        return
    adapters.register_loader(
        TIMESTAMPTZ_OID, type(f"Window{loader.__name__}", (_WindowLoader, loader), {})
    )
