"""Where a bundle's times begin (``pwscup.kinds.bundles``): the anchor every time of an
export is an offset from, and the earliest time of the rounds an import keeps, which it puts
on the start the organizer typed (``docs/bundles.md``, *Import*). One rule for both:
``schedule_anchor``; each kind reads its windows from its settings
(``RoundKind.bundle_schedule``) with the readers here.
"""

import datetime as dt

from django.utils.dateparse import parse_duration


def schedule_anchor(windows):
    """The earliest opening of ``windows`` (``(opens_at, closes_at)`` pairs, ``None``: no
    such time), else their earliest close, else ``None``: the moment a bundle's times are
    offsets from, for the rounds whose windows these are (an export's, ``bundle_anchor``),
    and where an import of some rounds puts its start (``RoundKind.bundle_schedule``). Times
    or offsets alike.

    >>> hour = dt.timedelta(hours=1)
    >>> schedule_anchor([(2 * hour, 3 * hour), (None, hour)]), schedule_anchor([(None, hour)])
    (datetime.timedelta(seconds=7200), datetime.timedelta(seconds=3600))
    """
    for index in (0, 1):  # the openings, else the closes
        times = [window[index] for window in windows if window[index] is not None]
        if times:
            return min(times)
    return None


def offset_read(offset) -> dt.timedelta | None:
    """``offset`` (as ``offset_from`` wrote it) as a duration, ``None`` when it is none: not
    checked (the kind's import refuses it, ``at_offset``)."""
    return parse_duration(offset) if isinstance(offset, str) else None


def window_offsets(window) -> list[tuple]:
    """A window ``{"opens_at": ..., "closes_at": ...}`` of a bundle's settings as
    ``RoundKind.bundle_schedule`` gives it: ``[(opens_at, closes_at)]`` offsets
    (``offset_read``), ``[]`` when it is not an object."""
    if not isinstance(window, dict):
        return []
    return [(offset_read(window.get("opens_at")), offset_read(window.get("closes_at")))]


def phases_offsets(settings: dict) -> list[tuple]:
    """The windows of a ``phases`` setting (an object of windows by phase, as every phased
    kind writes it) as ``RoundKind.bundle_schedule`` gives them."""
    phases = settings.get("phases")
    if not isinstance(phases, dict):
        return []
    return [window for phase in phases.values() for window in window_offsets(phase)]
