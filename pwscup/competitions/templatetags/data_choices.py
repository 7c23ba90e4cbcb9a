"""A round's data choice on its Data tab, for every kind (``templates/rounds/base.html``):
``{% round_data_choice %}`` draws the packs, the team's pick and its form (read-only once
locked); nothing when the round offers no choice. A kind's Data tab that read the team's
``choice_state`` itself passes it in its context as ``data_choice``: it is not read again."""

from django import template

from pwscup.competitions.choice_selectors import choice_state
from pwscup.kinds.registry import kind_of

register = template.Library()


@register.inclusion_tag("rounds/_data_choice.html", takes_context=True)
def round_data_choice(context) -> dict:
    round_, team = context["round"], context.get("team")
    state = context.get("data_choice") or choice_state(round=round_, team=team)
    return {
        "round": round_,
        "team": team,
        "state": state,
        # When the pick locks and who changes it after: the kind's words.
        "wording": kind_of(round_).choice_wording,
        "csrf_token": context.get("csrf_token"),
        "competition_slug": round_.competition.slug,
    }
