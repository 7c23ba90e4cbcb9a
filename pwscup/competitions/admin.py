"""Organizer screens: competitions, rounds (data + configuration checked by ``scoring``), phases."""


from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

import scoring
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.services import (
    competition_organizers_add,
    phase_window_check,
    read_file_bytes,
    round_data_check,
    round_original_store,
    round_record_data,
    round_settings_check,
    slug_check,
)
from pwscup.core.access import private_file_response
from pwscup.core.admin_scope import CompetitionScopedAdmin, PrivateFileWidget, scoped_filter
from pwscup.core.json_input import BoundedJSONFormField, json_input
from pwscup.kinds import get_kind


class PhaseForm(forms.ModelForm):
    def clean(self):
        cleaned = super().clean()
        round_ = self.instance.round if self.instance.round_id else None
        try:
            phase_window_check(
                opens_at=cleaned.get("opens_at"),
                closes_at=cleaned.get("closes_at"),
                time_zone=round_.timezone if round_ is not None else None,
            )
        except ValidationError as error:
            self.add_error(None, error)
        return cleaned


class PhaseInline(admin.TabularInline):
    model = Phase
    form = PhaseForm
    extra = 0
    fields = ("kind", "opens_at", "closes_at", "daily_limit", "total_limit", "leaderboard_public")


class RoundAdminForm(forms.ModelForm):
    config_file = forms.FileField(
        label=_("Round configuration file (JSON)"),
        required=False,
        help_text=_("Optional: replaces the configuration below."),
    )

    class Meta:
        model = Round
        field_classes = {"config": BoundedJSONFormField, "utility_gates": BoundedJSONFormField}
        fields = (
            "competition",
            "name",
            "slug",
            "order",
            "data_mode",
            "original_file",
            "config",
            "sample_size",
            "decoy_count",
            "timezone",
            "utility_gates",
            "tie_break_metric",
            "ranking_rule",
            "selection_rule",
            "attack_visibility",
            "auto_freeze",
        )
        help_texts = {
            "utility_gates": _(
                "Bounds a submission must meet to be ranked. A bare number is an upper bound "
                'for U1–U6 ({"U1": 100} means U1 ≤ 100); any other metric needs a direction: '
                '{"S1": {"min": 5}} (S1 ≥ 5), {"E1": {"max": 0.5}}.'
            ),
            "timezone": _("An IANA time zone name, e.g. Asia/Tokyo or UTC."),
            "tie_break_metric": _(
                "Equal safety is broken by this metric in its own direction (lower U1–U6 and "
                "attack rates, higher S1/S2 are better)."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A configuration file may replace it; ``scoring.load_config`` says what is missing.
        self.fields["config"].required = False

    def clean(self):
        cleaned = super().clean()
        try:
            round_settings_check(
                slug=cleaned.get("slug"),
                competition=cleaned.get("competition"),
                current=self.instance,
                timezone=cleaned.get("timezone"),
                utility_gates=cleaned.get("utility_gates"),
                tie_break_metric=cleaned.get("tie_break_metric"),
                data_mode=cleaned.get("data_mode"),
                sample_size=cleaned.get("sample_size"),
                config=cleaned.get("config") if isinstance(cleaned.get("config"), dict) else None,
            )
        except ValidationError as error:
            self.add_error(None, error)
        upload = cleaned.get("original_file")
        if not upload:
            return cleaned
        config_raw = cleaned.get("config") or {}
        if cleaned.get("config_file"):
            try:
                config_raw = json_input(cleaned["config_file"].read())
            except ValidationError as error:
                self.add_error("config_file", error)
                return cleaned
        original = upload.read() if hasattr(upload, "read") else read_file_bytes(upload)
        if hasattr(upload, "seek"):
            upload.seek(0)
        try:
            self.checked = round_data_check(original=original, config_raw=config_raw)
        except scoring.ConfigError as error:
            self.add_error("config", error.render(get_language()))
        except scoring.ScoringError as error:
            self.add_error("original_file", error.render(get_language()))
        else:
            cleaned["config"] = self.checked.config
        return cleaned


@admin.register(Round)
class RoundAdmin(CompetitionScopedAdmin, admin.ModelAdmin):
    form = RoundAdminForm
    inlines = [PhaseInline]
    list_display = (
        "name",
        "competition",
        "kind_label",
        "data_mode",
        "original_rows",
        "frozen_at",
        "results_published",
    )
    list_filter = (scoped_filter("competition"), "kind", "data_mode", "results_published")
    # The kind is fixed: rounds added here are of the first kind (this form is its form);
    # the other kinds' rounds are created from their console pages (pwscup/kinds/).
    # Publishing tells the participants: only the actions below (the services) change it.
    readonly_fields = (
        "kind_label",
        "original_rows",
        "original_sha256",
        "frozen_at",
        "results_published",
        "operations",
    )
    prepopulated_fields = {"slug": ("name",)}
    actions = ["draw_samples", "freeze", "rescore_all", "publish_results", "unpublish_results"]
    fieldsets = (
        (None, {"fields": ("competition", "kind_label", "name", "slug", "order", "data_mode")}),
        (
            _("Data"),
            {
                "fields": (
                    "original_file",
                    "original_rows",
                    "original_sha256",
                    "config_file",
                    "config",
                )
            },
        ),
        (_("Per-team mode"), {"fields": ("sample_size", "decoy_count")}),
        (
            _("Ranking"),
            {"fields": ("utility_gates", "tie_break_metric", "ranking_rule", "selection_rule")},
        ),
        (
            _("Attack phase and results"),
            {
                "fields": (
                    "timezone",
                    "auto_freeze",
                    "frozen_at",
                    "attack_visibility",
                    "results_published",
                    "operations",
                )
            },
        ),
    )

    @admin.display(description=_("kind"), ordering="kind")
    def kind_label(self, round_: Round | None) -> str:
        key = (
            round_.kind
            if round_ is not None and round_.pk
            else Round._meta.get_field("kind").default
        )
        try:
            return str(get_kind(key).label)
        except ValidationError:
            return key  # an app that registered it is no longer installed

    def get_urls(self):
        return [
            path(
                "<path:object_id>/original/",
                self.admin_site.admin_view(self.original_view),
                name="competitions_round_original",
            ),
            *super().get_urls(),
        ]

    def original_view(self, request, object_id):
        """The round's original table, for the organizers of its competition only."""
        round_ = self.get_object(request, object_id)
        if not self.has_view_or_change_permission(request, round_):
            raise PermissionDenied
        return private_file_response(round_.original_file, f"{round_.slug}_original.csv")

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is not None and "original_file" in form.base_fields:
            form.base_fields["original_file"].widget = PrivateFileWidget(
                download_url=reverse("admin:competitions_round_original", args=[obj.pk])
            )
        return form

    def save_model(self, request, obj, form, change):
        checked = getattr(form, "checked", None)
        if checked is not None:
            round_record_data(round=obj, checked=checked)
            # The upload itself is kept only when it was not UTF-8: original_file is the
            # UTF-8 copy (round_original_store).
            upload = form.cleaned_data["original_file"]
            round_original_store(round=obj, csv=checked.csv, filename=upload.name)
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        from pwscup.submissions.services import round_assign_samples

        created = round_assign_samples(round=form.instance)
        if created:
            messages.info(request, _("Drew samples for %(n)d teams.") % {"n": len(created)})

    @admin.action(
        description=_("Draw the per-team samples (teams without one)"), permissions=["change"]
    )
    def draw_samples(self, request, queryset):
        from pwscup.submissions.services import round_assign_samples

        total = sum(len(round_assign_samples(round=r)) for r in queryset)
        self.message_user(request, _("Drew %(n)d samples.") % {"n": total})

    @admin.action(
        description=_("Freeze now: publish each team's final anonymization as a target"),
        permissions=["change"],
    )
    def freeze(self, request, queryset):
        from pwscup.submissions.services import round_freeze_request

        self._request_operations(request, queryset, round_freeze_request)

    @admin.action(
        description=_("Rescore everything with the current scorer"), permissions=["change"]
    )
    def rescore_all(self, request, queryset):
        from pwscup.submissions.services import round_rescore_request

        self._request_operations(request, queryset, round_rescore_request)

    @admin.action(
        description=_("Publish the results (matrix and final ranking)"), permissions=["change"]
    )
    def publish_results(self, request, queryset):
        from pwscup.submissions.services import round_publish_request

        self._request_operations(request, queryset, round_publish_request)

    def _request_operations(self, request, queryset, request_operation) -> None:
        """Each round's operation runs in the background: say so, with a link to its progress."""
        from pwscup.submissions.operation_selectors import operation_request_text

        for round_ in queryset:
            operation = request_operation(round=round_, requested_by=request.user)
            progress_url = reverse("admin:competitions_round_change", args=[round_.pk])
            self.message_user(
                request,
                format_html(
                    '{} <a href="{}#operations">{}</a>',
                    operation_request_text(operation=operation),
                    progress_url,
                    _("Follow its progress"),
                ),
            )

    @admin.display(description=_("Background operations"))
    def operations(self, obj):
        from pwscup.submissions.operation_selectors import round_operations_summary

        if obj is None or obj.pk is None:
            return "—"
        return render_to_string(
            "submissions/_operations.html", {"summary": round_operations_summary(round=obj)}
        )

    @admin.action(description=_("Hide the results again"), permissions=["change"])
    def unpublish_results(self, request, queryset):
        from pwscup.submissions.services import round_results_set

        for round_ in queryset:
            round_results_set(round=round_, published=False)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("name", "slug", "order", "data_mode", "frozen_at", "results_published")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class CompetitionAdminForm(forms.ModelForm):
    def clean(self):
        cleaned = super().clean()
        if "slug" in cleaned:
            try:
                slug_check(slug=cleaned["slug"], current=self.instance)
            except ValidationError as error:
                self.add_error(None, error)
        return cleaned


@admin.register(Competition)
class CompetitionAdmin(CompetitionScopedAdmin, admin.ModelAdmin):
    form = CompetitionAdminForm
    competition_lookup = "pk"
    list_display = (
        "name",
        "slug",
        "is_listed",
        "max_team_size",
        "registration_locked",
        "created_at",
    )
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organizers",)
    inlines = [RoundInline]

    def get_readonly_fields(self, request, obj=None):
        # Choosing organizers means listing every account: that is the superusers' job.
        readonly = tuple(super().get_readonly_fields(request, obj))
        return readonly if request.user.is_superuser else (*readonly, "organizers")

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not change and not request.user.is_superuser:
            # Whoever creates a competition organizes it (else it would vanish from their admin).
            competition_organizers_add(competition=form.instance, users=[request.user])


admin.site.site_header = _("PWSCup platform — organizer")
admin.site.site_title = _("PWSCup organizer")
