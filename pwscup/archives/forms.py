"""The publishing form: one checkbox per secret, all unticked unless the organizer ticks."""

from django import forms

from pwscup.kinds.archives import SECRETS


class ArchivePublishForm(forms.Form):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, label in SECRETS.items():
            self.fields[key] = forms.BooleanField(label=label, required=False, initial=False)

    def secrets(self) -> list[str]:
        return [key for key in SECRETS if self.cleaned_data.get(key)]
