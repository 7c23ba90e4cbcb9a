"""The admin page of a kind's kept upload (``KeptUpload``), made by the core from what the
kind lists: read-only (the platform makes the rows, its services change them), scoped to the
competitions the user organizes (``ReadOnlyScopedAdmin``), the job's message in the reader's
language (``JobFailureAdmin``), filtered by status and by the user's teams. A kind's
``admin.py`` calls ``kept_upload_admin`` once per upload model and writes admin code only for
its own settings and actions."""

from django.contrib import admin

from pwscup.competitions.admin_scope import ReadOnlyScopedAdmin, scoped_filter
from pwscup.core.admin_base import KEPT_UPLOAD_FIELDS, upload_list_display
from pwscup.submissions.admin_fields import JobFailureAdmin


class KeptUploadAdmin(JobFailureAdmin, ReadOnlyScopedAdmin):
    """A kept upload's page; ``deletable = False`` refuses a deletion even to a superuser."""

    deletable: bool = True

    def has_delete_permission(self, request, obj=None) -> bool:
        return self.deletable and super().has_delete_permission(request, obj)


def kept_upload_admin(
    model,
    *,
    columns: tuple = (),
    where: tuple,
    results: tuple = (),
    competition_lookup: str = "team__competition",
    filters: tuple = (),
    deletable: bool = True,
    site=admin.site,
) -> type[KeptUploadAdmin]:
    """Register the admin page of ``model``, a kind's kept upload. Its change list has every
    kind's columns in one order (``upload_list_display``): the team, the status and the
    time, then the kind's ``columns``, then the round's name when ``competition_lookup``,
    the path from a row to its competition, goes through the round
    (``"sequential__round__competition"``; the default is the team's, which every kept
    upload has). One row's page shows ``where`` (its part of
    the round, its team, its number...), the file and its job as every kept upload has them
    (``pwscup.core.admin_base.KEPT_UPLOAD_FIELDS``), then the kind's ``results``: a field
    left out (a secret) is never shown. ``filters``: the list's filters between the status
    and the team. Returns the
    ``ModelAdmin`` class."""
    through_round = competition_lookup.endswith("__round__competition")
    round_lookup = competition_lookup.removesuffix("__competition") if through_round else None
    page = type(
        f"{model.__name__}Admin",
        (KeptUploadAdmin,),
        {
            "competition_lookup": competition_lookup,
            "list_display": upload_list_display(*columns, round_lookup=round_lookup),
            "list_select_related": ("team", *([round_lookup] if round_lookup else [])),
            "list_filter": ("status", *filters, scoped_filter("team")),
            "fields": (*where, *KEPT_UPLOAD_FIELDS, *results),
            "deletable": deletable,
        },
    )
    site.register(model, page)
    return page
