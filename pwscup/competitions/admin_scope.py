"""The organizer admin, cut down to the competitions the user organizes.

Every ``ModelAdmin`` of competition data mixes in ``CompetitionScopedAdmin`` and names the
path from its model to the competition. The rule itself ("which competitions may this user
organize") is ``organized_competitions``; the admin applies it to the change list, to every
object page (an object of another competition is a 404, as if it did not exist), to the
admin actions (they act on the change list's queryset), to foreign-key choices and to the
list filters.
"""

from django.contrib import admin
from django.contrib.admin.widgets import AdminFileWidget
from django.http import Http404
from django.utils.html import format_html

from pwscup.competitions.selectors import organized_competitions


class CompetitionScopedAdmin:
    """Mixin for a ``ModelAdmin``: only objects of competitions the user organizes."""

    #: Lookup from the model to its competition ("pk" for the competition itself).
    competition_lookup: str = "competition"

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .filter(**{f"{self.competition_lookup}__in": organized_competitions(user=request.user)})
        )

    def get_object(self, request, object_id, from_field=None):
        # Django's admin redirects to the index for a missing object; another competition's
        # object answers 404 instead, exactly like one that does not exist.
        found = super().get_object(request, object_id, from_field)
        if found is None:
            raise Http404
        return found

    def _in_scope(self, request, obj) -> bool:
        return obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self._in_scope(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._in_scope(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._in_scope(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        # The choices of a foreign key are what the related model's admin shows this user.
        related = db_field.related_model
        related_admin = (
            self.admin_site.get_model_admin(related)
            if self.admin_site.is_registered(related)
            else None
        )
        if isinstance(related_admin, CompetitionScopedAdmin) and "queryset" not in kwargs:
            kwargs["queryset"] = related_admin.get_queryset(request)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


def scoped_filter(field: str) -> tuple:
    """A list filter offering only the values present in the user's change list."""
    return (field, admin.RelatedOnlyFieldListFilter)


class NoAddAdmin:
    """Objects made by the platform (uploads, targets, samples), never typed in by hand."""

    def has_add_permission(self, request, obj=None):
        return False


class RoundRowAdmin:
    """A round, or a kind's part of one (its settings row): deleted on the round's console
    page only, whose service (``round_delete``) refuses a round teams uploaded to, one whose
    results were published and one an award names, records the deletion in the audit log and
    removes the round's files. The admin's delete would skip all three, and a part deleted
    alone leaves a round its kind cannot read: no admin page deletes either."""

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyScopedAdmin(CompetitionScopedAdmin, NoAddAdmin, admin.ModelAdmin):
    """The scoped admin of rows only the platform makes and changes (through its services):
    every field it shows (``fields``) read-only, nothing added nor changed here."""

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class _FileLink:
    """What the file widget's template shows: ``value.url`` and ``value``."""

    def __init__(self, url: str, name: str):
        self.url = url
        self.name = name

    def __str__(self) -> str:
        return self.name


class PrivateFileWidget(AdminFileWidget):
    """A file input whose "Currently:" link is a permission-checked download.

    Private files have no MEDIA_URL route (nothing under MEDIA_ROOT is served as is), so
    the default link to ``field.url`` could only be a 404.
    """

    def __init__(self, *, download_url: str, attrs=None):
        super().__init__(attrs)
        self.download_url = download_url

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        if context["widget"]["is_initial"]:
            file_name = str(value.name).rsplit("/", 1)[-1]
            context["widget"]["value"] = _FileLink(self.download_url, file_name)
        return context


def private_file_link(field, url: str | None = None):
    """A private file's name for a read-only admin field: linked only to a checked download.

    Django would link a read-only file field to ``field.url`` under MEDIA_URL, which is
    never served.
    """
    if not field:
        return "-"
    name = str(field.name).rsplit("/", 1)[-1]
    return format_html('<a href="{}">{}</a>', url, name) if url else name
