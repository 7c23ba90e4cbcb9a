"""The audit log and the disqualifications in the admin: read-only, for superusers."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import TeamDisqualification
from pwscup.competitions.models import AuditEntry


class ReadOnlyAdmin(admin.ModelAdmin):
    """Written by the console's services only; the admin shows them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "competition", "round", "user", "action", "details")
    list_filter = ("action", "competition")
    date_hierarchy = "created_at"

    @admin.display(description=_("Details"))
    def details(self, entry: AuditEntry) -> str:
        return entry.detail_text


@admin.register(TeamDisqualification)
class TeamDisqualificationAdmin(ReadOnlyAdmin):
    list_display = ("team", "reason", "decided_by", "decided_at")
