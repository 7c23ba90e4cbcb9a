"""The console's data choice forms (a round of any kind): the packs the round offers, one
row each (key, English label, Japanese label), and an organizer's change of a team's pick;
``pwscup.competitions.choice_services`` checks and saves them."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.choice_models import CHOICE_KEY_MAX_LENGTH

CHOICES_PREFIX = "choices"


class ChoiceRowForm(forms.Form):
    key = forms.CharField(
        label=_("Key"),
        max_length=CHOICE_KEY_MAX_LENGTH,
        required=False,
        help_text=_("Letters, digits, - or _; the scorer's packs and context.json name it."),
    )
    label = forms.CharField(label=_("Label (English)"), max_length=200, required=False)
    label_ja = forms.CharField(label=_("Label (Japanese)"), max_length=200, required=False)


def choice_rows_formset(*, choices, data=None):
    """The rows of the round's packs and three empty rows to add more (PWSCup 2022 offered
    six datasets: two saves, not one per pack)."""
    initial = [{"key": c.key, "label": c.label, "label_ja": c.label_ja} for c in choices]
    formset_class = forms.formset_factory(ChoiceRowForm, extra=3, max_num=20, absolute_max=40)
    return formset_class(data, initial=initial, prefix=CHOICES_PREFIX)
