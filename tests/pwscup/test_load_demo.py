"""``load_demo`` is for a laptop: it never touches real accounts or competitions. What it
makes is read on one demo loaded for the module, in test_load_demo_loaded.py."""

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from pwscup.accounts.services import ORGANIZER_GROUP
from pwscup.competitions.models import Competition, Round
from pwscup.competitions.services import competition_create
from pwscup.kinds import all_kinds

pytestmark = pytest.mark.django_db


def test_it_refuses_a_database_with_other_accounts_unless_forced(django_user_model, client):
    alice = django_user_model.objects.create_user("alice", password="alice-secret")
    with pytest.raises(CommandError, match=r"not the demo's \(1 other account\(s\)\).*--force"):
        call_command("load_demo")
    assert not Competition.objects.exists()

    call_command("load_demo", "--force")
    demo = Competition.objects.get(slug="demo")
    alice.refresh_from_db()
    assert alice.check_password("alice-secret") and not alice.is_staff
    # The demo's organizer: staff in the organizers' group, not a superuser, organizer of
    # the demo only; it can run the demo's rounds from the admin and sees nothing else.
    organizer = django_user_model.objects.get(username="organizer")
    assert organizer.is_staff and not organizer.is_superuser
    assert list(organizer.groups.values_list("name", flat=True)) == [ORGANIZER_GROUP]
    assert list(organizer.organized_competitions.all()) == [demo]
    assert organizer.has_perm("competitions.change_round")
    # It may create competitions: the console shows it "New competition".
    assert organizer.has_perm("competitions.add_competition")
    client.force_login(organizer)
    assert 'data-testid="competition-new"' in client.get(reverse("console:home")).content.decode()
    assert client.get(reverse("console:competition_new")).status_code == 200
    other = competition_create(name="Real cup 2025", slug="real", organizers=[alice])
    client.force_login(organizer)
    rounds = client.get(reverse("admin:competitions_round_changelist"))
    assert rounds.status_code == 200
    assert "Round 1: shared original" in rounds.content.decode()
    competitions = client.get(reverse("admin:competitions_competition_changelist"))
    assert "PWSCup demo (UCI Adult)" in competitions.content.decode()
    assert other.name not in competitions.content.decode()


def test_it_refuses_a_database_with_another_competition():
    competition_create(name="Real cup", slug="real")
    with pytest.raises(CommandError, match=r"1 other competition\(s\)"):
        call_command("load_demo")
    assert not Competition.objects.filter(slug="demo").exists()


def test_a_foreign_database_is_still_refused_on_a_second_run(django_user_model):
    """The demo's marker, not its slug, makes a database the demo's: a real competition
    with the slug ``demo`` and its accounts are refused without --force, and left alone
    with it."""
    real = Competition.objects.create(name="Real cup", slug="demo")
    django_user_model.objects.create_user("alice", password="alice-secret")
    with pytest.raises(CommandError, match=r"not the demo's \(1 other account\(s\)\).*--force"):
        call_command("load_demo")
    call_command("load_demo", "--force")
    assert not real.teams.exists() and not Round.objects.exists()
    assert not Competition.objects.get(pk=real.pk).is_demo
    assert not django_user_model.objects.filter(username="organizer").exists()


def test_existing_accounts_keep_their_password_and_flags_even_when_forced(
    django_user_model, capsys
):
    boss = django_user_model.objects.create_superuser("organizer", "o@example.org", "real-pw")
    member = django_user_model.objects.create_user("team-a", password="own-pw", is_staff=True)
    django_user_model.objects.create_user("someone-else", password="pw")
    call_command("load_demo", "--force")
    boss.refresh_from_db()
    member.refresh_from_db()
    assert boss.check_password("real-pw") and boss.is_superuser and boss.is_staff
    assert not boss.groups.exists()
    assert member.check_password("own-pw") and member.is_staff and not member.is_superuser
    assert django_user_model.objects.get(username="team-b").check_password("pwscup-demo")
    out = capsys.readouterr().out
    assert "Account 'organizer' exists already: its password and flags are left as they are." in out
    assert "Account 'team-a' exists already" in out
    assert Competition.objects.get(slug="demo").teams.get(slug="teamA").members.get() == member


def test_the_command_imports_no_kind():
    """It knows no game (the import-linter contract ``kinds-through-registry`` keeps it so)."""
    import ast
    import inspect

    from pwscup.console.management.commands import load_demo

    tree = ast.parse(inspect.getsource(load_demo))
    imported = [
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    ]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    # Every registered kind's package (a new kind is checked as soon as it registers).
    kinds = tuple(type(kind).__module__.rsplit(".", 1)[0] for kind in all_kinds())
    assert {"pwscup.pwscup2015", "pwscup.dp", "pwscup.sequential", "pwscup.synthetic"} <= set(
        kinds
    ), kinds
    assert imported and not [name for name in imported if name.startswith(kinds)]
