"""The platform's time zones: one default and one check.

A round's dates (its phases, release windows, daily limits) are typed and shown in its
time zone, an IANA name (``Europe/Paris``, ``UTC``). A new round, a competition-wide
presentation window and the creation forms of every kind start from one default,
``PWSCUP_DEFAULT_TIME_ZONE`` (default: ``TIME_ZONE``, itself ``DJANGO_TIME_ZONE``), read
through ``default_time_zone``; no other module names a zone. Every entry point that takes a
time zone name (the creation services of every kind, the bundle import, the presentation
windows, the console's and the admin's forms) checks it with ``time_zone_check``, one rule
and one message; a form asks with ``TimeZoneField``. A message says a date of a round in its
time zone with ``in_zone_text``; a page writes a moment with ``moment_html`` (the templates'
``when`` filters, a sentence made in Python with ``in_zone_html`` and ``sentence_html``): a
``<time>`` element, which the style sheet keeps on one line (a phone broke ``2026-11-29``
after its hyphens). An answer (a JSON field, a CSV cell) writes a moment with
``answer_moment``: ISO 8601 with the server's offset.
"""

import functools
import zoneinfo

from django import forms
from django.conf import settings
from django.core import checks
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from pwscup.settings.zone_names import zone_name_known, zone_names


def default_time_zone() -> str:
    """The time zone a new round or window starts with (``PWSCUP_DEFAULT_TIME_ZONE``).
    Also a model field's ``default`` and a form field's ``initial``: a callable, so that the
    setting is read when the row or the form is made (and no migration freezes it)."""
    return settings.PWSCUP_DEFAULT_TIME_ZONE


def time_zone_valid(name) -> bool:
    """Whether ``name`` is a time zone this host knows: an IANA name ``zoneinfo`` loads, and
    a place (not the host's ``localtime`` nor tzdata's ``Factory``): ``zone_name_known``, the
    rule the settings check ``DJANGO_TIME_ZONE`` with."""
    return zone_name_known(name)


def time_zone_error(name) -> str:
    """The one message refusing ``name`` as a time zone (it names the value)."""
    return _(
        "Unknown time zone %(value)s: use an IANA name such as %(default)s (this site's "
        "default) or UTC."
    ) % {"value": repr(name)[:80], "default": default_time_zone()}


def time_zone_check(name, *, field: str | None = "timezone") -> str:
    """Return ``name`` if it is a time zone (``time_zone_valid``); else raise
    ``ValidationError`` with ``time_zone_error``, keyed ``field`` (plain when ``None``)."""
    if time_zone_valid(name):
        return name
    message = time_zone_error(name)
    raise ValidationError({field: message} if field else message)


def answer_moment(at) -> str:
    """A moment as an answer writes it (a JSON field, a CSV cell): ISO 8601 in the server's
    time zone with its offset (``2026-12-01T18:00:00+09:00``), as the API's serializers
    write every time, never in the database's UTC."""
    return timezone.localtime(at).isoformat()


def zone_or_default(name) -> zoneinfo.ZoneInfo:
    """The time zone ``name``, or the default one when ``name`` is not a time zone: what a
    form reads its dates in while ``time_zone_check`` refuses the name next to its field."""
    return zoneinfo.ZoneInfo(name if time_zone_valid(name) else default_time_zone())


def in_zone_text(at, time_zone) -> str:
    """``at`` as a round's pages say a date: in the round's time zone (``time_zone``; the
    default one when it is not a zone), ``Y-m-d H:i T``."""
    return date_format(at.astimezone(zone_or_default(time_zone)), "Y-m-d H:i T")


def moment_html(local, text, *, wrapping: bool = False) -> SafeString:
    """``text``, a moment as a page shows it, in a ``<time>`` element that carries the moment
    (``local``, an aware datetime) for a machine: ISO 8601 with its offset. ``wrapping``: the
    text is already cut into parts that never break inside (a narrow column's date and time),
    and may break between them."""
    return format_html(
        '<time{} datetime="{}">{}</time>',
        mark_safe(' class="wrapping"') if wrapping else "",
        local.isoformat(timespec="seconds"),
        text,
    )


def in_zone_html(at, time_zone) -> SafeString:
    """``in_zone_text`` as a page writes it, in a ``<time>`` element (``moment_html``)."""
    local = at.astimezone(zone_or_default(time_zone))
    return moment_html(local, date_format(local, "Y-m-d H:i T"))


def sentence_html(text: str, **values) -> SafeString:
    """``text % values`` for a page: ``format_html`` for gettext's ``%(name)s`` placeholders
    (Django's takes ``{name}``). The translated text and each value are escaped, except a
    value that is already safe HTML (an ``in_zone_html``); each value is text by then, so
    every placeholder is ``%(name)s``."""
    escaped = {name: conditional_escape(value) for name, value in values.items()}
    return mark_safe(conditional_escape(text) % escaped)


@functools.cache
def time_zone_choices() -> tuple[tuple[str, str], ...]:
    """Every time zone ``time_zone_valid`` takes, sorted, as a form's choices: ``zone_names``,
    read once per process (``zoneinfo.available_timezones()`` opens each of the time zone
    database's ~600 files, 9 ms of CPU a call here, and a form asks for its choices each time
    it is made)."""
    return tuple((zone, zone) for zone in zone_names())


class TimeZoneSelect(forms.Select):
    """Django's ``Select``, drawn by one template that writes each option in its loop
    (``core/widgets/time_zone_select.html``): the same markup (the select's attributes, an
    ``<option>`` per zone, the current one ``selected``). Django's own template includes a
    template per option: over the ~600 zones that took 21 ms of CPU a form here, this one
    12 ms (41 ms before the choices were read once)."""

    template_name = "core/widgets/time_zone_select.html"


class TimeZoneField(forms.ChoiceField):
    """A time zone picked from the list (``time_zone_choices``), initially
    ``default_time_zone()`` (read when the form is drawn), refused with
    ``time_zone_error`` like every entry point."""

    widget = TimeZoneSelect

    def __init__(self, **kwargs):
        kwargs.setdefault("choices", time_zone_choices)
        kwargs.setdefault("initial", default_time_zone)
        super().__init__(**kwargs)

    def validate(self, value):
        if value in self.empty_values:
            super().validate(value)  # "This field is required." when it is
        else:
            time_zone_check(value, field=None)


@checks.register(checks.Tags.compatibility)
def default_time_zone_known(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """``manage.py check`` (and ``migrate``, ``runserver``) refuses a default no round could use."""
    if time_zone_valid(default_time_zone()):
        return []
    return [
        checks.Error(
            f"PWSCUP_DEFAULT_TIME_ZONE={default_time_zone()!r} is not a time zone this host "
            "knows: set an IANA name such as Europe/Paris or UTC.",
            id="pwscup.E001",
        )
    ]
