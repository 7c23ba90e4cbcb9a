"""The organizer admin of sequential rounds: the configuration, closes and limits (saved by
the console's service, ``schedule_edit``: checked, audited, the rankings refreshed); master
tables, releases and attacks read-only (the platform makes them, its services change them;
the uploads' pages are the core's, ``kept_upload_admin``)."""

import datetime as dt
import json

from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import (
    CompetitionScopedAdmin,
    NoAddAdmin,
    ReadOnlyScopedAdmin,
    RoundRowAdmin,
)
from pwscup.competitions.admin_service import ServiceSavedAdmin, ServiceSavedForm
from pwscup.core.form_fields import ConfigField
from pwscup.sequential.models import Master, Release, SeqAttack, SequentialRound
from pwscup.sequential.schedule_fields import ScheduleFields
from pwscup.sequential.services import schedule_edit
from pwscup.sequential.services.schedule_edit import ROW_FIELDS
from pwscup.submissions.upload_admin import kept_upload_admin


class SequentialRoundForm(ServiceSavedForm):
    """The round's row as the console's services edit it: the configuration and every field
    ``schedule_edit`` takes (``ROW_FIELDS``), saved by that service (``ServiceSavedForm``)."""

    config = ConfigField(
        label=_("Configuration (JSON)"),
        help_text=_("Every key is described in docs/sequential.md (“The configuration”)."),
    )

    class Meta:
        model = SequentialRound
        # The settings the console's page also changes.
        fields = ROW_FIELDS
        # Each release step is a window of its own: the limits read as on the console's page.
        labels = {
            name: ScheduleFields.base_fields[name].label for name in ("daily_limit", "total_limit")
        }
        help_texts = {
            "attack_closes_at": _(
                "Attacks are refused from this time on; empty: until the results are out."
            ),
        }

    SAVED_FIELDS = ("config", *ROW_FIELDS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["config"] = self.instance.config

    def clean_step_closes(self):
        """The closes as a list of ISO date-times (their form only: the service checks them
        against the configuration sent with them)."""
        closes = self.cleaned_data.get("step_closes") or []
        if not isinstance(closes, list):
            raise ValidationError(
                _("A list of dates and times, one per release: %(example)s"),
                params={"example": '["2026-12-01T18:00:00+09:00", "2026-12-08T18:00:00+09:00"]'},
            )
        for at in closes:
            try:
                dt.datetime.fromisoformat(str(at))
            except ValueError:
                raise ValidationError(
                    _("%(value)s is not a date and time (ISO 8601: 2026-12-01T18:00:00+09:00)."),
                    params={"value": at},
                ) from None
        return [dt.datetime.fromisoformat(str(at)) for at in closes]

    def service_save(self, cleaned):
        """Save through ``schedule_edit``; the row then holds what is stored, for the
        model's own checks (also when the service refused)."""
        try:
            schedule_edit(
                sequential=self.instance,
                user=self.user,
                **{name: cleaned[name] for name in self.SAVED_FIELDS},
            )
        finally:
            stored = SequentialRound.objects.get(pk=self.instance.pk)
            cleaned.update({name: getattr(stored, name) for name in ROW_FIELDS})


@admin.register(SequentialRound)
class SequentialRoundAdmin(
    ServiceSavedAdmin, RoundRowAdmin, CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin
):
    competition_lookup = "round__competition"
    form = SequentialRoundForm
    list_display = ("round", "frozen_steps", "results_published")
    # Publishing tells the participants: only the actions on the list of rounds (the kind's
    # ``admin_actions``, through the service) change it.
    readonly_fields = (
        "round",
        "frozen_steps",
        "results_published",
        "configuration",
        "pool_converted_from",
    )

    def get_readonly_fields(self, request, obj=None):
        """The configuration as text (``configuration``) for a reader who may not change the
        round only: one who may edits it in the form's JSON field, and read it twice."""
        fields = super().get_readonly_fields(request, obj)
        if self.has_change_permission(request, obj):
            fields = [name for name in fields if name != "configuration"]
        return fields

    def get_fields(self, request, obj=None):
        """A reader who may not change the round sees its configuration once, as text
        (``configuration``), not also the form's JSON field under the attribute's name."""
        fields = super().get_fields(request, obj)
        if not self.has_change_permission(request, obj):
            fields = [name for name in fields if name != "config"]
        return fields

    @admin.display(description=_("configuration"))
    def configuration(self, obj):
        return json.dumps(obj.config, ensure_ascii=False)

    @admin.display(description=_("pool converted from"))
    def pool_converted_from(self, obj):
        return obj.pool_encoding_label or "—"


class SequentialRowAdmin(ReadOnlyScopedAdmin):
    """A row of a sequential round's (its ``sequential``), made by the platform."""

    competition_lookup = "sequential__round__competition"


@admin.register(Master)
class MasterAdmin(SequentialRowAdmin):
    list_display = ("sequential", "team", "persons", "drawn", "created_at")
    fields = ("sequential", "team", "sha256", "persons", "drawn", "converted_from", "created_at")

    @admin.display(description=_("converted from"))
    def converted_from(self, obj):
        return obj.source_encoding_label or "—"


kept_upload_admin(
    Release,
    competition_lookup="sequential__round__competition",
    columns=("step", "is_frozen"),
    filters=("is_frozen",),
    where=("sequential", "team", "step", "number"),
    results=("results", "elapsed_ms", "is_frozen"),
)
kept_upload_admin(
    SeqAttack,
    columns=("target", "accuracy"),
    where=("target", "team", "number"),
    results=("accuracy",),
)
