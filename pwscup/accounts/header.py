"""The header of every page: the unread-notification badge, the console link and, for
superusers only, the Django admin link (an organizer's page is the console; staff
organizers can still open ``/admin/``, it is just not offered as their page)."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache

from pwscup.competitions.selectors import may_use_console
from pwscup.notifications.models import Notification

#: The console link's answer is kept in Django's cache per user for at most this long: it
#: costs three queries (the permission check's two, the organizer check's one) on every page,
#: and changes only when an organizer, a group or a permission is added or removed, which
#: forgets it at once (``console_link_forget``, from the m2m_changed receivers of
#: ``pwscup.accounts.apps``). The bound covers what no signal reports (a ``QuerySet.update``
#: or raw SQL on those tables); the console itself checks on the server at every request.
CONSOLE_LINK_SECONDS = 300


@dataclass(frozen=True)
class Header:
    console: bool  # the user organizes a competition or may create one (may_use_console)
    unread: int  # notifications not read yet
    admin: bool = False  # a superuser: the header also links to the Django admin


def _console_key(user_id: int) -> str:
    return f"pwscup:header:console:{user_id}"


def header_state(*, user, unread: int | None = None) -> Header:
    """What the header shows ``user``: the unread count read now (one indexed count; or
    ``unread``, read by the caller this request), the console link from the cache when it
    holds it."""
    if not user.is_authenticated:
        return Header(console=False, unread=0)
    if not user.is_active:
        console = False  # neither rule grants an inactive account anything
    elif user.is_superuser:
        console = True  # read from the user row itself: no query
    else:
        console = cache.get(_console_key(user.pk))
        if console is None:
            console = may_use_console(user=user)
            cache.set(_console_key(user.pk), console, CONSOLE_LINK_SECONDS)
    if unread is None:
        unread = Notification.objects.filter(user=user, read_at__isnull=True).count()
    return Header(console=console, unread=unread, admin=user.is_active and user.is_superuser)


def request_header(request) -> Header:
    """``header_state`` of the request's user, read once per request: a page's ETag
    (``pwscup.accounts.conditional``) and the header it draws share it."""
    header = getattr(request, "pwscup_header", None)
    if header is None:
        header = header_state(user=request.user, unread=getattr(request, _UNREAD, None))
        request.pwscup_header = header
    return header


_UNREAD = "pwscup_unread"


def unread_known(request, unread: int) -> None:
    """The request's unread count, read with other things in one query
    (``pwscup.accounts.access.round_access``): the header does not count again."""
    setattr(request, _UNREAD, unread)


def console_link_forget(*, user_ids) -> None:
    """Forget the cached console link of these users (their organizer or permission rows
    changed): their next page reads it again."""
    keys = [_console_key(pk) for pk in user_ids]
    if keys:
        cache.delete_many(keys)
