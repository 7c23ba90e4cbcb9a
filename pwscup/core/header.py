"""The header of every page: the unread-notification badge and the console link.

Both are read on every page a logged-in user opens. Through the ORM they cost three
queries and ~2.5 ms of CPU (``has_perm`` loads the user's and the groups' permissions;
``organized_competitions(...).exists()``; the unread count); here they are one query,
compiled once per process (pwscup/core/precompiled.py) from the same selectors, with the
permission rule of Django's ModelBackend written as a subquery (tests/pwscup/
test_header.py checks it against ``may_use_console`` for every kind of account).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce

from pwscup.accounts.selectors import organized_competitions
from pwscup.core.precompiled import precompiled
from pwscup.notifications.models import Notification

CREATE_PERMISSION = ("competitions", "add_competition")  # may_create_competitions' permission
_SENTINELS = {"user_id": -1_731_000_101}


@dataclass(frozen=True)
class Header:
    console: bool  # the user organizes a competition or may create one (may_use_console)
    unread: int  # notifications not read yet


def header_state(*, user) -> Header:
    if not user.is_authenticated:
        return Header(console=False, unread=0)
    shape = (bool(user.is_active), bool(user.is_superuser))
    compiled = precompiled(
        ("header", *shape),
        _header_query,
        _SENTINELS,
        {"active": shape[0], "superuser": shape[1]},
    )
    found = compiled.run(user_id=user.pk)
    if not found:
        return Header(console=False, unread=0)
    row = found[0]
    return Header(console=bool(row.may_create or row.organizes), unread=row.unread or 0)


def _header_query(*, user_id, active, superuser):
    user = get_user_model()(pk=user_id, is_active=active, is_superuser=superuser)
    if not active:
        may_create = Value(False)
    elif superuser:
        may_create = Value(True)
    else:
        app_label, codename = CREATE_PERMISSION
        may_create = Exists(
            Permission.objects.filter(
                Q(user=OuterRef("pk")) | Q(group__user=OuterRef("pk")),
                content_type__app_label=app_label,
                codename=codename,
            )
        )
    organized = organized_competitions(user=user)
    organizes = Value(False) if organized.query.is_empty() else Exists(organized)
    unread = (
        Notification.objects.filter(user=OuterRef("pk"), read_at__isnull=True)
        .order_by()
        .values("user")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        get_user_model()
        .objects.filter(pk=user_id)
        .annotate(
            may_create=may_create,
            organizes=organizes,
            unread=Coalesce(Subquery(unread, output_field=IntegerField()), 0),
        )
    )
