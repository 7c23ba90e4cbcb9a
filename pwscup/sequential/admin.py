"""The organizer admin of sequential rounds: the configuration (checked by the same service
as the console); master tables, releases and attacks read-only (the platform makes them, its
services change them; the uploads' pages are the core's, ``kept_upload_admin``)."""

import datetime as dt
import json

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import (
    CompetitionScopedAdmin,
    NoAddAdmin,
    ReadOnlyScopedAdmin,
    RoundRowAdmin,
)
from pwscup.core.form_fields import ConfigField
from pwscup.sequential.models import Master, Release, SeqAttack, SequentialRound
from pwscup.sequential.services import schedule_normalise, sequential_config_validate
from pwscup.sequential.services.schedule_edit import (
    EDITED,
    attack_close_edited,
    frozen_closes_errors,
)
from pwscup.submissions.upload_admin import kept_upload_admin


class SequentialRoundForm(forms.ModelForm):
    config = ConfigField(
        label=_("Configuration (JSON)"),
        help_text=_("Every key is described in docs/sequential.md (“The configuration”)."),
    )

    class Meta:
        model = SequentialRound
        # The settings the console's page also changes.
        fields = ("step_closes", "attack_closes_at", *EDITED)
        # Each release step is a window of its own.
        labels = {
            "daily_limit": _("uploads per team per release per day"),
            "total_limit": _("uploads per team per release"),
        }
        help_texts = {
            "attack_closes_at": _(
                "Attacks are refused from this time on; empty: until the results are out."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["config"] = self.instance.config

    def clean_config(self):
        config = self.cleaned_data["config"]
        if self.instance.pk and self.instance.frozen_steps and config != self.instance.config:
            raise ValidationError(_("Step 1 is frozen: the configuration can no longer change."))
        return sequential_config_validate(config=config)

    def clean_step_closes(self):
        """The closes as a list of ISO date-times (their form only: ``clean`` checks them
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
        return [str(at) for at in closes]

    def clean(self):
        """The release closes and the attack phase's close, checked as the console's page
        checks them (one close per release, increasing, a frozen release's close kept; the
        attack phase's after the last release's, no move once the results are published),
        against the configuration sent in this form (an attack phase switched on or off,
        a number of releases changed in the same save), not the stored one."""
        cleaned = super().clean()
        config, closes = cleaned.get("config"), cleaned.get("step_closes")
        if not self.instance.pk or config is None or closes is None:
            return cleaned  # a field is refused already: its message says why
        try:
            parsed = schedule_normalise(
                sequential=self.instance,
                closes=[dt.datetime.fromisoformat(at) for at in closes],
                config=config,
            )
        except ValidationError as error:
            self.add_error("step_closes", error.message_dict.get("step_closes", error.messages))
            return cleaned
        if errors := frozen_closes_errors(sequential=self.instance, closes=parsed):
            self.add_error("step_closes", errors)
            return cleaned
        cleaned["step_closes"] = [at.isoformat() for at in parsed]
        if "attack_closes_at" in cleaned:
            try:
                cleaned["attack_closes_at"] = attack_close_edited(
                    sequential=self.instance,
                    closes=parsed,
                    attack_closes_at=cleaned["attack_closes_at"],
                    config=config,
                )
            except ValidationError as error:
                self.add_error("attack_closes_at", error.message_dict["attack_closes_at"])
        return cleaned

    def save(self, commit=True):
        self.instance.config = self.cleaned_data["config"]
        return super().save(commit)


@admin.register(SequentialRound)
class SequentialRoundAdmin(RoundRowAdmin, CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
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
