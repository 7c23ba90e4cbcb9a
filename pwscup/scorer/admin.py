"""The admin of scorer rounds: read-only (the platform makes every row; the console's forms
and actions change them through the services), scoped to the competitions the user
organizes. A program's build log and a run's last lines are the organizer's to read; a
pack's files are listed by name, never opened here."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import CompetitionScopedAdmin, NoAddAdmin, scoped_filter
from pwscup.scorer.models import (
    Attack,
    DataPack,
    ProgramBuild,
    ProgramVersion,
    Release,
    ScorerRound,
    Target,
    TeamSlot,
)
from pwscup.submissions.messages import job_message_text

SCORED_FIELDS = (
    "team",
    "number",
    "original_filename",
    "sha256",
    "size",
    "uploaded_by",
    "created_at",
    "status",
    "failure",
    "scores",
    "program",
    "program_ms",
    "elapsed_ms",
    "tail",
)


class ReadOnlyAdmin(CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class FailureMixin:
    @admin.display(description=_("message"))
    def failure(self, obj) -> str:
        return job_message_text(obj)


@admin.register(ScorerRound)
class ScorerRoundAdmin(ReadOnlyAdmin):
    competition_lookup = "round__competition"
    list_display = ("round", "frozen_at", "results_published")
    fields = ("round", "frozen_at", "results_published", "hidden_awaited")
    readonly_fields = fields


class ProgramBuildInline(admin.TabularInline):
    """Each worker host's build of the version (its state and log), read-only."""

    model = ProgramBuild
    extra = 0
    fields = ("host", "state", "started_at", "finished_at", "log")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ProgramVersion)
class ProgramVersionAdmin(FailureMixin, ReadOnlyAdmin):
    competition_lookup = "scorer__round__competition"
    list_display = ("scorer", "version", "status", "uploaded_by", "created_at")
    list_filter = ("status",)
    fields = (
        "scorer",
        "version",
        "original_filename",
        "sha256",
        "size",
        "uploaded_by",
        "created_at",
        "status",
        "failure",
        "metadata",
        "build_log",
    )
    readonly_fields = fields
    inlines = (ProgramBuildInline,)


@admin.register(DataPack)
class DataPackAdmin(ReadOnlyAdmin):
    competition_lookup = "scorer__round__competition"
    list_display = ("scorer", "role", "original_filename", "size", "created_at")
    list_filter = ("role",)
    fields = (
        "scorer",
        "role",
        "original_filename",
        "sha256",
        "size",
        "member_count",
        "uploaded_by",
        "created_at",
    )
    readonly_fields = fields

    @admin.display(description=_("members"))
    def member_count(self, obj) -> int:
        return len(obj.members or [])


@admin.register(TeamSlot)
class TeamSlotAdmin(ReadOnlyAdmin):
    competition_lookup = "scorer__round__competition"
    list_display = ("scorer", "team", "folder")
    fields = ("scorer", "team", "slot", "folder")
    readonly_fields = fields


@admin.register(Release)
class ReleaseAdmin(FailureMixin, ReadOnlyAdmin):
    competition_lookup = "scorer__round__competition"
    list_display = ("scorer", "team", "number", "status", "selected", "created_at")
    list_filter = ("status", scoped_filter("team"))
    fields = ("scorer", *SCORED_FIELDS, "public_names", "selected")
    readonly_fields = fields


@admin.register(Target)
class TargetAdmin(ReadOnlyAdmin):
    competition_lookup = "scorer__round__competition"
    list_display = ("scorer", "team", "release", "created_at")
    fields = ("scorer", "team", "release", "created_at")
    readonly_fields = fields


@admin.register(Attack)
class AttackAdmin(FailureMixin, ReadOnlyAdmin):
    competition_lookup = "scorer__round__competition"
    list_display = ("scorer", "team", "target", "number", "status", "created_at")
    list_filter = ("status", scoped_filter("team"))
    fields = ("scorer", "target", *SCORED_FIELDS, "targets")
    readonly_fields = fields
