"""The DP round in the organizer admin: a DP round is created here from the hidden table and
the JSON configuration (the service checks both, with the spec's messages); ledgers, charges
and estimates are read-only records (the ledger is changed by ``ledger_charge`` only)."""

from dataclasses import replace

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import CompetitionScopedAdmin, RoundRowAdmin
from pwscup.competitions.admin_service import ServiceSavedAdmin, ServiceSavedForm
from pwscup.competitions.dates import form_dates_check
from pwscup.competitions.models import Competition
from pwscup.competitions.phases_edit import round_phases_edit
from pwscup.competitions.round_create import RoundBasicsForm, round_basics
from pwscup.competitions.selectors import organized_competitions
from pwscup.competitions.window_forms import WINDOW_FIELDS
from pwscup.core.admin_base import ReadOnlyAdminMixin, account_display, upload_list_display
from pwscup.dp.models import Charge, DPRound, Estimate, Ledger
from pwscup.dp.services import dp_round_create
from pwscup.dp.services.window_edit import RELEASE, dp_window_stored


class ReleaseWindowForm(forms.ModelForm):
    """The DP round's release window, in the add and the change forms."""

    class Meta:
        model = DPRound
        fields = ("opens_at", "closes_at")
        labels = {
            "opens_at": _("release phase opens at"),
            "closes_at": _("release phase closes at"),
        }


class DPRoundCreateForm(ReleaseWindowForm, RoundBasicsForm):
    """The add form: what ``dp_round_create`` takes (the round's basics, in the competition
    chosen)."""

    competition = forms.ModelChoiceField(
        queryset=Competition.objects.none(), label=_("competition")
    )
    table = forms.FileField(label=_("Hidden table (CSV)"))
    config_json = forms.CharField(
        label=_("Configuration (JSON)"),
        widget=forms.Textarea,
        help_text=_("Every key is described in docs/dp.md (“The configuration”)."),
    )

    def clean(self):
        cleaned = super().clean()
        form_dates_check(self, ("opens_at", "closes_at"), time_zone=cleaned.get("timezone"))
        if self.errors:
            return cleaned
        try:
            self.created = dp_round_create(
                basics=round_basics(cleaned, competition=cleaned["competition"]),
                table=cleaned["table"].read(),
                table_filename=cleaned["table"].name,
                config_raw=cleaned["config_json"],
                opens_at=cleaned["opens_at"],
                closes_at=cleaned["closes_at"],
                user=self.user,
            )
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                if field == "config":
                    field = "config_json"
                self.add_error(field if field in self.fields else None, messages)
        return cleaned


class DPRoundWindowForm(ServiceSavedForm, ReleaseWindowForm):
    """The change form: the release window, saved when the form is cleaned by the console's
    edit of it (``round_phases_edit``: checked as on the page *Dates and limits*, recorded
    in the audit log, the rankings refreshed; the limits kept), its refusals under the
    fields (``ServiceSavedForm``)."""

    SAVED_FIELDS = WINDOW_FIELDS

    def service_save(self, cleaned: dict) -> None:
        round_ = self.instance.round
        window = {name: cleaned[name] for name in WINDOW_FIELDS}
        stored = dp_window_stored(round=round_)[RELEASE]
        try:
            round_phases_edit(
                user=self.user, round=round_, phases={RELEASE: replace(stored, **window)}
            )
        except ValidationError as error:
            # The page's keys of the window's fields (``release_opens_at``) are the form's.
            raise ValidationError(
                {key.removeprefix(f"{RELEASE}_"): m for key, m in error.message_dict.items()}
            ) from error


@admin.register(DPRound)
class DPRoundAdmin(ServiceSavedAdmin, RoundRowAdmin, CompetitionScopedAdmin, admin.ModelAdmin):
    competition_lookup = "round__competition"
    form = DPRoundWindowForm
    list_display = ("round", "opens_at", "closes_at", "scored_at")
    readonly_fields = ("round", "config_text", "scored_at")
    fields = ("round", "opens_at", "closes_at", "config_text", "scored_at")

    def get_form(self, request, obj=None, **kwargs):
        if obj is None:
            form = DPRoundCreateForm
            form.base_fields["competition"].queryset = organized_competitions(user=request.user)
            form.user = request.user
            return form
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request, obj=None):
        if obj is None:
            return ("competition", "name", "slug", "table", "config_json", "timezone",
                    "opens_at", "closes_at")  # fmt: skip
        return self.fields

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if not change:
            # Created by the service in the form's clean(): this object stands for it.
            created = form.created
            obj.pk, obj.round, obj.config_text = created.pk, created.round, created.config_text

    def save_related(self, request, form, formsets, change):
        pass


class ReadOnlyAdmin(ReadOnlyAdminMixin, CompetitionScopedAdmin, admin.ModelAdmin):
    pass


@admin.register(Ledger)
class LedgerAdmin(ReadOnlyAdmin):
    competition_lookup = "dp_round__round__competition"
    list_display = ("team", "dp_round", "level", "budget", "spent", "charges_count")
    list_filter = ("level",)


@admin.register(Charge)
class ChargeAdmin(ReadOnlyAdmin):
    competition_lookup = "ledger__dp_round__round__competition"
    list_display = ("ledger", "number", "kind", "epsilon", "spent_after", "created_at")
    list_filter = ("kind",)
    exclude = ("user",)
    readonly_fields = ("account",)
    account = account_display("user", _("Account"))


@admin.register(Estimate)
class EstimateAdmin(ReadOnlyAdmin):
    competition_lookup = "dp_round__round__competition"
    list_display = upload_list_display(
        "level", "source", "method", "flagged", round_lookup="dp_round__round"
    )
    list_select_related = ("team", "dp_round__round")
    list_filter = ("status", "source", "declared", "flagged")
    exclude = ("uploaded_by",)
    readonly_fields = ("uploader",)
    uploader = account_display("uploaded_by", _("uploaded by"))
