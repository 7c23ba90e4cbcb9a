"""The organizer console's page creating a DP round (mounted at console/<comp>/dp/new/)."""

import datetime as dt
import json

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.dates import form_dates_check
from pwscup.competitions.selectors import console_competition
from pwscup.core.form_fields import POSITIVE_INT_MAX
from pwscup.core.time_zones import TimeZoneField
from pwscup.dp import services


class DPRoundForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Address (slug)"))
    table = forms.FileField(
        label=_("Hidden table (CSV)"),
        help_text=_(
            "Categorical columns named as the configuration's attributes; never shown to teams."
        ),
    )
    config = forms.CharField(
        label=_("Configuration (JSON)"),
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        help_text=_("Attributes, workload, levels, tracks (spec §10)."),
    )
    opens_at = forms.DateTimeField(label=_("Release phase opens at"))
    closes_at = forms.DateTimeField(label=_("Release phase closes at"))
    daily_limit = forms.IntegerField(
        label=_("Estimates per team per level per day"),
        required=False,
        min_value=1,
        max_value=POSITIVE_INT_MAX,
        help_text=_("Empty: no limit. Rejected estimates do not count."),
    )
    total_limit = forms.IntegerField(
        label=_("Estimates per team per level in all"),
        required=False,
        min_value=1,
        max_value=POSITIVE_INT_MAX,
        help_text=_("Empty: no limit. Rejected estimates do not count."),
    )
    timezone = TimeZoneField(label=_("Time zone"))

    def clean(self):
        cleaned = super().clean()
        form_dates_check(self, ("opens_at", "closes_at"), time_zone=cleaned.get("timezone"))
        return cleaned


EXAMPLE_CONFIG = {
    "attributes": {
        "gender": ["F", "M"],
        "age": ["<=17", "18-24", "25-34", "35-44", "45-49", "50-55", "56+"],
    },
    "workload": [{"id": "gender_age", "attributes": ["gender", "age"]}],
    "levels": [
        {"id": "eps-0.1", "epsilon": "0.1"},
        {"id": "eps-1", "epsilon": "1.0"},
        {"id": "eps-4", "epsilon": "4.0"},
    ],
    "tracks": {"interactive": True, "batch": "platform"},
}


@login_required
def round_create(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    now = timezone.now().replace(second=0, microsecond=0)
    if request.method == "POST":
        form = DPRoundForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data
            try:
                dp_round = services.dp_round_create(
                    competition=competition,
                    name=data["name"],
                    slug=data["slug"],
                    table=data["table"].read(),
                    table_filename=data["table"].name,
                    config_raw=data["config"],
                    opens_at=data["opens_at"],
                    closes_at=data["closes_at"],
                    daily_limit=data["daily_limit"],
                    total_limit=data["total_limit"],
                    timezone_name=data["timezone"],
                    user=request.user,
                )
            except ValidationError as error:
                for field, messages in error.message_dict.items():
                    form.add_error(field if field in form.fields else None, messages)
            else:
                return redirect("console:round", competition.slug, dp_round.round.slug)
    else:
        form = DPRoundForm(
            initial={
                "config": json.dumps(EXAMPLE_CONFIG, indent=2, ensure_ascii=False),
                "opens_at": now,
                "closes_at": now + dt.timedelta(days=7),
            }
        )
    return render(request, "dp/console_create.html", {"competition": competition, "form": form})
