"""What ``load_demo`` makes, read on one demo loaded for the module (``demo_loaded``,
tests/conftest.py): each test runs in its own rolled-back transaction. The command's
refusals and its second runs, which need a database of their own before it runs, are in
test_load_demo.py and test_load_demo_restart.py."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import Competition, Phase
from tests.pwscup.rendered_forms import post_as_rendered

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_loaded")]


def test_the_demo_opens_a_presentation_window_for_the_whole_competition(client):
    """A demo team can upload its slides at once: the competition-wide window is open."""
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


def test_the_demo_s_admin_grants_a_student_the_right_to_create_a_competition(django_user_model):
    """On the demo a lecturer grants the right from the console, no shell: the demo's
    ``admin`` (a superuser; the organizer is not one) opens *Who may create competitions*,
    allows team-a, and team-a creates a competition, each form posted as the page renders it."""
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


def test_no_admin_page_of_the_demo_s_organizer_links_to_a_page_refused_to_them(client):
    """Django links a read-only foreign key to the related row's admin page; for an account
    (who uploaded, the captain) that page is a superuser's, and the organizer got a 403.
    One row's page of every model the organizer may view, and every admin link on it."""
    import re

    from django.apps import apps
    from django.contrib import admin

    client.login(username="organizer", password="pwscup-demo")
    organizer = client.get(reverse("admin:index")).wsgi_request.user
    assert organizer.is_staff and not organizer.is_superuser
    pages, links = [], set()
    for model in filter(admin.site.is_registered, apps.get_models()):
        meta = model._meta
        if not organizer.has_perm(f"{meta.app_label}.view_{meta.model_name}"):
            continue
        listing = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert listing.status_code == 200, meta.label
        found = re.search(
            rf'href="(/admin/{meta.app_label}/{meta.model_name}/\d+/change/)', listing.text
        )
        if found is None:
            continue
        page = client.get(found.group(1))
        assert page.status_code == 200, found.group(1)
        pages.append(meta.label)
        links |= set(re.findall(r'href="(/admin/[^"?#]+)"', page.text))
    assert {"accounts.Team", "sequential.Release", "scorer.DataPack"} <= set(pages)
    refused = [link for link in sorted(links) if client.get(link).status_code in (403, 404)]
    assert not refused
