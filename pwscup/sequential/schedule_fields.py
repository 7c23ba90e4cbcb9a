"""The step windows and upload limits of a sequential round (its releases' and its attack
phase's), as form fields
(:class:`ScheduleFields`, a base of the console's round form,
:class:`pwscup.sequential.round_form.SequentialRoundForm`, and of the form changing them
later, :class:`ScheduleEditForm`)."""

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.dates import dates_check
from pwscup.competitions.round_create import LocalDatesForm, ServiceErrorsForm
from pwscup.core.form_fields import limit_field
from pwscup.core.time_zones import zone_or_default


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


class ScheduleFields(LocalDatesForm):
    """When release 1 opens, the step windows and upload limits of a sequential round (spec
    §4, platform options), and the attack phase's planned close and limits; the dates in
    the round's time zone."""

    opens_at = forms.DateTimeField(
        label=_("Release 1 opens at"),
        required=False,
        help_text=_(
            "In the round's time zone: uploads of release 1 (in batch mode, of every release) "
            "are refused before it. Empty: open at once."
        ),
    )
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
    daily_limit = limit_field(_("Uploads per team per release per day"), help_text="")
    total_limit = limit_field(_("Uploads per team per release"), help_text="")
    # The attack phase's close and limits: shown with the attack phase (``attack_fields``).
    attack_closes_at = forms.DateTimeField(
        label=_("Attack phase closes at"),
        required=False,
        help_text=_(
            "In the round's time zone, after the last release's close; empty: the attack "
            "phase ends when the results are published."
        ),
    )
    attack_daily_limit = limit_field(_("Attacks per team per day"))
    attack_total_limit = limit_field(_("Attacks per team in total"))
    attack_target_limit = limit_field(_("Attacks per team per target"))

    LOCAL_DATES = ("opens_at", "first_close", "attack_closes_at")
    ATTACK_FIELDS = (
        "attack_closes_at",
        "attack_daily_limit",
        "attack_total_limit",
        "attack_target_limit",
    )

    def clean(self):
        """Every close (typed, or computed from the first close and the step length) must
        be a date the platform accepts (``dates_check``)."""
        cleaned = super().clean()
        for j, at in enumerate(cleaned.get("step_closes") or [], start=1):
            if not self._date_accepted("step_closes", at, j):
                break
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
        builds = getattr(self, "round_config", None)  # the console's form: its fields or JSON
        config = builds() if builds else self.cleaned_data.get("config")
        n = config.get("n_releases") if isinstance(config, dict) else None
        return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None

    def schedule(self) -> dict:
        """The keyword arguments of ``sequential_round_create`` these fields give."""
        data = self.cleaned_data
        hours = data.get("step_hours")
        return {
            "step_closes": data.get("step_closes") or None,
            "first_close": data.get("first_close"),
            "attack_closes_at": data.get("attack_closes_at"),
            "opens_at": data.get("opens_at"),
            "step_length": dt.timedelta(hours=hours) if hours else None,
            "auto_freeze": bool(data.get("auto_freeze")),
            "daily_limit": data.get("daily_limit"),
            "total_limit": data.get("total_limit"),
            **{name: data.get(name) for name in self.ATTACK_FIELDS if name.endswith("_limit")},
        }


class ScheduleEditForm(ServiceErrorsForm, ScheduleFields):
    """The same fields for an existing round (its console page *Dates and limits*, saved by
    ``schedule_edit``): shown as stored, the closes in the round's time zone; the attack
    phase's limits only for a round that has one (otherwise kept as they are); the service's
    ``step_length`` refused next to the step's hours."""

    SERVICE_FIELDS = {"step_length": "step_hours"}

    def __init__(self, data=None, *, sequential, **kwargs):
        self.sequential = sequential
        self.zone = zone = zone_or_default(sequential.round.timezone)
        closes = [
            shown_at(sequential.close_of(step), zone)
            for step in range(1, len(sequential.step_closes or []) + 1)
        ]
        names = ("auto_freeze", "daily_limit", "total_limit", *self.ATTACK_FIELDS)
        initial = {name: getattr(sequential, name) for name in names}
        initial["attack_closes_at"] = shown_at(sequential.attack_closes_at, zone)
        initial["opens_at"] = shown_at(sequential.opens_at, zone)
        super().__init__(data, initial={**initial, "step_closes": "\n".join(closes)}, **kwargs)
        if not sequential.config.get("attack_phase"):
            for name in self.ATTACK_FIELDS:
                del self.fields[name]

    def release_count(self) -> int:
        return self.sequential.n_releases

    def schedule(self) -> dict:
        """``schedule_edit``'s keyword arguments (without the limits the page does not show)."""
        hidden = set(self.ATTACK_FIELDS) - set(self.fields)
        return {name: value for name, value in super().schedule().items() if name not in hidden}


def shown_at(at: dt.datetime | None, zone) -> str:
    """``at`` as the page shows and sends it: to the minute, in the round's time zone."""
    return "" if at is None else at.astimezone(zone).strftime("%Y-%m-%d %H:%M")
