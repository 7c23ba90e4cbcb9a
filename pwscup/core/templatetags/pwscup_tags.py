from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    if not mapping:
        return None
    return mapping.get(key)


@register.filter
def heat(rate):
    """A CSS background for a re-identification rate (0 = safe/green … 1 = red)."""
    if rate is None:
        return ""
    hue = int(120 * (1 - max(0.0, min(1.0, float(rate)))))
    return f"background: hsl({hue}, 70%, 82%)"


@register.filter
def score(value):
    """A metric for display: counts (U6, S1) as integers, other values to 4 decimals."""
    if value is None:
        return "–"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"{float(value):.4f}"
