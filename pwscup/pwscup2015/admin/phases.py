"""The 2015 game's phases on its admin round page: the core's inline (``PhaseInline``) whose
rows are checked together as the console's edit checks them (``round_phases_check``: each
window, and the attack phase after the anonymization phase's close unless the page's box
*Allow the attack phase to open before the anonymization phase closes* is ticked), each
refusal under its row's field. The page saves them through ``console_round_update`` (which
checks them once more) or ``console_round_create``."""

from django import forms
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from pwscup.competitions.admin_rounds import PhaseInline
from pwscup.pwscup2015.services.rounds import round_phases_check

#: The page's box (a field of ``RoundAdminForm``, the console's ``PhasesForm`` name).
ALLOW_FIELD = "allow_attack_before_close"


def allow_ticked(request) -> bool:
    """The box as the round's form reads it from the POST (the phases' formset needs it)."""
    return bool(forms.CheckboxInput().value_from_datadict(request.POST, request.FILES, ALLOW_FIELD))


class PhaseOrderFormSet(BaseInlineFormSet):
    """The phases' rows, checked together (``round_phases_check``) once each is valid."""

    def __init__(self, *args, allow_attack_before_close: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.allow_attack_before_close = allow_attack_before_close

    def clean(self):
        super().clean()
        if any(self.errors):
            return  # a row is refused already: its messages say why
        rows = {
            form.cleaned_data.get("kind") or form.instance.kind: form
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        }
        if not any(form.has_changed() for form in rows.values()):
            return  # the phases are left as they are (as ``console_round_update`` does)
        windows = {
            kind: (form.cleaned_data["opens_at"], form.cleaned_data["closes_at"])
            for kind, form in rows.items()
        }
        try:
            round_phases_check(
                phases=windows,
                allow_attack_before_close=self.allow_attack_before_close,
                time_zone=self.instance.timezone,
            )
        except ValidationError as error:
            for key, messages in error.message_dict.items():
                kind, _sep, field = key.partition("_")
                self._refuse(rows.get(kind), field, messages)

    @staticmethod
    def _refuse(form, field: str, messages) -> None:
        if form is None or field not in form.fields:
            raise ValidationError(messages)
        form.add_error(field, messages)


class Pwscup2015PhaseInline(PhaseInline):
    formset = PhaseOrderFormSet
