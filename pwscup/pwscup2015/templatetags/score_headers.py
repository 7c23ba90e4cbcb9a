"""``{% metric_header_cells metric_headers %}``: the metric columns' headers of the team's
score table (``pwscup2015/_jobs.html``), one ``<th>`` per ``MetricHeader``, written by one tag
rather than a ``{% for %}`` resolving five attributes per column (14 columns on every Submit
and Results tab)."""

from django import template
from django.utils.html import format_html_join

register = template.Library()


@register.simple_tag
def metric_header_cells(headers):
    return format_html_join(
        "",
        '<th class="num metric" title="{}" data-testid="metric-{}"><span class="metric-id">'
        '{}&nbsp;<span class="better" aria-label="{}">{}</span></span><br>'
        '<span class="metric-name">{}</span></th>',
        ((h.title, h.metric, h.metric, h.better, h.arrow, h.name) for h in headers),
    )
