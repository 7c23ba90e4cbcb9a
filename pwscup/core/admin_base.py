"""What several apps' admin pages share."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

# A kept upload (a program version, a team's upload): its file and its job's state, as the
# kinds' admin pages show them (``uploader`` and ``failure``: the page's ``account_display``
# and ``JobFailureAdmin.failure``).
KEPT_UPLOAD_FIELDS = (
    "original_filename",
    "sha256",
    "size",
    "uploader",
    "created_at",
    "status",
    "failure",
)


def account_display(field: str, description):
    """A read-only field of an admin page naming the account in the row's ``field`` (an
    ``account_reference``) as text: Django links a read-only foreign key to the account's
    admin page, which only a superuser may open (an organizer got a 403). Set as a class
    attribute of the ``ModelAdmin`` and named in its fields."""

    @admin.display(description=description, ordering=field)
    def show(model_admin, obj) -> str | None:
        account = getattr(obj, field)
        return None if account is None else str(account)

    return show


def round_name_column(lookup: str):
    """A change list's column naming the row's round by its name only (``str`` of a round
    also names its competition, and the list is already that of the user's competitions):
    ``lookup`` is the path from a row to its round, ``"sequential__round"``."""

    @admin.display(description=_("round"), ordering=f"{lookup}__name")
    def round_name(obj) -> str:
        value = obj
        for part in lookup.split("__"):
            value = getattr(value, part)
        return value.name

    return round_name


def upload_list_display(*columns, round_lookup: str | None = None) -> tuple:
    """The change list's columns of a team's uploads, every kind's in one order: what a
    phone shows without scrolling first, the team, the status and the time; then the
    kind's own ``columns`` (its number, step, target, scores...); the round last, by its
    name only (``round_name_column(round_lookup)``), when the list mixes rounds."""
    where = (round_name_column(round_lookup),) if round_lookup else ()
    return ("team", "status", "created_at", *columns, *where)


class ReadOnlyAdminMixin:
    """An admin page (or an inline) of rows the platform's services write: shown here,
    never added, changed nor deleted. Listed before the admin class it restricts."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
