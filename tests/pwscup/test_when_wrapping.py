"""``{{ value|when }}`` and ``{{ value|when_wrapping }}`` (``round_dates``): a moment in the
page's time zone, in a ``<time>`` element that carries it for a machine (ISO 8601 with its
offset) and that the style sheet keeps on one line (a phone broke ``2026-11-29`` after its
hyphens); a schedule's date and time as two parts that never break inside; nothing for no
date, "—" for one outside the window the platform accepts."""

import datetime as dt
import zoneinfo

from django.template import Context, Template
from django.utils import timezone

from pwscup.competitions.templatetags.round_dates import when, when_wrapping
from pwscup.core.time_zones import in_zone_html, sentence_html

UTC = dt.UTC


def test_a_date_and_its_time_are_two_unbreakable_parts_in_the_page_s_zone():
    at = dt.datetime(2026, 11, 28, 22, 29, tzinfo=UTC)
    with timezone.override(zoneinfo.ZoneInfo("Asia/Tokyo")):
        assert str(when_wrapping(at)) == (
            '<time class="wrapping" datetime="2026-11-29T07:29:00+09:00">'
            '<span class="nowrap">2026-11-29</span> <span class="nowrap">07:29 JST</span></time>'
        )
    rendered = Template(
        "{% load tz round_dates %}{% timezone 'UTC' %}{{ at|when_wrapping }}{% endtimezone %}"
    ).render(Context({"at": at}))
    assert rendered == (
        '<time class="wrapping" datetime="2026-11-28T22:29:00+00:00">'
        '<span class="nowrap">2026-11-28</span> <span class="nowrap">22:29 UTC</span></time>'
    )


def test_a_moment_in_a_sentence_is_a_time_element_in_the_page_s_zone():
    at = dt.datetime(2026, 11, 28, 22, 29, 5, tzinfo=UTC)
    rendered = Template(
        "{% load i18n tz round_dates %}{% timezone 'Asia/Tokyo' %}"
        "{% blocktranslate with at=at|when:'Y-m-d H:i T' %}Open until {{ at }}.{% endblocktranslate %}"
        "{% endtimezone %}"
    ).render(Context({"at": at}))
    assert rendered == (
        'Open until <time datetime="2026-11-29T07:29:05+09:00">2026-11-29 07:29 JST</time>.'
    )
    assert when(None, "Y-m-d") == "" and when(dt.datetime(9999, 12, 31, tzinfo=UTC), "Y") == "—"


def test_a_sentence_made_in_python_escapes_its_words_and_keeps_its_moment():
    at = dt.datetime(2026, 11, 28, 22, 29, tzinfo=UTC)
    text = sentence_html(
        "<b>%(team)s</b> until %(at)s.", team="A & <B>", at=in_zone_html(at, "Asia/Tokyo")
    )
    assert text == (
        "&lt;b&gt;A &amp; &lt;B&gt;&lt;/b&gt; until "
        '<time datetime="2026-11-29T07:29:00+09:00">2026-11-29 07:29 JST</time>.'
    )
    assert Template("{{ text }}").render(Context({"text": text})) == text  # safe as it is


def test_no_date_is_nothing_and_a_date_outside_the_window_is_a_dash():
    assert when_wrapping(None) == ""
    assert when_wrapping("") == ""
    assert when_wrapping(dt.datetime(9999, 12, 31, 23, 59, tzinfo=UTC)) == "—"
    assert when_wrapping(dt.datetime(1, 1, 1, tzinfo=UTC)) == "—"
