"""A round made by mistake can be deleted from the console, for every kind alike: a round no
team uploaded to goes (with its kind's part, phases and standings entries; the audit log
keeps the deletion without the round), and a round with one upload is refused, over the
page as the organizer posts it, with the refusal said and the round kept."""

from django.test import Client
from django.urls import reverse

from pwscup.competitions.models import AuditEntry, Round
from pwscup.competitions.standings_models import Standings, StandingsRound
from pwscup.console.round_delete import round_uploads


def _page(arena) -> tuple[Client, str]:
    client = Client()
    client.force_login(arena.organizer)
    url = reverse("console:round_delete", args=[arena.competition.slug, arena.round.slug])
    return client, url


def test_an_empty_round_of_every_kind_is_deleted_and_logged(player):
    arena = player.arena(slug=f"del-{player.key}"[:40])
    standings = Standings.objects.create(competition=arena.competition, rule="weighted_rank")
    StandingsRound.objects.create(standings=standings, round=arena.round, weight=1)
    client, url = _page(arena)
    assert 'data-testid="round-delete-form"' in client.get(url).content.decode()
    answer = client.post(url)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("console:competition", args=[arena.competition.slug])
    assert not Round.objects.filter(pk=arena.round.pk).exists()
    assert not StandingsRound.objects.filter(standings=standings).exists()
    entry = AuditEntry.objects.get(
        competition=arena.competition, action=AuditEntry.Action.ROUND_DELETED
    )
    assert entry.round is None and entry.detail == {
        "name": arena.round.name,
        "address": arena.round.slug,
    }


def test_a_round_a_team_uploaded_to_is_refused_and_kept(player):
    arena = player.arena(slug=f"keep-{player.key}"[:40])
    player.submit(arena, "a", player.valid(arena, 1))
    assert round_uploads(arena.round) == 1
    client, url = _page(arena)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-testid="round-delete-refused"' in page and "1 件のファイル" in page
    assert 'data-testid="round-delete-form"' not in page
    answer = client.post(url)
    assert answer.status_code == 200 and Round.objects.filter(pk=arena.round.pk).exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.ROUND_DELETED).exists()


def test_only_the_round_s_organizers_reach_the_page(player, django_user_model):
    arena = player.arena(slug=f"who-{player.key}"[:40])
    _client, url = _page(arena)
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("del-stranger", password="x"))
    assert stranger.get(url).status_code == 404 and stranger.post(url).status_code == 404
    assert Round.objects.filter(pk=arena.round.pk).exists()


def test_an_award_naming_the_round_is_removed_first(player):
    from pwscup.accounts.models import Award

    arena = player.arena(slug=f"award-{player.key}"[:40])
    Award.objects.create(
        competition=arena.competition,
        round=arena.round,
        team=arena.teams["a"],
        name_en="Best",
        name_ja="最優秀",
        created_by=arena.organizer,
    )
    client, url = _page(arena)
    page = client.get(url).content.decode()
    assert "remove the award first" in page
    client.post(url)
    assert Round.objects.filter(pk=arena.round.pk).exists()
    # The round's console page offers the deletion, in both languages.
    round_page = reverse("console:round", args=[arena.competition.slug, arena.round.slug])
    for language, words in (("en", "Delete the round"), ("ja", "ラウンドを削除")):
        shown = client.get(round_page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert 'data-testid="round-delete-link"' in shown and words in shown


def test_the_deleted_round_s_files_leave_the_storage_and_no_other_round_s(
    player, django_capture_on_commit_callbacks
):
    """The files the round's rows named (its original, its kind's data) are deleted from the
    real storage once the deletion commits; another round's files stay."""
    from django.core.files.storage import default_storage

    from pwscup.console.round_delete import round_files

    arena = player.arena(slug=f"files-{player.key}"[:40])
    other = player.arena(slug=f"other-{player.key}"[:40])
    files, kept = set(round_files(arena.round)), set(round_files(other.round))
    assert bool(files) == bool(kept) == player.holds_files and not files & kept
    assert all(default_storage.exists(name) for name in files | kept)
    client, url = _page(arena)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url).status_code == 302
    assert not Round.objects.filter(pk=arena.round.pk).exists()
    assert [name for name in files if default_storage.exists(name)] == []
    assert all(default_storage.exists(name) for name in kept)
