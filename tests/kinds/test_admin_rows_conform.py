"""Organizers read every kind's rows in the admin (issue 48): the core lets the organizers'
group view each model a kind's admin shows on a page scoped to the user's competitions
(``kind_admin_models``), so a staff organizer opens those pages and finds the rows of the
competitions they organize, and never another competition's."""

from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from pwscup.accounts.services import organizer_grant
from pwscup.accounts.services.organizers import kind_admin_models
from pwscup.competitions.admin_scope import CompetitionScopedAdmin
from pwscup.kinds import get_kind
from pwscup.kinds.layout import kind_package
from tests.kinds.players import discover_players

PLAYERS = discover_players()
# The pages of the two kinds whose rows only superusers read before (403 for organizers):
# each lists rows to the organizer of a played round.
LISTED = {
    "sequential": ("sequential_master", "sequential_release", "sequential_seqattack"),
    "synthetic": ("synthetic_syntarget", "synthetic_synrelease", "synthetic_synattack"),
}


def played(player, slug: str):
    """A round of the player's kind with its uploads scored (its targets attacked, where the
    kind has an attack matrix): rows in every table the kind keeps."""
    if player.attack_matrix:
        return player.matrix_arena(slug=slug)
    arena = player.arena(slug=slug)
    player.play_results(arena)
    return arena


def rows_of(model, arena) -> set:
    """The primary keys of ``model``'s rows in the arena's competition (the path the kind's
    admin page filters by)."""
    lookup = admin.site.get_model_admin(model).competition_lookup
    return set(model.objects.filter(**{lookup: arena.competition}).values_list("pk", flat=True))


def test_every_model_a_kind_s_admin_shows_is_scoped(player):
    """Every page of a kind's models is scoped (so the core's default grants it): a page
    that is not would show an organizer every competition's rows, and is never granted."""
    kind = get_kind(player.key)
    config = apps.get_containing_app_config(kind_package(kind) or "")
    shown = [
        model
        for model in (config.get_models() if config else [])
        if admin.site.is_registered(model)
    ]
    for model in shown:
        page = admin.site.get_model_admin(model)
        assert isinstance(page, CompetitionScopedAdmin), model._meta.label
    assert set(shown) <= set(kind_admin_models(kind))


def test_an_organizer_reads_the_kind_s_rows_of_their_competitions_only(player, client):
    mine, theirs = played(player, "rowsmine"), played(player, "rowstheirs")
    organizer = get_user_model().objects.create_user("rows48", password="pw")
    organizer_grant(user=organizer, competition=mine.competition)
    client.force_login(organizer)
    models = kind_admin_models(get_kind(player.key))
    listed_somewhere = False
    listed = set()
    for model in models:
        meta = model._meta
        if not admin.site.is_registered(model):  # an inline's rows: on their parent's page
            continue
        page = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert page.status_code == 200, meta.label
        shown = {row.pk for row in page.context["cl"].result_list}
        assert shown == rows_of(model, mine), meta.label
        html = page.content.decode()
        for pk in shown:
            assert reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[pk]) in html
        # Both rounds were played alike: a table with rows in theirs has rows in mine.
        assert bool(shown) == bool(rows_of(model, theirs)), meta.label
        listed_somewhere = listed_somewhere or bool(shown)
        if shown:
            listed.add(f"{meta.app_label}_{meta.model_name}")
        for pk in sorted(rows_of(model, theirs))[:3]:
            other = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[pk])
            assert client.get(other).status_code == 404, meta.label
            assert other not in html
        for pk in sorted(shown)[:3]:
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[pk])
            assert client.get(url).status_code == 200, meta.label
    assert listed_somewhere or not models
    assert set(LISTED.get(player.key, ())) <= listed, listed
