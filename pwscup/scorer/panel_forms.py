"""The scorer round's panel forms in the console: each takes one file (a program version, a
data pack), a team's slot or the salt to commit; the services check everything else."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.choice_forms import DataChoiceFileForm
from pwscup.competitions.round_create import ChooseAgainForm
from pwscup.core.form_fields import positive_int_field


class ProgramForm(ChooseAgainForm, forms.Form):
    program = forms.FileField(
        label=_("Scoring program (ZIP)"),
        help_text=_(
            "Codabench's convention: a metadata file naming the commands, your scoring code "
            "and its pinned requirements (docs/scorer.md). Its environment is built on a "
            "worker before it scores anything."
        ),
    )


class PackForm(ChooseAgainForm, DataChoiceFileForm):
    """A data pack and its data choice; a post refused (a choice gone meanwhile) names the
    chosen file to choose again (``ChooseAgainForm``)."""

    file = forms.FileField(label=_("Data pack (ZIP)"))
    choice = forms.ChoiceField(
        label=_("For the data choice"),
        required=False,
        help_text=_(
            "The teams that picked this pack get it; the pack of no choice serves every "
            "choice that has none of its own."
        ),
    )
    no_choice_label = _("— Every choice without its own pack —")


class SlotForm(forms.Form):
    team = forms.ModelChoiceField(label=_("Team"), queryset=None)
    slot = positive_int_field(label=_("Slot"), max_value=9999)

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams


class SaltForm(forms.Form):
    """The salt to commit: blank, the platform draws one."""

    salt = forms.CharField(
        label=_("Your own salt (optional)"),
        required=False,
        max_length=128,
        # A secret until revealed: not kept by the browser's form history.
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        help_text=_(
            "Leave it blank and the platform draws 32 random hex digits. Once committed, "
            "the salt cannot be changed."
        ),
    )
