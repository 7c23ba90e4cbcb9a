"""``{{ value|when:"Y-m-d H:i T" }}``: Django's ``date`` filter in the current time zone, or
"—" for a date outside the window the platform accepts (pwscup/competitions/dates.py), which
no page could convert to a local time without overflowing."""

import datetime as dt

from django import template
from django.template.defaultfilters import date as date_filter
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
