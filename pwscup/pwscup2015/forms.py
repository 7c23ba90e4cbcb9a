from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.submissions.models import NOTE_MAX_LENGTH

# What a team might write about an upload: how it anonymized, or how it attacked.
ANONYMIZATION_NOTE_EXAMPLE = _("e.g. k=5 + noise σ=10")
ATTACK_NOTE_EXAMPLE = _("e.g. age+sex, nearest income")


def note_field(example=ANONYMIZATION_NOTE_EXAMPLE) -> forms.CharField:
    return forms.CharField(
        label=_("Note (optional)"),
        required=False,
        max_length=NOTE_MAX_LENGTH,
        widget=forms.TextInput(attrs={"placeholder": example, "size": 28, "autocomplete": "off"}),
        help_text=_("Only your team sees it, in its history."),
    )


class AnonymizationUploadForm(forms.Form):
    file = forms.FileField(label=_("Anonymized CSV"))
    note = note_field()


class AttackUploadForm(forms.Form):
    target = forms.ChoiceField(label=_("Target team"))
    file = forms.FileField(label=_("Correspondence table (CSV)"))
    note = note_field(ATTACK_NOTE_EXAMPLE)

    def __init__(self, *args, targets=(), limit=None, uses=None, **kwargs):
        """``limit``: the attack phase's uploads per target (``Phase.target_limit``); each
        choice then says how many of them ``uses`` (target id -> counted uploads) has used."""
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [
            (t.pk, t.team.name if not limit else target_use_label(t.team.name, uses, t.pk, limit))
            for t in targets
        ]


def target_use_label(name: str, uses, target_id: int, limit: int) -> str:
    """``Team B (1 of 2 used)``: the words of ``templates/rounds/_target_use.html``."""
    use = _("%(used)s of %(limit)s used") % {"used": (uses or {}).get(target_id, 0), "limit": limit}
    return f"{name} ({use})"


class UploadNoteForm(forms.Form):
    note = note_field()

    def __init__(self, *args, attack: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if attack:
            self.fields["note"].widget.attrs["placeholder"] = ATTACK_NOTE_EXAMPLE
