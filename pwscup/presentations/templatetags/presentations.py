from django import template

from pwscup.presentations.messages import slides_message_text

register = template.Library()


@register.filter
def slides_message(slides) -> str:
    """Why an upload of slides was rejected, in the page's language."""
    return slides_message_text(slides)
