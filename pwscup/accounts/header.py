"""The header of every page: the unread-notification badge, the console link and, for
superusers only, the Django admin link (an organizer's page is the console; staff
organizers can still open ``/admin/``, it is just not offered as their page)."""

from __future__ import annotations

from dataclasses import dataclass

from pwscup.competitions.selectors import may_create_competitions, organized_competitions
from pwscup.notifications.models import Notification


@dataclass(frozen=True)
class Header:
    console: bool  # the user organizes a competition or may create one (may_use_console)
    unread: int  # notifications not read yet
    admin: bool = False  # a superuser: the header also links to the Django admin


def header_state(*, user) -> Header:
    """What the header shows ``user``, read through the ORM and Django's permission check
    (``has_perm``: ModelBackend's rule, with its per-request cache of the permissions)."""
    if not user.is_authenticated:
        return Header(console=False, unread=0)
    console = may_create_competitions(user=user) or organized_competitions(user=user).exists()
    unread = Notification.objects.filter(user=user, read_at__isnull=True).count()
    return Header(console=bool(console), unread=unread, admin=user.is_active and user.is_superuser)
