"""The console's creation form of a two-sided round (a release phase, then an attack phase on
the frozen releases), for the kinds that play one (synthetic data, the organizer's own
program): the round's name and address, its time zone, both phases' windows (typed in the
round's time zone) and upload limits, the keyword arguments of the kind's creation service
and the starting values. The kind's form adds its own settings. The windows' order (each
phase closing after it opens, the attack phase after the release phase) is the creation
service's check (``two_sided_windows_errors``), so that its errors come with the settings'.

``NumberListField`` is the list of numbers these forms take (a scorer round's bands, a
synthetic round's false-positive levels)."""

import datetime as dt

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.round_create import RoundBasicsForm
from pwscup.core.form_fields import limit_field, local_datetime_field
from pwscup.core.time_zones import default_time_zone, zone_or_default
from pwscup.kinds.auto_freeze import auto_freeze_field
from pwscup.submissions.models import AutoFreezeRow
from pwscup.submissions.services.two_sided import TwoSidedWindows

SIDES = ("release", "attack")
# The starting windows' lengths in days, phase after phase (``windows_initial``).
PHASE_DAYS = (14, 7)
WINDOW_FIELDS = ("release_opens_at", "release_closes_at", "attack_opens_at", "attack_closes_at")


class NumberListField(forms.CharField):
    """Numbers as typed, ``0.25, 0.5, 0.75``: a list of numbers (the settings' check decides
    what they may be). ``error_messages={"not_a_number": ...}`` words the refusal of a part
    that is not a number (its ``%(value)s``) for the field's own numbers."""

    default_error_messages = {
        "not_a_number": _("“%(value)s” is not a number (write them as 0.25, 0.5, 0.75)."),
    }

    def to_python(self, value):
        text = super().to_python(value) or ""
        numbers = []
        for part in text.replace("、", ",").replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            try:
                numbers.append(float(part))
            except ValueError:
                raise forms.ValidationError(
                    self.error_messages["not_a_number"] % {"value": part[:40]}
                ) from None
        return numbers

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return ", ".join(f"{v:g}" for v in value)
        return value


class TwoSidedRoundForm(RoundBasicsForm):
    """The fields every two-sided round's creation form has (after every round's:
    ``RoundBasicsForm``); the kind's form adds its settings (and may reword
    ``attack_target_limit``'s help)."""

    release_opens_at = local_datetime_field(_("Release phase opens"))
    release_closes_at = local_datetime_field(_("Release phase closes"))
    release_daily_limit = limit_field(_("Releases per team per day"))
    release_total_limit = limit_field(_("Releases per team in total"))
    auto_freeze = auto_freeze_field(AutoFreezeRow)
    attack_opens_at = local_datetime_field(_("Attack phase opens"))
    attack_closes_at = local_datetime_field(_("Attack phase closes"))
    attack_daily_limit = limit_field(_("Attacks per team per day"))
    attack_total_limit = limit_field(_("Attacks per team in total"))
    attack_target_limit = limit_field(_("Attacks per team per target"))

    LOCAL_DATES = WINDOW_FIELDS

    def windows(self) -> dict:
        """The keyword argument of the kind's round creation service for the two windows
        (``windows``: a ``TwoSidedWindows``)."""
        data = self.cleaned_data
        return {
            "windows": TwoSidedWindows(
                release=(data["release_opens_at"], data["release_closes_at"]),
                attack=(data["attack_opens_at"], data["attack_closes_at"]),
                release_limits=(data.get("release_daily_limit"), data.get("release_total_limit")),
                attack_limits=(data.get("attack_daily_limit"), data.get("attack_total_limit")),
                attack_target_limit=data.get("attack_target_limit"),
                auto_freeze=bool(data.get("auto_freeze")),
            )
        }


def windows_initial(*, now, time_zone: str, sides: tuple[str, ...] = SIDES) -> dict:
    """The form's starting time zone and windows: the first phase of ``sides`` (the release
    phase; a 2015 round's anonymization phase) from ``now`` (in the round's time zone, to the
    minute) for two weeks, the attack phase the week after. ``sides`` names the phases'
    fields (``<side>_opens_at``...); a form of one window names one, ``""`` when its fields
    are ``opens_at`` and ``closes_at`` (a DP round's release window)."""
    opens = now.astimezone(zone_or_default(time_zone)).replace(tzinfo=None, second=0, microsecond=0)
    initial = {"timezone": time_zone}
    for side, days in zip(sides, PHASE_DAYS[: len(sides)], strict=True):
        closes = opens + dt.timedelta(days=days)
        prefix = f"{side}_" if side else ""
        initial.update({f"{prefix}opens_at": opens, f"{prefix}closes_at": closes})
        opens = closes
    return initial


def two_sided_form(request, form_class, initial, **kwargs):
    """The kind's creation form (``form_class``, with its ``kwargs``): as posted, or blank
    with the starting values ``initial(now=..., time_zone=...)`` from now, in the site's
    time zone (``windows_initial`` and the kind's settings)."""
    if request.method == "POST":
        return form_class(request.POST, **kwargs)
    return form_class(initial=initial(now=timezone.now(), time_zone=default_time_zone()), **kwargs)
