"""The sequential game's upload forms: a team's release and guesses, and the organizer's
master table (the console's round form: :mod:`pwscup.sequential.round_form`)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Team


class ReleaseUploadForm(forms.Form):
    step = forms.TypedChoiceField(label=_("Release"), coerce=int)
    file = forms.FileField(label=_("Release CSV (release_<j>.csv)"))

    def __init__(self, *args, steps=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["step"].choices = [(j, str(j)) for j in steps]


class GuessUploadForm(forms.Form):
    file = forms.FileField(label=_("Guesses (pid,guess)"))


class MasterUploadForm(forms.Form):
    team = forms.ModelChoiceField(
        label=_("Team"), queryset=Team.objects.none(), required=False, empty_label=_("Every team")
    )
    file = forms.FileField(label=_("Master table (pid,QI…,sa,lsf,lsb)"))

    def __init__(self, *args, competition=None, **kwargs):
        super().__init__(*args, **kwargs)
        if competition is not None:
            self.fields["team"].queryset = Team.objects.filter(competition=competition).order_by(
                "name"
            )
