from django import template

from pwscup.core.markdown import render_markdown

register = template.Library()


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
    """A metric for display: counts (U6, S1) as integers, other values to 4 decimals."""
    if value is None:
        return "–"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"{float(value):.4f}"


@register.filter
def markdown(text):
    """Organizer-written Markdown as sanitized HTML (``pwscup.core.markdown``)."""
    return render_markdown(text)
