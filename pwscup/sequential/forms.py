"""The sequential game's forms: a team's release (drawn with its open steps; it posts to the
core's target of the declared type) and the organizer's master table (the console's round form: :mod:`pwscup.sequential.round_form`)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Team


class ReleaseUploadForm(forms.Form):
    step = forms.TypedChoiceField(label=_("Release"), coerce=int)
    file = forms.FileField(label=_("Release CSV (release_<j>.csv)"))

    def __init__(self, *args, steps=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["step"].choices = [(j, str(j)) for j in steps]


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
