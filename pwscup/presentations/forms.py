"""The presentations' forms: a team's slides, an organizer's window (dates typed in the
window's time zone: its round's, else the one chosen)."""

import zoneinfo
from decimal import ROUND_HALF_UP, Decimal

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.dates import form_dates_check
from pwscup.competitions.models import Round
from pwscup.core.form_fields import (
    limit_field,
    local_datetime_field,
    whole_competition_round_field,
)
from pwscup.core.time_zones import TimeZoneField, zone_or_default
from pwscup.presentations.models import POLICY_MAX_LENGTH, PresentationWindow

MEGABYTE = 1024 * 1024  # the "MB" of Django's filesizeformat, which the pages print


def megabytes(size: int) -> Decimal:
    """A byte count in MB, to 0.01 (at least 0.01), as the window's form shows it."""
    return max(
        (Decimal(size) / MEGABYTE).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP),
        Decimal("0.01"),
    )


class SlidesUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Slides (PDF)"),
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf,.pdf"}),
    )
    anonymization_policy = forms.CharField(
        label=_("Anonymization policy (optional)"),
        required=False,
        max_length=POLICY_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    attack_policy = forms.CharField(
        label=_("Attack policy (optional)"),
        required=False,
        max_length=POLICY_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
    )


class WindowForm(forms.Form):
    round = whole_competition_round_field(
        Round.objects.none(),
        help_text=_("The round whose work is presented, or the whole competition."),
    )
    title = forms.CharField(
        label=_("Title"),
        max_length=200,
        required=False,
        help_text=_("Empty: the round's name, or “Presentations”."),
    )
    opens_at = local_datetime_field(_("Uploads open at"))
    closes_at = local_datetime_field(_("Uploads close at"))
    time_zone = TimeZoneField(
        label=_("Time zone"),
        help_text=_("Of the dates above; a round's window uses the round's time zone."),
    )
    # Its bounds are the service's check (with the window's other rules, all at once).
    max_megabytes = forms.DecimalField(
        label=_("Largest PDF (MB)"),
        max_digits=9,
        decimal_places=2,
        widget=forms.NumberInput(attrs={"min": "0.01"}),
    )
    daily_limit = limit_field(_("Uploads per team per day"))
    total_limit = limit_field(_("Uploads per team in total"))

    def __init__(self, *args, competition, window: PresentationWindow | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.window = window
        ceiling = settings.PWSCUP_SLIDES_MAX_BYTES
        field = self.fields["max_megabytes"]
        field.widget.attrs.update(max=str(megabytes(ceiling)), step="0.01")
        field.initial = megabytes(ceiling)
        field.help_text = _("In megabytes (1 MB = 1,048,576 bytes); at most %(limit)s.") % {
            "limit": filesizeformat(ceiling)
        }
        self.fields["round"].queryset = Round.objects.filter(competition=competition).order_by(
            "order", "id"
        )
        if window is not None:
            # A window stays with its round (or the competition) once scheduled.
            self.fields["round"].disabled = True

    def zone(self):
        round_ = self.cleaned_data.get("round") if self.window is None else self.window.round
        name = round_.timezone if round_ else self.cleaned_data.get("time_zone")
        return zone_or_default(name)

    def clean_max_megabytes(self):
        """The limit in bytes (what the window keeps; the service checks it)."""
        return int(self.cleaned_data["max_megabytes"] * MEGABYTE)

    def add_service_errors(self, error) -> None:
        """The service's errors next to the fields; the cap's (in bytes) next to the MB."""
        for field, messages in getattr(error, "message_dict", {None: error.messages}).items():
            field = "max_megabytes" if field == "max_bytes" else field
            self.add_error(field if field in self.fields else None, messages)

    def clean(self):
        cleaned = super().clean()
        zone = self.zone()
        for name in ("opens_at", "closes_at"):
            value = cleaned.get(name)
            if value is not None:
                cleaned[name] = value.replace(tzinfo=None).replace(tzinfo=zone)
        form_dates_check(self, ("opens_at", "closes_at"), time_zone=zone)
        return cleaned

    def window_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "title": data.get("title") or "",
            "opens_at": data["opens_at"],
            "closes_at": data["closes_at"],
            "time_zone": data["time_zone"],
            "max_bytes": data["max_megabytes"],
            "daily_limit": data.get("daily_limit"),
            "total_limit": data.get("total_limit"),
        }


def window_initial(window: PresentationWindow) -> dict:
    zone = zoneinfo.ZoneInfo(window.zone)
    return {
        "round": window.round,
        "title": window.title,
        "opens_at": window.opens_at.astimezone(zone).replace(tzinfo=None),
        "closes_at": window.closes_at.astimezone(zone).replace(tzinfo=None),
        "time_zone": window.time_zone,
        "max_megabytes": megabytes(window.max_bytes),
        "daily_limit": window.daily_limit,
        "total_limit": window.total_limit,
    }
