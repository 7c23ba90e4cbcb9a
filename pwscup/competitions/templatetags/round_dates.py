"""``{{ value|when:"Y-m-d H:i T" }}``: Django's ``date`` filter in the current time zone, or
"—" for a date outside the window the platform accepts (pwscup/competitions/dates.py), which
no page could convert to a local time without overflowing. ``{{ value|when_wrapping }}``: the
same date and time for a narrow column, which may wrap between them but never inside either."""

import datetime as dt

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.html import format_html
from django.utils.timezone import template_localtime

from pwscup.competitions.dates import date_in_window

register = template.Library()


@register.filter
def when(value, arg=None):
    if value in (None, ""):
        return ""
    if not isinstance(value, dt.datetime):
        return date_filter(value, arg)
    if not date_in_window(value):
        return "—"
    return date_filter(template_localtime(value), arg)


@register.filter
def when_wrapping(value):
    """``Y-m-d H:i T`` as two unbreakable parts, the date and the time (a browser otherwise
    breaks ``2026-11-29`` after a hyphen on a phone)."""
    if value in (None, "") or not isinstance(value, dt.datetime) or not date_in_window(value):
        return when(value, "Y-m-d H:i T")
    local = template_localtime(value)
    return format_html(
        '<span class="nowrap">{}</span> <span class="nowrap">{}</span>',
        date_filter(local, "Y-m-d"),
        date_filter(local, "H:i T"),
    )
