"""The judged awards on a round's results pages: ``{% round_awards round %}`` draws the
round's awards (``templates/awards/_list.html``), read from the shared cache under the
round's ranking version (``pwscup.accounts.selectors.round_awards_shown``)."""

from django import template

from pwscup.accounts.selectors import round_awards_shown

register = template.Library()


@register.inclusion_tag("awards/_list.html")
def round_awards(round) -> dict:
    return {"awards": round_awards_shown(round=round), "show_round": False}
