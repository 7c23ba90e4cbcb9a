"""``{% metric_header_cells metrics %}``: the metric columns' headers of the team's score table
(``pwscup2015/_jobs.html``), one ``<th>`` per metric (``metric_headers``).

The same for every team: written once per metrics and language and kept (0.3 ms on every
Submit and Results tab, the 14 headers' titles and escaping, is then a dictionary lookup).
"""

import functools

from django import template
from django.utils.html import format_html_join
from django.utils.translation import get_language

from pwscup.pwscup2015.metric_headers import metric_headers

register = template.Library()


@register.simple_tag
def metric_header_cells(metrics):
    return _header_cells(tuple(metrics), get_language())


@functools.lru_cache(maxsize=64)
def _header_cells(metrics: tuple[str, ...], language: str):
    """The headers of ``metrics`` in ``language``, the active language (part of the key)."""
    return format_html_join(
        "",
        '<th class="num metric" title="{}" data-testid="metric-{}"><span class="metric-id">'
        '{}&nbsp;<span class="better" aria-label="{}">{}</span></span><br>'
        '<span class="metric-name">{}</span></th>',
        ((h.title, h.metric, h.metric, h.better, h.arrow, h.name) for h in metric_headers(metrics)),
    )
