from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.core.admin_scope import CompetitionScopedAdmin, NoAddAdmin, scoped_filter
from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission, Target, TeamDataset

READONLY = (
    "file",
    "original_filename",
    "sha256",
    "size",
    "status",
    "message",
    "attempts",
    "scorer_version",
    "created_at",
    "started_at",
    "finished_at",
    "submitted_by",
)


@admin.register(AnonymizationSubmission)
class AnonymizationSubmissionAdmin(CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
    competition_lookup = "team__competition"
    list_display = ("pk", "team", "phase", "status", "is_selected", "created_at", "scorer_version")
    list_filter = ("status", scoped_filter("phase__round"), scoped_filter("team"))
    readonly_fields = READONLY + ("scores", "phase", "team")
    actions = ["rescore"]

    @admin.action(description=_("Rescore the selected submissions"), permissions=["change"])
    def rescore(self, request, queryset):
        from pwscup.submissions.services.anonymization import anonymizations_rescore

        anonymizations_rescore(queryset=queryset)


@admin.register(AttackSubmission)
class AttackSubmissionAdmin(CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
    competition_lookup = "team__competition"
    list_display = ("pk", "team", "target", "status", "rate", "created_at")
    list_filter = ("status", scoped_filter("phase__round"), scoped_filter("team"))
    readonly_fields = READONLY + (
        "rate",
        "correct",
        "rows",
        "target",
        "target_version",
        "phase",
        "team",
    )


@admin.register(Target)
class TargetAdmin(CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
    competition_lookup = "round__competition"
    list_display = ("team", "round", "version", "rows", "builtin_status", "published_at")
    list_filter = (scoped_filter("round"),)
    readonly_fields = (
        "submission",
        "version",
        "published_file",
        "truth_file",
        "candidate_file",
        "rows",
        "reference_rows",
        "builtin_status",
        "builtin_rates",
        "builtin_message",
        "scorer_version",
    )


@admin.register(TeamDataset)
class TeamDatasetAdmin(CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
    competition_lookup = "round__competition"
    list_display = ("team", "round", "rows", "created_at")
    readonly_fields = ("sample_index", "file", "rows")
