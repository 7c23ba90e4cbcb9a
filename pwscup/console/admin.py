"""The audit log and the disqualifications in the admin: read-only, for superusers."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import TeamDisqualification
from pwscup.competitions.models import AuditEntry
from pwscup.core.admin_base import ReadOnlyAdminMixin


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "competition", "round", "user", "action", "details")
    list_filter = ("action", "competition")
    date_hierarchy = "created_at"

    @admin.display(description=_("Details"))
    def details(self, entry: AuditEntry) -> str:
        return entry.detail_text


@admin.register(TeamDisqualification)
class TeamDisqualificationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("team", "reason", "decided_by", "decided_at")
