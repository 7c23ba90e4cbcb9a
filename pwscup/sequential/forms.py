import datetime as dt
import json

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Team
from pwscup.competitions.dates import dates_check, form_dates_check
from pwscup.core.form_fields import positive_int_field
from pwscup.core.json_input import json_input
from pwscup.core.time_zones import TimeZoneField

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
        return json_input(value or "{}")

    def prepare_value(self, value):
        return value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False)


class ClosesField(forms.CharField):
    """Date-times, one per line (``2026-12-01 18:00``), in the round's time zone."""

    widget = forms.Textarea(attrs={"rows": 4, "cols": 30})

    def to_python(self, value):
        closes = []
        for line in (super().to_python(value) or "").splitlines():
            if line.strip():
                try:
                    closes.append(dt.datetime.fromisoformat(line.strip()))
                except ValueError:
                    raise forms.ValidationError(
                        _("“%(value)s” is not a date and time (2026-12-01 18:00).")
                        % {"value": line.strip()}
                    ) from None
        return closes


class ScheduleFields(forms.Form):
    """Step windows and upload limits of a sequential round (spec §4, platform options)."""

    step_closes = ClosesField(
        label=_("Close of each release"),
        required=False,
        help_text=_(
            "One date and time per line, in the round's time zone; or use the two fields below."
        ),
    )
    first_close = forms.DateTimeField(label=_("Release 1 closes at"), required=False)
    step_hours = forms.IntegerField(label=_("Step length (hours)"), min_value=1, required=False)
    auto_freeze = forms.BooleanField(
        label=_("Freeze each release automatically at its close"), required=False, initial=True
    )
    daily_limit = positive_int_field(
        label=_("Uploads per team per release per day"), required=False
    )
    total_limit = positive_int_field(label=_("Uploads per team per release"), required=False)

    def clean(self):
        """Every close (typed, or computed from the first close and the step length) must
        be a date the platform accepts (``dates_check``)."""
        cleaned = super().clean()
        for j, at in enumerate(cleaned.get("step_closes") or [], start=1):
            if not self._date_accepted("step_closes", at, j):
                break
        form_dates_check(self, ("first_close",))
        first, hours = cleaned.get("first_close"), cleaned.get("step_hours")
        releases = self.release_count()
        if first is not None and hours and releases and not self.has_error("first_close"):
            try:
                last = first + dt.timedelta(hours=hours) * (releases - 1)
            except OverflowError:
                last = dt.datetime.max.replace(tzinfo=first.tzinfo)  # refused below
            self._date_accepted("step_hours", last, releases)
        return cleaned

    def _date_accepted(self, field: str, value, release: int) -> bool:
        try:
            dates_check(
                {field: value},
                labels={field: _("Close of release %(j)s") % {"j": release}},
            )
        except ValidationError as error:
            self.add_error(field, error.message_dict[field])
            return False
        return True

    def release_count(self) -> int | None:
        """How many releases the round has, when the form knows it (its configuration)."""
        config = self.cleaned_data.get("config")
        n = config.get("n_releases") if isinstance(config, dict) else None
        return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None

    def schedule(self) -> dict:
        """The keyword arguments of ``sequential_round_create`` these fields give."""
        data = self.cleaned_data
        hours = data.get("step_hours")
        return {
            "step_closes": data.get("step_closes") or None,
            # Naive again: the service reads it in the round's time zone, like step_closes.
            "first_close": data.get("first_close") and timezone.make_naive(data["first_close"]),
            "step_length": dt.timedelta(hours=hours) if hours else None,
            "auto_freeze": bool(data.get("auto_freeze")),
            "daily_limit": data.get("daily_limit"),
            "total_limit": data.get("total_limit"),
        }


class SequentialRoundForm(ScheduleFields):
    field_order = ["name", "slug", "config", "master", "pool", "timezone"]
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Address (slug)"))
    # Not required: a post without it (a script's) gets the site's default, like the service.
    timezone = TimeZoneField(label=_("Time zone"), required=False)
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
