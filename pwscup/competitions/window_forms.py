"""The model form of a window's dates (a phase, a DP round's release window): its
``opens_at`` and ``closes_at`` checked as every phase window is."""

from django import forms
from django.core.exceptions import ValidationError

from pwscup.competitions.services import phase_window_check

WINDOW_FIELDS = ("opens_at", "closes_at")


class WindowDatesForm(forms.ModelForm):
    """``phase_window_check`` on the two dates, in the time zone of the instance's round (if
    it has one yet), its messages naming the fields as the form labels them; the refusal is
    shown above the form."""

    def window_time_zone(self) -> str | None:
        round_ = self.instance.round if self.instance.round_id else None
        return round_.timezone if round_ is not None else None

    def clean(self):
        cleaned = super().clean()
        try:
            phase_window_check(
                opens_at=cleaned.get("opens_at"),
                closes_at=cleaned.get("closes_at"),
                time_zone=self.window_time_zone(),
                labels={name: self.fields[name].label for name in WINDOW_FIELDS},
            )
        except ValidationError as error:
            self.add_error(None, error)
        return cleaned
