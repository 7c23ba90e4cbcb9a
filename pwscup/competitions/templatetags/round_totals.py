"""A round's total on its tabs, for every kind (``templates/rounds/base.html``):
``{% round_total_rules round %}`` says the formula in words on the Rules tab,
``{% round_total_table round %}`` draws the "Total" table on the Results tab once the
round's results are published (``pwscup.competitions.totals``)."""

from django import template

from pwscup.competitions.totals import round_totals, total_names
from pwscup.kinds import kind_of

register = template.Library()


@register.inclusion_tag("rounds/_total_rules.html")
def round_total_rules(round) -> dict:
    return {"formula": round.total_formula, "names": total_names(round=round)}


@register.inclusion_tag("rounds/_total_table.html")
def round_total_table(round) -> dict:
    published = bool(round.total_formula) and bool(kind_of(round).results_published(round))
    return {
        "formula": round.total_formula if published else "",
        "rows": round_totals(round=round) if published else [],
    }
