"""Form fields of a competition's own columns, shared by the forms that create or edit one
(the console's, a bundle's import)."""

from django import forms
from django.utils.html import escape
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.models import Competition

# Django's own message reads "Enter a valid “slug”…": a word the form does not use (its label
# is "Address"), left in English on a Japanese page.
ADDRESS_ERRORS = {
    "invalid": _(
        "Use only letters, digits, hyphens (-) and underscores (_): the address is part of "
        "the page's URL."
    )
}


def competition_address_field() -> forms.SlugField:
    """The competition's address (its slug), bounded by its column."""
    return forms.SlugField(
        label=_("Address"),
        max_length=Competition._meta.get_field("slug").max_length,
        error_messages=ADDRESS_ERRORS,
        # Django renders a help text as HTML: <address> would vanish as a tag.
        help_text=escape(_("Used in the page address: /c/<address>/.")),
    )
