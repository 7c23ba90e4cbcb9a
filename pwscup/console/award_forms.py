"""The console's award form: it collects the values (team and round among the
competition's only); ``pwscup.accounts.services.awards`` checks them."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import AWARD_NAME_MAX_LENGTH, Team
from pwscup.accounts.services.awards import AWARD_ORDER_MAX
from pwscup.competitions.models import Round
from pwscup.core.form_fields import whole_competition_round_field
from pwscup.core.text_limits import REASON_MAX_LENGTH


class AwardForm(forms.Form):
    name_en = forms.CharField(
        label=_("Name (English)"),
        max_length=AWARD_NAME_MAX_LENGTH,
        help_text=_("For example: Best presentation."),
    )
    name_ja = forms.CharField(
        label=_("Name (Japanese)"),
        max_length=AWARD_NAME_MAX_LENGTH,
        help_text=_("For example: 最優秀発表賞."),
    )
    team = forms.ModelChoiceField(label=_("Team"), queryset=Team.objects.none())
    round = whole_competition_round_field(
        Round.objects.none(),
        help_text=_("The round the award is for (shown on its results pages), or none."),
    )
    citation = forms.CharField(
        label=_("Citation (optional)"),
        required=False,
        max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Why the team receives it, in the language you write it in."),
    )
    order = forms.IntegerField(
        label=_("Order"),
        min_value=0,
        max_value=AWARD_ORDER_MAX,
        initial=0,
        help_text=_("Awards are listed from the smallest number."),
    )

    def __init__(self, *args, competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.filter(competition=competition)
        self.fields["round"].queryset = competition.rounds.order_by("order", "pk")
