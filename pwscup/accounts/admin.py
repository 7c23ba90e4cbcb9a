from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Membership, Team
from pwscup.accounts.services import team_name_check
from pwscup.competitions.admin_scope import CompetitionScopedAdmin, scoped_filter
from pwscup.core.admin_base import ReadOnlyAdminMixin, account_display
from pwscup.core.errors import Refused
from pwscup.kinds import kind_of


class MembershipInline(ReadOnlyAdminMixin, admin.TabularInline):
    """The members, read-only. A member joins with the team's invitation code (registration
    open, the team not full, one team per account: ``team_join``), and leaves through the
    console's *Teams and participants* page (``console_member_remove``: the captaincy
    passes on and the audit log records it); a row edited here would skip both."""

    model = Membership
    # Columns named by the site's own words (the model's fields have no translated names).
    fields = ("member", "joined")
    readonly_fields = ("member", "joined")
    extra = 0

    @admin.display(description=_("Account"))
    def member(self, membership):
        return membership.user

    @admin.display(description=_("Joined"))
    def joined(self, membership):
        return membership.joined_at


class TeamAdminForm(forms.ModelForm):
    """A new team's name meets the same rule as on the site (``team_name_check``)."""

    class Meta:
        model = Team
        fields = ("competition", "name", "slug")  # the admin's change form decides the rest

    def clean(self):
        cleaned = super().clean()
        competition, name = cleaned.get("competition"), cleaned.get("name")
        if competition is not None and name is not None and "name" in self.fields:
            try:
                cleaned["name"] = team_name_check(competition=competition, name=name)
            except Refused as refusal:
                self.add_error("name", refusal.message)
        return cleaned


@admin.register(Team)
class TeamAdmin(CompetitionScopedAdmin, admin.ModelAdmin):
    form = TeamAdminForm
    list_display = ("name", "slug", "competition", "captain")
    # Choosing a captain from every account would list them all to any organizer.
    readonly_fields = ("captain_account", "invitation_code", "members_page")
    captain_account = account_display("captain", _("captain"))
    list_filter = (scoped_filter("competition"),)
    inlines = [MembershipInline]

    @admin.display(description=_("members"))
    def members_page(self, obj):
        if obj is None or obj.pk is None:
            return "—"
        return format_html(
            '<a href="{}" data-testid="console-teams">{}</a>',
            reverse("console:teams", args=[obj.competition.slug]),
            _("Remove a member on the console’s Teams and participants page"),
        )

    def get_readonly_fields(self, request, obj=None):
        # A rename goes through the console's service (Teams and participants → Rename),
        # which records it and refreshes the cached rankings that show the name.
        readonly = tuple(super().get_readonly_fields(request, obj))
        return readonly if obj is None else (*readonly, "name")

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        for round_ in form.instance.competition.rounds.all():
            kind_of(round_).teams_changed(round_)
