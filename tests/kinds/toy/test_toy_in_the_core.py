"""The core serves a round through its kind, the toy game's as the first kind's: it
dispatches the round page to the kind, mounts the kind's pages in its namespace and confines
them to the kind's rounds, validates a configuration through the kind, lists one "New round"
button per kind, draws the kind's panel, note and results links, shows the kind read-only in
the admin, and tells every round's kind when a team's standing changes. The first kind's own
pages and commands refuse a round of another kind."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.urls import reverse

from pwscup.competitions.services import round_of_kind_create
from pwscup.kinds import get_kind, kind_of
from pwscup.kinds.round_basics import RoundBasics
from tests.kinds.toy import services as toy_services
from tests.kinds.toy.kind import ToyGameKind
from tests.kinds.toy.player import PLAYER
from tests.support import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return build_world()


@pytest.fixture
def toy_kind(db):
    PLAYER.install()
    yield get_kind(PLAYER.key)
    PLAYER.uninstall()


@pytest.fixture
def toy_round(world, toy_kind):
    return round_of_kind_create(
        basics=RoundBasics(competition=world.competition, name="Toy round", slug="toy"),
        kind="toygame",
        config={"size": 3},
    )


def _login(client, world, letter="a"):
    client.force_login(world.users[letter])
    return client


def test_the_round_page_is_drawn_by_the_round_s_kind(client, world, toy_round):
    _login(client, world)
    toy = client.get(reverse("round_detail", args=[world.competition.slug, "toy"]))
    assert toy.status_code == 200
    drawn = [template.name for template in toy.templates]
    assert "rounds/base.html" in drawn  # the toy's round_page: the core's frame alone
    assert not any(name.startswith("pwscup2015/") for name in drawn)
    first = client.get(reverse("round_detail", args=[world.competition.slug, world.round.slug]))
    assert first.status_code == 200
    assert any(template.name.startswith("pwscup2015/") for template in first.templates)


def test_a_kind_s_pages_are_namespaced_by_its_key(client, world, toy_round):
    url = reverse(
        "toygame:hello",
        kwargs={"competition_slug": world.competition.slug, "round_slug": "toy", "word": "w"},
    )
    assert url == f"/c/{world.competition.slug}/toy/toy/hello/w/"
    response = _login(client, world).get(url)
    assert response.status_code == 200
    assert response.content.decode() == f"hello w from Toy round ({world.competition.slug})"


def test_a_kind_s_pages_answer_404_for_a_round_of_another_kind(client, world, toy_round):
    _login(client, world)
    comp = world.competition.slug
    # the toy's page on the first kind's round
    assert client.get(f"/c/{comp}/{world.round.slug}/toy/hello/w/").status_code == 404
    # the first kind's pages (which call round_access themselves) on the toy's round
    for page in ("leaderboard/", "status.json", "config.json", "original.csv", "matrix/"):
        assert client.get(f"/c/{comp}/toy/{page}").status_code == 404, page
        assert client.get(f"/c/{comp}/{world.round.slug}/{page}").status_code != 404, page


def test_a_kind_s_pages_keep_the_core_s_access_rules(client, world, toy_round):
    world.competition.is_listed = False
    world.competition.save()
    url = f"/c/{world.competition.slug}/toy/toy/hello/w/"
    assert client.get(url).status_code == 404  # a visitor does not see an unlisted competition
    assert _login(client, world).get(url).status_code == 200


def test_the_round_service_validates_through_the_kind(world, toy_kind):
    with pytest.raises(ValidationError) as raised:
        round_of_kind_create(
            basics=RoundBasics(competition=world.competition, name="X", slug="x"),
            kind="toygame",
            config={"size": "a"},
        )
    assert raised.value.message_dict == {"size": ["size must be an integer"]}
    with pytest.raises(ValidationError) as raised:
        round_of_kind_create(
            basics=RoundBasics(competition=world.competition, name="X", slug="team"),
            kind="toygame",
            config={},
        )
    assert set(raised.value.message_dict) == {"slug"}
    created = round_of_kind_create(
        basics=RoundBasics(competition=world.competition, name="X", slug="x"),
        kind="toygame",
        config={"size": 4},
    )
    assert (created.kind, created.config, created.order) == ("toygame", {"size": 4}, 2)


def test_the_console_lists_one_new_round_button_per_kind(client, world, toy_round):
    client.force_login(world.organizer)
    page = client.get(reverse("console:competition", args=[world.competition.slug]))
    html = page.content.decode()
    wizard = reverse("pwscup2015_console:wizard_upload", args=[world.competition.slug])
    toy_new = f"/console/{world.competition.slug}/toygame/new/"
    assert f'href="{wizard}" data-testid="round-new"' in html
    assert f'href="{toy_new}" data-testid="round-new-toygame"' in html
    assert "New round: Toy game" in html
    assert 'data-testid="console-round-kind-toy">Toy game' in html
    assert client.get(toy_new).content.decode() == "toy creation form"


def test_the_console_round_page_shows_the_kind_and_its_panel(client, world, toy_round):
    client.force_login(world.organizer)
    toy = client.get(reverse("console:round", args=[world.competition.slug, "toy"]))
    html = toy.content.decode()
    assert 'data-testid="round-kind">Toy game</small>' in html
    assert "<p data-testid='toy-panel'>toy panel of toy</p>" in html
    first = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    html = first.content.decode()
    assert 'data-testid="round-kind">Anonymize-then-attack (PWSCup 2015)</small>' in html
    assert "toy-panel" not in html


def test_a_console_panel_that_is_not_marked_safe_is_escaped(client, world, toy_round, monkeypatch):
    monkeypatch.setattr(ToyGameKind, "console_panel", lambda self, request, round: "<b>x</b>")
    client.force_login(world.organizer)
    html = client.get(reverse("console:round", args=[world.competition.slug, "toy"])).content
    assert b"&lt;b&gt;x&lt;/b&gt;" in html and b"<b>x</b>" not in html


def test_the_competition_page_shows_each_round_s_kind_note_and_results(client, world, toy_round):
    toy_services.toy_round_publish(round=toy_round)
    client.force_login(world.users["a"])
    html = client.get(reverse("competition_detail", args=[world.competition.slug])).content
    html = html.decode()
    assert 'data-testid="round-kind-toy">Toy game</span> · a toy note' in html
    results = reverse("round_tab", args=[world.competition.slug, "toy", "results"])
    assert f'<a href="{results}">Toy results</a>' in html
    first = f'data-testid="round-kind-{world.round.slug}">Anonymize-then-attack (PWSCup 2015)'
    assert first in html


def test_the_admin_shows_the_kind_read_only(client, world, toy_round, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(boss)
    page = client.get(reverse("admin:competitions_round_change", args=[toy_round.pk]))
    html = page.content.decode()
    assert '<div class="readonly">Toy game</div>' in html
    assert 'name="kind"' not in html
    listing = client.get(reverse("admin:competitions_round_changelist") + "?kind=toygame")
    assert "Toy round" in listing.content.decode()
    assert "Second" not in listing.content.decode()
    add = client.get(reverse("admin:competitions_round_add")).content.decode()
    assert '<div class="readonly">Anonymize-then-attack (PWSCup 2015)</div>' in add


def _console_name(name: str) -> str:
    # The first kind's own console pages are in its namespace; the round actions are the core's.
    return f"console:{name}" if name == "round_action" else f"pwscup2015_console:{name}"


def test_the_first_kind_s_console_pages_answer_404_for_another_kind(client, world, toy_round):
    client.force_login(world.organizer)
    comp = world.competition.slug
    for name, extra in (("round_edit", []), ("round_archive", []), ("round_action", ["freeze"])):
        toy = reverse(_console_name(name), args=[comp, "toy", *extra])
        assert client.get(toy).status_code == 404, name
        first = reverse(_console_name(name), args=[comp, world.round.slug, *extra])
        assert client.get(first).status_code == 200, name
    assert client.get(reverse("console:round", args=[comp, "toy"])).status_code == 200


def test_the_freeze_and_rescore_commands_refuse_a_round_of_another_kind(world, toy_round):
    for command in ("freeze_round", "rescore_round"):
        with pytest.raises(CommandError, match="is a 'toygame' round: this command acts on"):
            call_command(command, world.competition.slug, "toy", stdout=io.StringIO())


def test_the_console_tells_every_round_s_kind_when_a_team_is_disqualified_or_reinstated(
    client, world, toy_round, monkeypatch
):
    """Through the registry, never a kind's module: the 2015 round and the toy round alike."""
    told = []
    for kind in (get_kind("toygame"), kind_of(world.round)):
        monkeypatch.setattr(
            kind, "teams_standing_changed", lambda round, kind=kind: told.append(round.slug)
        )
    client.force_login(world.organizer)
    c, team = world.competition.slug, world.teams["a"]
    client.post(reverse("console:team_disqualify", args=[c, team.pk]), {"reason": "Copied."})
    assert sorted(told) == sorted([world.round.slug, toy_round.slug])
    told.clear()
    client.post(reverse("console:team_reinstate", args=[c, team.pk]))
    assert sorted(told) == sorted([world.round.slug, toy_round.slug])
    told.clear()
    client.post(reverse("console:team_rename", args=[c, team.pk]), {"name": "Alpha"})
    assert sorted(told) == sorted([world.round.slug, toy_round.slug])
