"""The admin of what teams upload and what the platform derives from it: anonymizations,
attacks, published targets and per-team samples (read-only: the services change them)."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import (
    CompetitionScopedAdmin,
    NoAddAdmin,
    private_file_link,
    scoped_filter,
)
from pwscup.core.admin_base import upload_list_display
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    Target,
    TeamDataset,
)
from pwscup.pwscup2015.selectors import older_scorer_version
from pwscup.pwscup2015.services.anonymization import anonymizations_rescore
from pwscup.submissions.admin_fields import JobFailureAdmin
from pwscup.submissions.messages import job_message_text

VOID_FIELDS = ("voided_at", "voided_by", "void_reason", "withdrawn")
READONLY = (
    "uploaded_file",
    "original_filename",
    "sha256",
    "size",
    "status",
    "failure",
    "attempts",
    "scorer_version",
    "created_at",
    "started_at",
    "finished_at",
    "uploader",
    # Written by the voids' service only (the console's Void or restore uploads page).
    *VOID_FIELDS,
)


@admin.display(description=_("scorer"), ordering="scorer_version")
def scorer(obj):
    """The scorer version of the scores, flagged when an older scorer computed them."""
    older = older_scorer_version(obj)
    if not older:
        return obj.scorer_version
    return format_html(
        "<strong>{}</strong>", gettext("scored with %(version)s — rescore") % {"version": older}
    )


class UploadAdmin(JobFailureAdmin, CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
    competition_lookup = "team__competition"
    #: The view that serves the uploaded file to its team and the organizers.
    file_view: str
    # The file is shown read-only by ``uploaded_file``, the message by ``failure``.
    exclude = ("file", "message", "message_code", "message_params")

    @admin.display(description=_("file"))
    def uploaded_file(self, obj):
        return private_file_link(obj.file, reverse(self.file_view, args=[obj.pk]))


@admin.register(AnonymizationSubmission)
class AnonymizationSubmissionAdmin(UploadAdmin):
    file_view = "submission_file"
    list_display = upload_list_display("pk", "is_selected", scorer, round_lookup="phase__round")
    list_select_related = ("team", "phase__round")
    list_filter = ("status", scoped_filter("phase__round"), scoped_filter("team"))
    readonly_fields = READONLY + ("scores", "phase", "team")
    actions = ["rescore"]

    @admin.action(description=_("Rescore the selected submissions"), permissions=["change"])
    def rescore(self, request, queryset):
        anonymizations_rescore(queryset=queryset)


@admin.register(AttackSubmission)
class AttackSubmissionAdmin(UploadAdmin):
    file_view = "attack_file"
    list_display = upload_list_display("pk", "target", "rate", scorer, round_lookup="phase__round")
    list_select_related = ("team", "target", "phase__round")
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
    list_display = (
        "team",
        "round",
        "version",
        "rows",
        "builtin_status",
        "published_at",
        "builtin_scorer",
    )
    list_select_related = ("team", "round", "builtin")
    list_filter = (scoped_filter("round"),)
    # Shown by the methods below.
    exclude = ("published_file", "truth_file", "candidate_file")
    readonly_fields = (
        "submission",
        "version",
        "published",
        "truth",
        "candidates",
        "rows",
        "reference_rows",
        "builtin_status",
        "builtin_rates",
        "builtin_failure",
        "builtin_scorer",
    )

    @admin.display(description=_("built-in attacks"), ordering="builtin__status")
    def builtin_status(self, obj):
        builtin = getattr(obj, "builtin", None)
        return builtin.status_label if builtin else "—"

    @admin.display(description=_("built-in attack rates"))
    def builtin_rates(self, obj):
        builtin = getattr(obj, "builtin", None)
        return builtin.rates if builtin else {}

    @admin.display(description=_("built-in attacks message"))
    def builtin_failure(self, obj):
        builtin = getattr(obj, "builtin", None)
        return job_message_text(builtin) if builtin else ""

    @admin.display(description=_("scorer"), ordering="builtin__scorer_version")
    def builtin_scorer(self, obj):
        builtin = getattr(obj, "builtin", None)
        return scorer(builtin) if builtin else ""

    def _target_url(self, obj, view: str) -> str:
        return reverse(view, args=[obj.round.competition.slug, obj.round.slug, obj.team.slug])

    @admin.display(description=_("published target"))
    def published(self, obj):
        return private_file_link(obj.published_file, self._target_url(obj, "target_download"))

    @admin.display(description=_("truth (secret)"))
    def truth(self, obj):
        return private_file_link(obj.truth_file)

    @admin.display(description=_("candidate table"))
    def candidates(self, obj):
        url = self._target_url(obj, "candidate_download") if obj.candidate_file else None
        return private_file_link(obj.candidate_file, url)


@admin.register(TeamDataset)
class TeamDatasetAdmin(CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
    competition_lookup = "round__competition"
    list_display = ("team", "round", "rows", "created_at")
    exclude = ("file",)
    readonly_fields = ("sample_index", "sample_file", "rows")

    @admin.display(description=_("file"))
    def sample_file(self, obj):
        return private_file_link(obj.file)
