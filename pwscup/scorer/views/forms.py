"""The teams' forms of the scorer round, as the Submit tab draws them: a release (a CSV or a
ZIP, the file only) and an attack (the file, and its target when the round takes one upload
per target). They post to the core's targets of the declared types, whose services check
everything else (the phase, the freeze, the limits, the target)."""

from django import forms
from django.utils.translation import gettext_lazy as _


class ReleaseUploadForm(forms.Form):
    file = forms.FileField(label=_("Release (CSV or ZIP)"))


class AttackUploadForm(forms.Form):
    file = forms.FileField(label=_("Attack (CSV or ZIP)"))
    # A target team's slug (per-target rounds); the declared type finds the frozen target.
    target = forms.SlugField(required=False, max_length=64)
