"""How a page writes a moment: ``{{ value|when:"Y-m-d H:i T" }}`` is Django's ``date`` filter
in the current time zone, in a ``<time>`` element (``pwscup.core.time_zones.moment_html``:
the moment for a machine, and one line on a narrow screen, where a phone broke
``2026-11-29`` after its hyphens, in a sentence as in a table); "—" for a date outside the
window the platform accepts (pwscup/competitions/dates.py), which no page could convert to a
local time without overflowing. ``{{ value|when_wrapping }}``: the same moment
(``Y-m-d H:i T``) for a narrow column, which may wrap between the date and the time but
never inside either."""

import datetime as dt

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.html import format_html
from django.utils.timezone import template_localtime

from pwscup.competitions.dates import date_in_window
from pwscup.core.time_zones import moment_html

register = template.Library()


def _local(value) -> dt.datetime | None:
    """The moment in the current time zone, or None for no moment or one outside the window."""
    if not isinstance(value, dt.datetime) or not date_in_window(value):
        return None
    return template_localtime(value)


@register.filter
def when(value, arg=None):
    if value in (None, ""):
        return ""
    if not isinstance(value, dt.datetime):
        return date_filter(value, arg)
    local = _local(value)
    return "—" if local is None else moment_html(local, date_filter(local, arg))


@register.filter
def when_wrapping(value):
    """``Y-m-d H:i T`` as two unbreakable parts, the date and the time."""
    local = _local(value)
    if local is None:
        return when(value, "Y-m-d H:i T")
    parts = format_html(
        '<span class="nowrap">{}</span> <span class="nowrap">{}</span>',
        date_filter(local, "Y-m-d"),
        date_filter(local, "H:i T"),
    )
    return moment_html(local, parts, wrapping=True)
