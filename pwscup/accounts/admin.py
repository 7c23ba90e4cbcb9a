from django.contrib import admin
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Membership, Team
from pwscup.competitions.admin_scope import CompetitionScopedAdmin, UsernameField, scoped_filter
from pwscup.kinds import kind_of


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":
            return UsernameField(
                get_user_model().objects.filter(is_active=True),
                label=_("username"),
                error_messages={"invalid_choice": _("No account has the username %(value)s.")},
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Team)
class TeamAdmin(CompetitionScopedAdmin, admin.ModelAdmin):
    list_display = ("name", "slug", "competition", "captain")
    # Choosing a captain from every account would list them all to any organizer.
    readonly_fields = ("captain", "invitation_code")
    list_filter = (scoped_filter("competition"),)
    inlines = [MembershipInline]

    def get_readonly_fields(self, request, obj=None):
        # A rename goes through the console's service (Teams and participants → Rename),
        # which records it and refreshes the cached rankings that show the name.
        readonly = tuple(super().get_readonly_fields(request, obj))
        return readonly if obj is None else (*readonly, "name")

    def save_formset(self, request, form, formset, change):
        # The membership's competition is the team's: the database enforces one team per competition.
        for membership in formset.save(commit=False):
            membership.competition = form.instance.competition
            membership.save()
        for removed in formset.deleted_objects:
            removed.delete()

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        for round_ in form.instance.competition.rounds.all():
            kind_of(round_).teams_changed(round_)
