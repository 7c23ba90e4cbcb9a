from django import forms
from django.utils.translation import gettext_lazy as _


class AnonymizationUploadForm(forms.Form):
    file = forms.FileField(label=_("Anonymized CSV"))


class AttackUploadForm(forms.Form):
    target = forms.ChoiceField(label=_("Target team"))
    file = forms.FileField(label=_("Correspondence table (CSV)"))

    def __init__(self, *args, targets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [(t.pk, t.team.name) for t in targets]
