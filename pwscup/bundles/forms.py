"""The bundle pages' forms: they collect values; the services check them."""

import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.bundles.closed import CONFIRM_LABEL
from pwscup.bundles.subset import round_addresses
from pwscup.competitions.dates import form_dates_check
from pwscup.competitions.form_fields import competition_address_field
from pwscup.core.form_fields import local_datetime_field
from pwscup.core.time_zones import TimeZoneField


class NewCompetitionForm(forms.Form):
    """The new competition's address, name and start (in a time zone)."""

    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        required=False,
    )
    slug = competition_address_field()
    start = local_datetime_field(
        _("Start"),
        help_text=_(
            "When the rounds imported or copied begin: the earliest opening among them; every "
            "other date keeps its distance."
        ),
    )
    timezone = TimeZoneField(label=_("Time zone of the start"))
    closed_allowed = forms.BooleanField(
        label=CONFIRM_LABEL,
        required=False,
        help_text=_(
            "Only for a start meant to be in the past: a phase closed already takes no upload. "
            "Unticked, such a start is refused, naming the phases."
        ),
    )

    def clean(self):
        cleaned = super().clean()
        start, zone = cleaned.get("start"), cleaned.get("timezone")
        if start is not None and zone:
            cleaned["start"] = start.replace(tzinfo=None).replace(tzinfo=zoneinfo.ZoneInfo(zone))
            form_dates_check(self, ["start"], time_zone=zone)
        return cleaned

    def new_competition(self) -> dict:
        """The new competition's name, address and start, and whether a start leaving phases
        closed is confirmed, as the bundle services take them."""
        return {key: self.cleaned_data[key] for key in ("name", "slug", "start", "closed_allowed")}


class CloneForm(NewCompetitionForm):
    """The copy's name, address and start, and which of the source's rounds it keeps (every
    one ticked as the page opens)."""

    rounds = forms.MultipleChoiceField(
        label=_("Rounds to copy"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Untick the rounds the new class does not play. A presentation window of a round "
            "left out is not copied, nor is a standings division that counts one."
        ),
        error_messages={"required": _("Tick at least one round to copy.")},
    )

    def __init__(self, *args, competition, **kwargs):
        super().__init__(*args, **kwargs)
        rounds = list(competition.rounds.order_by("order", "pk").values_list("slug", "name"))
        self.fields["rounds"].choices = rounds
        self.fields["rounds"].initial = [slug for slug, _name in rounds]

    def new_competition(self) -> dict:
        return {**super().new_competition(), "rounds": set(self.cleaned_data["rounds"])}


class ImportForm(NewCompetitionForm):
    bundle = forms.FileField(
        label=_("Bundle (ZIP)"),
        help_text=_("A competition bundle exported from this platform."),
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,application/zip"}),
    )
    rounds = forms.CharField(
        label=_("Rounds to import"),
        required=False,
        max_length=2000,
        help_text=_(
            "Empty: every round. Else the addresses of the rounds to import, separated by "
            "commas or spaces (round-1, round-3), as the source competition's console lists "
            "them. A presentation window of a round left out is not imported, nor is a "
            "standings division that counts one."
        ),
    )
    field_order = ["bundle", "name", "slug", "start", "timezone", "closed_allowed", "rounds"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].help_text = _("Empty: the name the bundle holds.")

    def new_competition(self) -> dict:
        rounds = round_addresses(self.cleaned_data["rounds"])
        return {**super().new_competition(), "rounds": rounds}
