"""Signal receivers of the accounts app: the header's cached console link is forgotten when
a row it depends on changes (``pwscup.accounts.header``).

Signals rather than calls from services because these rows also change outside any service:
the Django admin's many-to-many widgets (a competition's organizers, a user's groups and
permissions, a group's permissions) write them directly, and ``m2m_changed`` is Django's one
report of every such write.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models.signals import m2m_changed, pre_delete

from pwscup.accounts.header import console_link_forget
from pwscup.competitions.models import Competition

CHANGES = ("post_add", "post_remove", "pre_clear")


def _forget(user_ids) -> None:
    """Now, and again once the transaction commits: a page read in between must not keep
    what the transaction is about to change."""
    user_ids = sorted(set(user_ids))
    console_link_forget(user_ids=user_ids)
    transaction.on_commit(lambda: console_link_forget(user_ids=user_ids))


def _users_changed(instance, action, pk_set, *, user_is_instance: bool, users: str) -> None:
    """A many-to-many between users and another model changed: forget the user that is the
    instance, else the users about to be cleared from it (its manager ``users``), else the
    users added or removed (``pk_set``)."""
    if action not in CHANGES:
        return
    if user_is_instance:
        _forget([instance.pk])
    elif action == "pre_clear":
        _forget(getattr(instance, users).values_list("pk", flat=True))
    else:
        _forget(pk_set or ())


def organizers_changed(sender, instance, action, reverse, pk_set, **kwargs):
    # reverse: user.organized_competitions, the user is the instance
    _users_changed(instance, action, pk_set, user_is_instance=reverse, users="organizers")


def user_relation_changed(sender, instance, action, reverse, pk_set, **kwargs):
    """A user's groups or direct permissions (either side of the relation)."""
    # not reverse: user.groups / user.user_permissions, the user is the instance
    _users_changed(instance, action, pk_set, user_is_instance=not reverse, users="user_set")


def group_permissions_changed(sender, instance, action, reverse, pk_set, **kwargs):
    """A group's permissions change what every member of the group may do."""
    if action not in CHANGES:
        return
    User = get_user_model()
    if not reverse:  # group.permissions: the group is the instance
        members = User.objects.filter(groups=instance)
    elif action == "pre_clear":  # permission.group_set.clear()
        members = User.objects.filter(groups__permissions=instance)
    else:  # permission.group_set.add(groups)
        members = User.objects.filter(groups__in=pk_set or ())
    _forget(members.values_list("pk", flat=True))


def competition_deleted(sender, instance, **kwargs):
    """Deleting a competition deletes its organizer rows without ``m2m_changed``."""
    _forget(instance.organizers.values_list("pk", flat=True))


def group_deleted(sender, instance, **kwargs):
    """Deleting a group takes its permissions from its members without ``m2m_changed``."""
    _forget(instance.user_set.values_list("pk", flat=True))


def connect() -> None:
    User = get_user_model()
    m2m_changed.connect(
        organizers_changed, sender=Competition.organizers.through, dispatch_uid="header-orgs"
    )
    for through, uid in (
        (User.groups.through, "header-groups"),
        (User.user_permissions.through, "header-perms"),
    ):
        m2m_changed.connect(user_relation_changed, sender=through, dispatch_uid=uid)
    pre_delete.connect(competition_deleted, sender=Competition, dispatch_uid="header-delete")
    pre_delete.connect(group_deleted, sender=Group, dispatch_uid="header-group-delete")
    m2m_changed.connect(
        group_permissions_changed, sender=Group.permissions.through, dispatch_uid="header-gperms"
    )
