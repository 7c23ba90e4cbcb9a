"""What several apps' admin pages share."""

# A kept upload (a program version, a team's upload): its file and its job's state, as the
# kinds' admin pages show them.
KEPT_UPLOAD_FIELDS = (
    "original_filename",
    "sha256",
    "size",
    "uploaded_by",
    "created_at",
    "status",
    "failure",
)


class ReadOnlyAdminMixin:
    """An admin page (or an inline) of rows the platform's services write: shown here,
    never added, changed nor deleted. Listed before the admin class it restricts."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
