"""The console's form of a round's phases (*Dates and limits*): each phase the round's kind
names (``PhasesEdit.phase_labels``), its window typed in the round's time zone and its
upload limits per team (labelled as the kind counts them, ``PhasesEdit.limit_labels``), per
target for a phase the kind limits so (``PhasesEdit.target_limit_phases``)."""

from django.utils.translation import gettext as _

from pwscup.competitions.phases_edit import auto_freeze_setting
from pwscup.competitions.round_create import LocalDatesForm
from pwscup.core.form_fields import limit_field, local_datetime_field
from pwscup.core.time_zones import zone_or_default
from pwscup.kinds import kind_of
from pwscup.kinds.auto_freeze import auto_freeze_field
from pwscup.kinds.phases_edit import PhaseValues


class PhasesEditForm(LocalDatesForm):
    def __init__(self, *args, round, stored: dict, **kwargs):
        kind = kind_of(round)
        self.zone = zone_or_default(round.timezone)
        initial = self.initial_of(stored)
        if kind.auto_freeze is not None:
            initial["auto_freeze"] = auto_freeze_setting(round=round)
        super().__init__(*args, initial=initial, **kwargs)
        self.groups = []
        daily_label, total_label = kind.phases_edit.limit_labels
        for key, label in kind.phases_edit.phase_labels(kind).items():
            fields = {
                f"{key}_opens_at": local_datetime_field(_("%(phase)s opens") % {"phase": label}),
                f"{key}_closes_at": local_datetime_field(_("%(phase)s closes") % {"phase": label}),
                f"{key}_daily_limit": limit_field(daily_label),
                f"{key}_total_limit": limit_field(total_label),
            }
            if key in kind.phases_edit.target_limit_phases:
                fields[f"{key}_target_limit"] = limit_field(_("Uploads per team per target"))
            if kind.auto_freeze is not None and key == kind.auto_freeze.release_kind:
                fields["auto_freeze"] = auto_freeze_field(kind.auto_freeze.model)
            self.fields.update(fields)
            self.groups.append((key, label, list(fields)))
        self.LOCAL_DATES = tuple(name for name in self.fields if name.endswith("_at"))

    def initial_of(self, stored: dict) -> dict:
        """The stored phases' values, their times in the round's zone to the minute."""
        initial = {}
        for key, values in stored.items():
            if values is None:
                continue
            for name, value in vars(values).items():
                if name.endswith("_at"):
                    value = value.astimezone(self.zone).replace(
                        tzinfo=None, second=0, microsecond=0
                    )
                initial[f"{key}_{name}"] = value
        return initial

    def phase_groups(self):
        """``(key, label, bound fields)`` per phase, in the kind's order (the page's
        fieldsets)."""
        return [(key, label, [self[name] for name in names]) for key, label, names in self.groups]

    def auto_freeze(self) -> bool | None:
        """The automatic freeze at the release phase's close as ticked (``None``: the kind
        has none)."""
        return self.cleaned_data.get("auto_freeze") if "auto_freeze" in self.fields else None

    def phases(self) -> dict[str, PhaseValues]:
        """The typed phases, by key (``round_phases_edit``'s ``phases``)."""
        data = self.cleaned_data
        return {
            key: PhaseValues(
                **{
                    name.removeprefix(f"{key}_"): data.get(name)
                    for name in names
                    if name != "auto_freeze"  # the round's setting beside the phase's dates
                }
            )
            for key, _label, names in self.groups
        }
