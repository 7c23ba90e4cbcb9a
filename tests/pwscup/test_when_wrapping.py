"""``{{ value|when_wrapping }}`` (``round_dates``): a schedule's date and time as two parts
that never break inside (a phone broke ``2026-11-29`` after its hyphens), in the page's time
zone; nothing for no date, "—" for one outside the window the platform accepts."""

import datetime as dt
import zoneinfo

from django.template import Context, Template
from django.utils import timezone

from pwscup.competitions.templatetags.round_dates import when_wrapping

UTC = dt.UTC


def test_a_date_and_its_time_are_two_unbreakable_parts_in_the_page_s_zone():
    at = dt.datetime(2026, 11, 28, 22, 29, tzinfo=UTC)
    with timezone.override(zoneinfo.ZoneInfo("Asia/Tokyo")):
        assert str(when_wrapping(at)) == (
            '<span class="nowrap">2026-11-29</span> <span class="nowrap">07:29 JST</span>'
        )
    rendered = Template(
        "{% load tz round_dates %}{% timezone 'UTC' %}{{ at|when_wrapping }}{% endtimezone %}"
    ).render(Context({"at": at}))
    assert (
        rendered == '<span class="nowrap">2026-11-28</span> <span class="nowrap">22:29 UTC</span>'
    )


def test_no_date_is_nothing_and_a_date_outside_the_window_is_a_dash():
    assert when_wrapping(None) == ""
    assert when_wrapping("") == ""
    assert when_wrapping(dt.datetime(9999, 12, 31, 23, 59, tzinfo=UTC)) == "—"
    assert when_wrapping(dt.datetime(1, 1, 1, tzinfo=UTC)) == "—"
