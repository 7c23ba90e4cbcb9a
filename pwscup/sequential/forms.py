import json

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Team

EXAMPLE_CONFIG = {
    "type": "sequential",
    "n_releases": 2,
    "m": 2,
    "qi": {"Age": "num", "Zip": "num"},
    "sa": "Disease",
    "mode": "online",
    "require": "m-invariant",
}


class ReleaseUploadForm(forms.Form):
    step = forms.TypedChoiceField(label=_("Release"), coerce=int)
    file = forms.FileField(label=_("Release CSV (release_<j>.csv)"))

    def __init__(self, *args, steps=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["step"].choices = [(j, str(j)) for j in steps]


class GuessUploadForm(forms.Form):
    file = forms.FileField(label=_("Guesses (pid,guess)"))


class ConfigField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 14, "cols": 60, "spellcheck": "false"})

    def to_python(self, value):
        value = super().to_python(value)
        try:
            return json.loads(value or "{}")
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                _("The configuration is not valid JSON: %(error)s") % {"error": error}
            ) from None

    def prepare_value(self, value):
        return value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False)


class SequentialRoundForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Address (slug)"))
    config = ConfigField(label=_("Configuration (JSON, spec §12)"), initial=EXAMPLE_CONFIG)
    master = forms.FileField(
        label=_("Master table (pid,QI…,sa,lsf,lsb)"),
        required=False,
        help_text=_("One master for every team; leave empty to draw per-team masters from a pool."),
    )
    pool = forms.FileField(
        label=_("Pool of persons (pid,QI…,sa)"),
        required=False,
        help_text=_("Per-team masters are drawn from it with the per_team key, seeded per round."),
    )


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
