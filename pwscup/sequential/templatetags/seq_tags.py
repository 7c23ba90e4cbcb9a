from django import template
from django.utils import translation

from scoring.messages import render

register = template.Library()


@register.filter
def seq_violations(results: dict) -> list[str]:
    """The signature changes of a scored sequence in the reader's language."""
    codes = results.get("violation_codes")
    if codes is None:
        return list(results.get("violations") or [])
    language = translation.get_language()
    return [render(v["code"], v["params"], language) for v in codes]
