from django import template
from django.utils.html import conditional_escape, escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from pwscup.core import languages
from pwscup.core.form_fields import form_error_count
from pwscup.core.markdown import render_markdown
from scoring.display import (
    NOTES,
    UNDEFINED,
    format_cell,
    format_figure,
    format_metric,
    undefined_note,
    undefined_symbol,
)
from scoring.metrics_info import METRIC_KINDS

register = template.Library()


@register.simple_tag(name="sentence_gap")
def sentence_gap_tag():
    """``{% sentence_gap %}`` between two sentences of a page: a space in English, none in
    Japanese (``languages.sentence_gap``)."""
    return languages.sentence_gap()


@register.filter
def get_item(mapping, key):
    if not mapping:
        return None
    return mapping.get(key)


@register.filter
def heat(rate):
    """A CSS class for a re-identification rate: ``heat-0`` (safe, green) … ``heat-10`` (red).

    A class, not a ``style`` attribute: the Content-Security-Policy allows no inline style.
    """
    if rate is None:
        return ""
    return f"heat-{round(10 * max(0.0, min(1.0, float(rate))))}"


@register.filter
def score(value):
    """A metric of a kind's own result table (the sequential leaderboard's): a count (an
    integer: MINV, RN_over) without decimals, any other value as a score
    (``scoring.display.format_figure``: 4 decimals; a small nonzero value never reads
    0.0000); a text as it is (a cell of a declared kind's standings, which may be written
    already). The metrics of metrics.md go through :func:`metric_value`."""
    return format_cell(value)


@register.filter
def rate(value):
    """A re-identification rate (a safety, a mean rate): 4 decimals, a small nonzero rate
    with two significant digits (``0.000044``)."""
    return format_figure(value)


@register.filter
def figure(value, kind="score"):
    """A figure of a table of scores, totals or rankings by the one rule of
    ``scoring.display.format_figure``: ``{{ total|figure }}`` reads ``1.0000`` beside
    ``0.5000``; ``{{ rows|figure:"count" }}`` an integer. ``None`` reads ``–``."""
    return format_figure(value, kind)


@register.simple_tag
def metric_cells(scores, metrics):
    """One ``<td class="num" data-metric="M">`` per metric of ``metrics``, each
    :func:`metric_value` of ``scores``: a table's score cells in one tag rather than a
    ``{% for %}`` of its own per row (a 100-team leaderboard is 1,400 cells: drawing a new
    ranking version's leaderboard went from 66 to 61 ms of CPU). Each cell is written with an
    f-string of its escaped parts, not ``format_html`` (which marks every cell safe on its own):
    0.08 -> 0.045 ms a row of 14 cells."""
    return mark_safe(  # every part escaped here
        "".join(
            f'<td class="num" data-metric="{escape(m)}">'
            f"{conditional_escape(metric_value(scores, m))}</td>"
            for m in metrics
        )
    )


@register.filter
def metric_value(scores, metric):
    """``scores[metric]`` by the metric's display rule (``scoring.display``): ``20`` for a
    count, ``0.000044`` for a small rate; a metric with no value (JSON null) shows its sign
    (``∞`` for L3, ``–`` otherwise) with what it means as a tooltip, in the page's language.
    Metrics outside metrics.md (a kind's own) fall back to :func:`score`."""
    if metric not in METRIC_KINDS:
        return score((scores or {}).get(metric))
    if not scores or metric not in scores:
        return UNDEFINED  # not computed for this upload
    value = scores[metric]
    if value is None:
        return format_html(
            '<abbr class="undefined" title="{}">{}</abbr>',
            undefined_note(metric, get_language()),
            undefined_symbol(metric),
        )
    return format_metric(metric, value)


@register.simple_tag
def undefined_notes(metrics):
    """What the no-value signs of ``metrics`` mean (L3's ∞, U2's –), for a legend."""
    return [
        (metric, undefined_note(metric, get_language())) for metric in NOTES if metric in metrics
    ]


@register.filter
def markdown(text):
    """Organizer-written Markdown as sanitized HTML (``pwscup.core.markdown``)."""
    return render_markdown(text)


# --- the charts' labels (``pwscup.core.charts.labels.place_labels``), one tag per layer --------
# A chart draws a hundred labels or more; one tag writes them all with ``format_html_join``
# rather than a ``{% for %}`` resolving each attribute through the template engine (a
# 100-team leaderboard's new ranking version is drawn in fewer milliseconds).


@register.simple_tag
def chart_leaders(labels):
    """The leader line of each label set away from its point (``Label.leader``), drawn
    under the points."""
    return format_html_join(
        "",
        '<line class="leader" x1="{}" y1="{}" x2="{}" y2="{}" stroke="#98a2b3"/>',
        (label.leader for label in labels if label.leader),
    )


@register.simple_tag
def chart_label_texts(labels, font_size):
    """Each label's text, with its name in full as the hover title; a label that knows its
    mark (``Label.key``, a team's slug) carries it as ``data-team`` for the page's script."""
    return format_html_join(
        "",
        '<text class="label"{} x="{}" y="{}" font-size="{}" fill="{}"{} stroke="#fff"'
        ' stroke-width="3" paint-order="stroke">{}<title>{}</title></text>',
        (
            (
                format_html(' data-team="{}"', label.key) if label.key else "",
                label.x,
                label.y,
                font_size,
                label.colour,
                mark_safe(' font-weight="bold"') if label.bold else "",
                label.text,
                label.title,
            )
            for label in labels
        ),
    )


@register.simple_tag
def chart_points(points, css_class):
    """Each point as a circle with a white edge and its values as the hover title; a point
    that knows its team (``team``: a slug) carries it as ``data-team``."""
    return format_html_join(
        "",
        '<circle class="{}"{} cx="{}" cy="{}" r="{}" fill="{}" stroke="#fff" stroke-width="1.5">'
        "<title>{}</title></circle>",
        (
            (
                css_class,
                format_html(' data-team="{}"', point.team) if point.team else "",
                point.x,
                point.y,
                point.radius,
                point.colour,
                point.title,
            )
            for point in points
        ),
    )


# --- bar charts: one tag per layer too (a data picture draws some 15 charts of 20 bars) --------


@register.simple_tag
def chart_bars(bars):
    """Each bar of a histogram (``x``, ``y``, ``width``, ``height``) with its ``title`` (its
    range and count) as the hover title."""
    return format_html_join(
        "",
        '<rect class="bar" x="{}" y="{}" width="{}" height="{}" fill="#2b6cb0">'
        "<title>{}</title></rect>",
        ((bar.x, bar.y, bar.width, bar.height, bar.title) for bar in bars),
    )


@register.simple_tag
def chart_value_bars(bars, label_x):
    """Each frequent value as a horizontal bar: its ``label`` ending at ``label_x``, the bar,
    then its ``count`` (at ``count_x``, ``count_y``); its ``title`` as the hover title."""
    return format_html_join(
        "",
        '<g><title>{}</title><text x="{}" y="{}" text-anchor="end" fill="#333">{}</text>'
        '<rect class="bar" x="{}" y="{}" width="{}" height="{}" fill="#2b6cb0"/>'
        '<text x="{}" y="{}" fill="#555" font-size="10">{}</text></g>',
        (
            (bar.title, label_x, bar.count_y, bar.label, bar.x, bar.y, bar.width, bar.height)
            + (bar.count_x, bar.count_y, bar.count)
            for bar in bars
        ),
    )


@register.filter
def error_count(form) -> int:
    """How many errors a refused form shows (``form_error_count``)."""
    return form_error_count(form)
