"""The presentations in the admin: read-only (windows are scheduled and published from the
console, slides uploaded by teams; the files are served by the presentations' pages, with
their access checks, never by a link here)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import CompetitionScopedAdmin, scoped_filter
from pwscup.core.admin_base import ReadOnlyAdminMixin, account_display
from pwscup.presentations.models import PresentationWindow, Slides
from pwscup.presentations.services import WINDOW_FIELDS


@admin.register(PresentationWindow)
class PresentationWindowAdmin(CompetitionScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("__str__", "round", "opens_at", "closes_at", "published_at")
    list_filter = (scoped_filter("competition"),)
    fields = ("competition", "round", *WINDOW_FIELDS, "published_at", "publisher")
    publisher = account_display("published_by", _("published by"))


@admin.register(Slides)
class SlidesAdmin(CompetitionScopedAdmin, ReadOnlyAdminMixin, admin.ModelAdmin):
    competition_lookup = "window__competition"
    list_display = ("__str__", "window", "team", "number", "status", "size", "created_at")
    list_filter = ("status",)
    fields = (
        "window",
        "team",
        "uploader",
        "number",
        "original_filename",
        "sha256",
        "size",
        "status",
        "message",
        "anonymization_policy",
        "attack_policy",
        "created_at",
        "finished_at",
    )
    uploader = account_display("uploaded_by", _("uploaded by"))
