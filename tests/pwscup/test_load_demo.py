"""``load_demo`` is for a laptop: it never touches real accounts or competitions."""

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.services import ORGANIZER_GROUP
from pwscup.competitions.models import Competition, Phase
from pwscup.competitions.services import competition_create
from pwscup.kinds import kind_of
from tests.pwscup.rendered_forms import post_as_rendered

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


def test_the_demo_opens_a_presentation_window_for_the_whole_competition(client):
    """A demo team can upload its slides at once: the competition-wide window is open."""
    call_command("load_demo")
    competition = Competition.objects.get(slug="demo")
    window = competition.presentation_windows.get()
    assert window.round is None
    assert window.opens_at < timezone.now() < window.closes_at
    client.login(username="team-a", password="pwscup-demo")
    page = client.get(reverse("presentations:page", args=[competition.slug]))
    assert page.status_code == 200
    assert 'type="file"' in page.content.decode()


def test_the_demo_s_rounds_come_from_the_kinds_in_their_order():
    """The command creates the competition, the accounts and the teams; each kind's
    ``demo_load`` adds its rounds (the first kind's first), as before kinds existed."""
    call_command("load_demo")
    competition = Competition.objects.get(slug="demo")
    rounds = [(r.order, r.slug, r.kind, r.name) for r in competition.rounds.order_by("order", "pk")]
    assert rounds[:2] == [
        (1, "round-1", "pwscup2015", "ラウンド 1：共通の元データ / Round 1: shared original"),
        (2, "round-2", "pwscup2015", "ラウンド 2：チームごとの標本 / Round 2: per-team samples"),
    ]
    assert [(order, slug, kind) for order, slug, kind, _name in rounds[2:]] == [
        (3, "seq-paper", "sequential"),
        (4, "seq-generated", "sequential"),
        (5, "dp-adult", "dp"),
        (6, "dp-practice", "dp"),
        (7, "syn-adult", "synthetic"),
        (8, "scorer-demo", "scorer"),
    ]
    shared, per_team = (competition.rounds.get(slug=s).pwscup2015 for s in ("round-1", "round-2"))
    assert shared.utility_gates == {"U1": 2000, "U4": 0.1} and shared.tie_break_metric == "U5"
    assert (per_team.data_mode, per_team.sample_size, per_team.decoy_count) == (
        "per_team",
        100,
        100,
    )
    # Every team has its own sample of the per-team round, and both phases are open.
    assert per_team.round.team_datasets.count() == 3
    now = timezone.now()
    for phase in Phase.objects.filter(round__competition=competition, round__kind="pwscup2015"):
        assert phase.opens_at < now < phase.closes_at


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
    kinds = ("pwscup.pwscup2015", "pwscup.dp", "pwscup.sequential")
    assert imported and not [name for name in imported if name.startswith(kinds)]


def test_the_demo_s_admin_grants_a_student_the_right_to_create_a_competition(django_user_model):
    """On the demo a lecturer grants the right from the console, no shell: the demo's
    ``admin`` (a superuser; the organizer is not one) opens *Who may create competitions*,
    allows team-a, and team-a creates a competition, each form posted as the page renders it."""
    call_command("load_demo")
    admin = django_user_model.objects.get(username="admin")
    assert admin.is_superuser and admin.is_staff and admin.check_password("pwscup-demo")
    organizer = Client()
    assert organizer.login(username="organizer", password="pwscup-demo")
    assert organizer.get(reverse("console:creators")).status_code == 403

    lecturer = Client()
    assert lecturer.login(username="admin", password="pwscup-demo")
    creators = reverse("console:creators")
    response = post_as_rendered(lecturer, creators, "creator-form", {"identifier": "team-a"})
    assert response.status_code == 302 and response["Location"] == creators
    assert "team-a" in lecturer.get(creators).content.decode()

    student = Client()
    assert student.login(username="team-a", password="pwscup-demo")
    new = reverse("console:competition_new")
    response = post_as_rendered(
        student, new, "competition-form", {"name": "Class cup", "slug": "class-cup"}
    )
    assert response.status_code == 302, response.context["form"].errors
    created = Competition.objects.get(slug="class-cup")
    assert list(created.organizers.values_list("username", flat=True)) == ["team-a"]


def test_every_demo_round_is_playable_in_one_class_session():
    """The windows the demo sets, and the console action that ends each early: the synthetic
    round's release phase is open for a week and its attack phase the week after, brought to
    the same session by *Open the attack phase now*; the DP rounds are open two weeks, their
    scores (hidden until the close, spec §7.6) shown after *Close now and score*."""
    before = timezone.now().replace(second=0, microsecond=0)
    call_command("load_demo")
    competition = Competition.objects.get(slug="demo")
    synthetic = competition.rounds.get(slug="syn-adult")
    release = synthetic.phases.get(kind=Phase.Kind.ANONYMIZATION)
    attack = synthetic.phases.get(kind=Phase.Kind.ATTACK)
    assert release.opens_at <= timezone.now() < release.closes_at
    assert release.closes_at - release.opens_at == timedelta(days=7, hours=1)
    assert attack.opens_at == release.closes_at
    assert attack.closes_at - attack.opens_at == timedelta(days=7)
    assert "attack_now" in kind_of(synthetic).console_actions(synthetic)
    for slug in ("dp-adult", "dp-practice"):
        dp_round = competition.rounds.get(slug=slug)
        window = dp_round.dp  # the release phase: the DP round's own upload dates
        assert window.opens_at <= timezone.now() < window.closes_at
        assert window.closes_at - before >= timedelta(days=14)
        assert window.closes_at - before < timedelta(days=14, minutes=5)
        assert "close" in kind_of(dp_round).console_actions(dp_round)
