"""A round's total on its tabs, for every kind (``templates/rounds/base.html``):
``{% round_total_rules round %}`` says the formula in words on the Rules tab,
``{% round_total_table round %}`` draws the "Total" table on the Results tab once the
round's results are published (``pwscup.competitions.totals``), and the same for the
attack score against the top N releases (``pwscup.competitions.attack_top``)."""

from django import template

from pwscup.competitions.attack_top import rule_words
from pwscup.competitions.models import AttackTopBy, AttackTopCombine, AttackTopOwn
from pwscup.competitions.totals import (
    round_attack_top_ranking,
    round_totals,
    total_awaited,
    total_comparison,
    total_names,
)
from pwscup.kinds import kind_of

register = template.Library()


@register.inclusion_tag("rounds/_total_rules.html")
def round_total_rules(round) -> dict:
    return {
        "formula": round.total_formula,
        "names": total_names(round=round),
        "comparison": total_comparison(round=round),
        "top_n": round.attack_top_n,  # set only where the kind has a matrix (on save)
        "top_by_total": round.attack_top_by == AttackTopBy.TOTAL,
        "top_own_best": round.attack_top_own == AttackTopOwn.BEST_OTHER,
        "top_sum": round.attack_top_combine == AttackTopCombine.SUM,
    }


@register.inclusion_tag("rounds/_total_table.html", takes_context=True)
def round_total_table(context, round) -> dict:
    """The tables, with the reader's team (``team``: the round page's) marked "(you)" as
    every other ranking table of the Results tab marks it."""
    counted = bool(round.total_formula or round.attack_top_n)
    published = counted and bool(kind_of(round).results_published(round))
    top = round_attack_top_ranking(round) if published and round.attack_top_n else None
    return {
        "formula": round.total_formula if published else "",
        "rows": round_totals(round=round) if published and round.total_formula else [],
        "awaited": total_awaited(round=round) if published else "",
        "top_n": round.attack_top_n if top is not None else None,
        "top_rows": top.rows if top is not None else (),
        "team": context.get("team"),
        "top_rule": rule_words(round) if top is not None else "",
        "top_sum": round.attack_top_combine == AttackTopCombine.SUM,
    }
