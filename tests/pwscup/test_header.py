"""The header agrees with the selectors it summarises, for every kind of account."""

import pytest
from django.contrib.auth.models import AnonymousUser, Group, Permission
from django.test import Client

from pwscup.accounts.header import header_state
from pwscup.accounts.services import user_create
from pwscup.competitions.selectors import may_use_console
from pwscup.notifications.models import Notification
from pwscup.notifications.selectors import notifications_unread_count

pytestmark = pytest.mark.django_db


def _accounts(world):
    permission = Permission.objects.get(
        content_type__app_label="competitions", codename="add_competition"
    )
    direct = user_create(username="creator", password="pw")
    direct.user_permissions.add(permission)
    creators = Group.objects.create(name="creators")
    creators.permissions.add(permission)
    grouped = user_create(username="grouped", password="pw")
    grouped.groups.add(creators)
    other_group = Group.objects.create(name="others")
    other_group.permissions.add(Permission.objects.get(codename="change_competition"))
    other = user_create(username="other-perm", password="pw")
    other.groups.add(other_group)
    superuser = user_create(username="root", password="pw")
    superuser.is_superuser = True
    superuser.save()
    inactive_creator = user_create(username="inactive-creator", password="pw")
    inactive_creator.user_permissions.add(permission)
    inactive_creator.is_active = False
    inactive_creator.save()
    inactive_organizer = user_create(username="inactive-organizer", password="pw")
    world.competition.organizers.add(inactive_organizer)
    inactive_organizer.is_active = False
    inactive_organizer.save()
    inactive_root = user_create(username="inactive-root", password="pw")
    inactive_root.is_superuser = True
    inactive_root.is_active = False
    inactive_root.save()
    return [
        AnonymousUser(),
        world.users["a"],
        world.organizer,
        direct,
        grouped,
        other,
        superuser,
        inactive_creator,
        inactive_organizer,
        inactive_root,
    ]


def test_the_header_agrees_with_the_selectors_for_every_kind_of_account(world):
    for i, user in enumerate(_accounts(world)):
        if user.is_authenticated:
            for n in range(i % 3):
                Notification.objects.create(user=user, kind="release_frozen", event=f"e{n}")
        expected = (may_use_console(user=user), notifications_unread_count(user=user))
        # a fresh user object: has_perm caches permissions on the instance
        header = header_state(user=user)
        assert (header.console, header.unread) == expected, user


def test_the_bell_and_the_console_link_on_a_page(world):
    client = Client()
    client.force_login(world.users["a"])
    page = client.get("/").content.decode()
    assert 'data-testid="unread"' not in page and 'data-testid="console-link"' not in page
    Notification.objects.create(user=world.users["a"], kind="release_frozen", event="e1")
    Notification.objects.create(user=world.users["a"], kind="release_frozen", event="e2")
    page = client.get("/").content.decode()
    assert 'data-testid="unread">2<' in page
    client.force_login(world.organizer)
    assert 'data-testid="console-link"' in client.get("/").content.decode()


def _console(user) -> bool:
    """The header's console link for a fresh copy of ``user`` (has_perm caches on the instance)."""
    return header_state(user=type(user).objects.get(pk=user.pk)).console


def test_the_cached_console_link_follows_every_change_of_what_grants_it(world):
    """The console link is cached per user (three queries on every page otherwise): each
    write that grants or takes it, through a service, the ORM or the admin's widgets (all
    many-to-many writes), is seen on the next page."""
    permission = Permission.objects.get(
        content_type__app_label="competitions", codename="add_competition"
    )
    user = user_create(username="someone", password="pw")
    assert _console(user) is False  # now cached
    world.competition.organizers.add(user)
    assert _console(user) is True
    world.competition.organizers.remove(user)
    assert _console(user) is False
    user.organized_competitions.add(world.competition)  # the reverse side
    assert _console(user) is True
    world.competition.organizers.clear()
    assert _console(user) is False
    user.user_permissions.add(permission)
    assert _console(user) is True
    permission.user_set.remove(user)
    assert _console(user) is False
    group = Group.objects.create(name="creators-later")
    user.groups.add(group)
    assert _console(user) is False
    group.permissions.add(permission)  # every member of the group gains it
    assert _console(user) is True
    permission.group_set.clear()
    assert _console(user) is False
    group.permissions.add(permission)
    group.user_set.remove(user)
    assert _console(user) is False
    group.user_set.add(user)
    assert _console(user) is True
    user.groups.clear()
    assert _console(user) is False
    group.user_set.add(user)
    assert _console(user) is True
    group.delete()  # its rows go without m2m_changed
    assert _console(user) is False


def test_deleting_a_competition_takes_its_organizers_console_link(world):
    from pwscup.competitions.models import Competition

    user = user_create(username="lone-organizer", password="pw")
    other = Competition.objects.create(name="Other", slug="other-one")
    other.organizers.add(user)
    assert _console(user) is True
    other.delete()
    assert _console(user) is False
