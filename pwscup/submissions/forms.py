from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.submissions.models import NOTE_MAX_LENGTH


def note_field() -> forms.CharField:
    return forms.CharField(
        label=_("Note (optional)"),
        required=False,
        max_length=NOTE_MAX_LENGTH,
        widget=forms.TextInput(
            attrs={"placeholder": _("e.g. k=5 + noise σ=10"), "size": 28, "autocomplete": "off"}
        ),
        help_text=_("Only your team sees it, in its history."),
    )


class AnonymizationUploadForm(forms.Form):
    file = forms.FileField(label=_("Anonymized CSV"))
    note = note_field()


class AttackUploadForm(forms.Form):
    target = forms.ChoiceField(label=_("Target team"))
    file = forms.FileField(label=_("Correspondence table (CSV)"))
    note = note_field()

    def __init__(self, *args, targets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [(t.pk, t.team.name) for t in targets]


class UploadNoteForm(forms.Form):
    note = note_field()
