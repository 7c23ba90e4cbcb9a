"""``{% api_tokens_of user as tokens %}``: the profile page's list of personal API tokens."""

from django import template

from pwscup.api.selectors import api_tokens_of as select_tokens

register = template.Library()


@register.simple_tag
def api_tokens_of(user):
    return list(select_tokens(user=user))
