"""Personal API tokens in the admin: superusers only (an organizer has no business with other
accounts' keys); they can see them and revoke a leaked one, never read or make a secret."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from pwscup.api.models import ApiToken
from pwscup.api.services import api_token_revoke
from pwscup.core.admin_base import ReadOnlyAdminMixin


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "user__username", "prefix")
    readonly_fields = list_display
    fields = list_display
    actions = ["revoke"]

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request, queryset):
        revoked = 0
        for token in queryset.filter(revoked_at__isnull=True).select_related("user"):
            api_token_revoke(user=token.user, token_id=token.pk)
            revoked += 1
        messages.success(request, _("%(count)s tokens revoked.") % {"count": revoked})
