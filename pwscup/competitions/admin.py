"""Organizer screens: competitions, and (registered by ``admin_rounds``) rounds and their
phases, the same for every kind."""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from pwscup.competitions import admin_rounds  # noqa: F401  (registers the rounds' admin)
from pwscup.competitions.addresses import slug_check
from pwscup.competitions.admin_scope import CompetitionScopedAdmin
from pwscup.competitions.models import Competition, Round
from pwscup.competitions.services import competition_organizers_add


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("name", "slug", "order", "kind")
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
