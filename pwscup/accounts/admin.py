from django.contrib import admin

from pwscup.accounts.models import Membership, Team


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ("user",)


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "competition")
    list_filter = ("competition",)
    inlines = [MembershipInline]

    def save_formset(self, request, form, formset, change):
        # The membership's competition is the team's: the database enforces one team per competition.
        for membership in formset.save(commit=False):
            membership.competition = form.instance.competition
            membership.save()
        for removed in formset.deleted_objects:
            removed.delete()

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        from pwscup.submissions.services import round_assign_samples

        for round_ in form.instance.competition.rounds.all():
            round_assign_samples(round=round_)
