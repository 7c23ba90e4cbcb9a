"""``{% round_operations_panel round %}``: the round's background operations and their
progress (include it only where the reader is an organizer of the round)."""

from django import template

from pwscup.pwscup2015.selectors.operations import round_operations_summary

register = template.Library()


@register.inclusion_tag("pwscup2015/_operations.html")
def round_operations_panel(round) -> dict:
    return {"summary": round_operations_summary(round=round)}
