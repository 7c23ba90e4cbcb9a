"""A round's weight in the standings as a person writes it (``{{ weight|weight }}``): the
column keeps four places, so a saved ``0.1000`` shows as ``0.1`` and ``1.0000`` as ``1``, as
the console's form shows it (docs/organizers.md, "Standings")."""

from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def weight(value):
    if isinstance(value, Decimal) and value.is_finite():
        return f"{value.normalize():f}"
    return value
