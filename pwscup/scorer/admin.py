"""The admin of scorer rounds: read-only (the platform makes every row; the console's forms
and actions change them through the services), scoped to the competitions the user
organizes. A program's build log and a run's last lines are the organizer's to read; a
pack's files are listed by name, never opened here."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import ReadOnlyScopedAdmin
from pwscup.core.admin_base import KEPT_UPLOAD_FIELDS, account_display
from pwscup.scorer.models import (
    Attack,
    DataPack,
    ProgramBuild,
    ProgramVersion,
    Release,
    ScorerRound,
    SlotSalt,
    Target,
    TeamSlot,
)
from pwscup.submissions.admin_fields import TWO_SIDED_ROW_FIELDS, JobFailureAdmin
from pwscup.submissions.upload_admin import kept_upload_admin

SCORED_FIELDS = ("scores", "program", "program_ms", "elapsed_ms", "tail")


class ReadOnlyAdmin(ReadOnlyScopedAdmin):
    """Read-only, and no row deleted here either."""

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ScorerRowAdmin(ReadOnlyAdmin):
    """A row of a scorer round's (its ``scorer``)."""

    competition_lookup = "scorer__round__competition"


@admin.register(ScorerRound)
class ScorerRoundAdmin(ReadOnlyAdmin):
    competition_lookup = "round__competition"
    list_display = ("round", "frozen_at", "results_published")
    fields = (*TWO_SIDED_ROW_FIELDS, "hidden_awaited")


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
class ProgramVersionAdmin(JobFailureAdmin, ScorerRowAdmin):
    list_display = ("scorer", "version", "status", "uploaded_by", "created_at")
    list_filter = ("status",)
    fields = ("scorer", "version", *KEPT_UPLOAD_FIELDS, "metadata", "build_log")
    inlines = (ProgramBuildInline,)


@admin.register(DataPack)
class DataPackAdmin(ScorerRowAdmin):
    list_display = ("scorer", "role", "original_filename", "size", "created_at")
    list_filter = ("role",)
    fields = (
        "scorer",
        "role",
        "original_filename",
        "sha256",
        "size",
        "member_count",
        "uploader",
        "created_at",
    )
    uploader = account_display("uploaded_by", _("uploaded by"))

    @admin.display(description=_("members"))
    def member_count(self, obj) -> int:
        return len(obj.members or [])


@admin.register(TeamSlot)
class TeamSlotAdmin(ScorerRowAdmin):
    list_display = ("scorer", "team", "data_folder")
    fields = ("scorer", "team", "slot", "data_folder")

    @admin.display(description=_("folder"))
    def data_folder(self, obj) -> str:
        return obj.folder


@admin.register(SlotSalt)
class SlotSaltAdmin(ScorerRowAdmin):
    """The commitment and its steps; the salt itself is on the round's console page."""

    list_display = ("scorer", "commitment", "committed_at", "assigned_at", "revealed_at")
    fields = ("scorer", "commitment", "committed_at", "assigned_at", "assigned", "revealed_at")


kept_upload_admin(
    Release,
    competition_lookup="scorer__round__competition",
    columns=("number", "selected"),
    where=("scorer", "team", "number"),
    results=(*SCORED_FIELDS, "public_names", "selected"),
    deletable=False,
)


@admin.register(Target)
class TargetAdmin(ScorerRowAdmin):
    list_display = ("scorer", "team", "release", "created_at")
    fields = ("scorer", "team", "release", "created_at")


kept_upload_admin(
    Attack,
    competition_lookup="scorer__round__competition",
    columns=("target", "number", "selected"),
    where=("scorer", "target", "team", "number"),
    results=(*SCORED_FIELDS, "targets", "selected"),
    deletable=False,
)
