"""Standings divisions (部門): PWSCup 2021 ranks an anonymization division and an attack
division, each combining the preliminary and the final 1 : 9. The season (two rounds, five
teams, an anonymization and an attack ranking per round) is tests/pwscup/test_standings.py's.

The expected orders were written by hand: anonymization A 0.1 × 1 + 0.9 × 2 = 1.9,
B 0.2 + 0.9 = 1.1, C 0.3 + 2.7 = 3.0, D 0.4 + 4.5 = 4.9, E 0.5 + 3.6 = 4.1, so B, A, C, E, D;
attack A 0.4 + 0.9 = 1.3, B 0.1 + 2.7 = 2.8, C 0.5 + 1.8 = 2.3, D 0.2 + 4.5 = 4.7,
E 0.3 + 3.6 = 3.9, so A, C, B, E, D.
"""

import importlib
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.standings import standings_csv_files, standings_divisions, standings_of
from pwscup.competitions.standings_models import Standings
from pwscup.competitions.standings_services import (
    DivisionInput,
    EntryInput,
    standings_division_add,
    standings_division_remove,
    standings_update,
)
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.test_standings import PUBLISHED, ranking, season  # noqa: F401

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("pwscup.competitions.migrations.0027_standings_first_division")
EDITOR = SimpleNamespace(connection=connection)  # what the functions read of a schema editor


def entries(rounds, key):
    weights = (Decimal("0.1"), Decimal("0.9"))
    return [EntryInput(r, w, (key,)) for r, w in zip(rounds, weights, strict=True)]


def publish():
    rounds = {
        "pre": ({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}, {"A": 4, "B": 1, "C": 5, "D": 2, "E": 3}),
        "final": (
            {"A": 2, "B": 1, "C": 3, "D": 5, "E": 4},
            {"A": 1, "B": 3, "C": 2, "D": 5, "E": 4},
        ),
    }
    for slug, (anonymization, attack) in rounds.items():
        PUBLISHED[slug] = {"anonymization": ranking(anonymization), "attack": ranking(attack)}


def two_divisions(competition, rounds):
    """The 2021 shape: the first division (anonymization), then the attack division."""
    standings_update(
        user=None,
        competition=competition,
        rule="weighted_rank",
        entries=entries(rounds, "anonymization"),
        division=DivisionInput("anonymization", "Anonymization division", "匿名化部門"),
    )
    standings_division_add(
        user=None,
        competition=competition,
        division=DivisionInput("attack", "Attack division", "攻撃部門"),
        rule="weighted_rank",
        entries=entries(rounds, "attack"),
    )


def order(table):
    return [row.team.slug for row in table.rows]


def test_2021_two_divisions_each_combine_the_preliminary_and_the_final(season):  # noqa: F811
    competition, rounds, _organizer = season
    publish()
    two_divisions(competition, rounds)
    assert [d.key for d in standings_divisions(competition=competition)] == [
        "anonymization",
        "attack",
    ]
    assert order(standings_of(competition=competition)) == ["B", "A", "C", "E", "D"]
    assert order(standings_of(competition=competition, key="attack")) == ["A", "C", "B", "E", "D"]
    assert standings_of(competition=competition, key="nope") is None
    files = standings_csv_files(competition=competition)
    assert [name for name, _content in files] == ["standings.csv", "standings-attack.csv"]
    assert files[1][1].decode().splitlines()[1].startswith("1,Team A,")


def test_a_division_key_is_a_free_slug(season):  # noqa: F811
    competition, rounds, _organizer = season
    two_divisions(competition, rounds)
    for key, message in (
        ("attack", "Another division already has the key attack."),
        ("add", "The key add is taken by the console; choose another."),
        # The refusal names every character a key may hold (the slug rule: "_" too).
        ("Two words", "lower-case letters, digits, hyphens and underscores"),
    ):
        with pytest.raises(ValidationError) as caught:
            standings_division_add(
                user=None,
                competition=competition,
                division=DivisionInput(key),
                rule="weighted_rank",
                entries=entries(rounds, "attack"),
            )
        assert message in caught.value.messages[0]

    def set_attack(division):
        attack = entries(rounds, "attack")
        fields = {"rule": "weighted_rank", "entries": attack, "division": division}
        standings_update(user=None, competition=competition, key="attack", **fields)

    # Renaming a division to its own key is no clash; to another's is.
    set_attack(DivisionInput("attack", "Attackers"))
    assert Standings.objects.get(key="attack").name_en == "Attackers"
    with pytest.raises(ValidationError):
        set_attack(DivisionInput("anonymization"))
    standings_division_remove(user=None, competition=competition, key="attack")
    assert [d.key for d in standings_divisions(competition=competition)] == ["anonymization"]
    lines = AuditEntry.objects.filter(competition=competition, detail__has_key="division")
    assert [line.detail["division"] for line in lines.order_by("pk")] == [
        "anonymization",
        "attack",
        "attack",
        "attack",
    ]
    # An underscore is a slug's character: such a key is taken.
    standings_division_add(
        user=None,
        competition=competition,
        division=DivisionInput("attack_top"),
        rule="weighted_rank",
        entries=entries(rounds, "attack"),
    )
    assert "attack_top" in [d.key for d in standings_divisions(competition=competition)]


def test_the_migration_makes_the_one_standings_the_first_division(season):  # noqa: F811
    """0027 names each competition's one standings "overall" (order 0, no name: it reads
    "Standings"); going back keeps each competition's first division only."""
    competition, rounds, _organizer = season
    old = Standings.objects.create(competition=competition, key="", rule="weighted_rank")
    MIGRATION.first_division_named(apps, EDITOR)
    old.refresh_from_db()
    assert (old.key, old.order, old.name) == ("overall", 0, "Standings")
    Standings.objects.create(competition=competition, key="attack", order=1, rule="weighted_rank")
    MIGRATION.other_divisions_dropped(apps, EDITOR)
    assert list(Standings.objects.values_list("pk", flat=True)) == [old.pk]


def test_the_console_lists_adds_edits_and_removes_divisions(season, client):  # noqa: F811
    competition, rounds, organizer = season
    client.force_login(organizer)
    slug = competition.slug
    # The page it always had sets the first division, "overall" by default.
    response = post_as_rendered(client, reverse("console:standings", args=[slug]), "standings-form")
    assert response.status_code == 302
    assert [d.key for d in standings_divisions(competition=competition)] == ["overall"]
    card = client.get(reverse("console:competition", args=[slug])).content.decode()
    assert 'data-testid="standings-division-overall"' in card
    add = reverse("console:standings_add", args=[slug])
    assert f'href="{add}"' in card
    response = post_as_rendered(
        client,
        add,
        "standings-form",
        {
            "division-key": "attack",
            "division-name_en": "Attack division",
            "division-name_ja": "攻撃部門",
            "rounds-0-rankings": "attack",
            "rounds-1-rankings": "attack",
        },
    )
    assert response.status_code == 302
    attack = Standings.objects.get(competition=competition, key="attack")
    assert [e.rankings for e in attack.entries.all()] == [["attack"], ["attack"]]
    page = reverse("console:standings_division", args=[slug, "attack"])
    assert 'value="Attack division"' in client.get(page).content.decode()
    response = post_as_rendered(client, page, "standings-form", {"division-key": "attackers"})
    assert response.url == reverse("console:standings_division", args=[slug, "attackers"])
    assert client.get(page).status_code == 404
    # The first division's page still edits the first one, until another comes first.
    first = reverse("console:standings", args=[slug])
    assert 'value="overall"' in client.get(first).content.decode()
    response = post_as_rendered(client, first, "standings-form", {"division-order": "5"})
    assert response.status_code == 302
    assert [d.key for d in standings_divisions(competition=competition)] == ["attackers", "overall"]
    assert 'value="attackers"' in client.get(first).content.decode()
    remove = reverse("console:standings_remove", args=[slug, "attackers"])
    assert client.post(remove).status_code == 302
    assert [d.key for d in standings_divisions(competition=competition)] == ["overall"]


def test_the_public_pages_show_every_division_and_each_alone(season, client):  # noqa: F811
    competition, rounds, _organizer = season
    publish()
    two_divisions(competition, rounds)
    slug = competition.slug
    page = client.get(reverse("competition_standings", args=[slug])).content.decode()
    assert "Anonymization division" in page and "Attack division" in page
    assert page.count('data-testid="standings-table"') == 2
    attack_url = reverse("competition_standings_division", args=[slug, "attack"])
    assert f'href="{attack_url}"' in page
    one = client.get(attack_url).content.decode()
    assert "<h1>Attack division</h1>" in one and one.count('data-testid="standings-table"') == 1
    with_ja = client.get(attack_url, headers={"accept-language": "ja"}).content.decode()
    assert "<h1>攻撃部門</h1>" in with_ja
    csv_url = reverse("competition_standings_division_csv", args=[slug, "attack"])
    assert f'href="{csv_url}"' in one
    assert client.get(csv_url).content.decode().splitlines()[1].startswith("1,Team A,")
    first_csv = client.get(reverse("competition_standings_csv", args=[slug])).content.decode()
    assert first_csv.splitlines()[1].startswith("1,Team B,")
    assert client.get(reverse("competition_standings_division", args=[slug, "no"])).status_code == (
        404
    )
    detail = client.get(reverse("competition_detail", args=[slug])).content.decode()
    assert f'href="{attack_url}"' in detail


def test_the_api_answers_the_first_division_and_lists_them_all(season, client):  # noqa: F811
    competition, rounds, _organizer = season
    publish()
    two_divisions(competition, rounds)
    slug = competition.slug
    answer = client.get(reverse("api:competition-standings", args=[slug])).json()
    assert (answer["key"], answer["name"], answer["rule"]) == (
        "anonymization",
        "Anonymization division",
        "weighted_rank",
    )
    assert [row["team"]["slug"] for row in answer["rows"]] == list("BACED")
    attack_url = reverse("api:competition-standings-division", args=[slug, "attack"])
    assert answer["divisions"][1] == {"key": "attack", "name": "Attack division", "url": attack_url}
    one = client.get(attack_url, headers={"accept-language": "ja"}).json()
    assert (one["key"], one["name"]) == ("attack", "攻撃部門")
    assert [row["team"]["slug"] for row in one["rows"]] == list("ACBED")
    missing = reverse("api:competition-standings-division", args=[slug, "nope"])
    assert client.get(missing).status_code == 404


def test_only_the_organizers_set_or_remove_a_division(season, client):  # noqa: F811
    competition, rounds, _organizer = season
    two_divisions(competition, rounds)
    client.login(username="season-a", password="pw")  # a team member, no organizer
    slug = competition.slug
    for url in (
        reverse("console:standings_add", args=[slug]),
        reverse("console:standings_division", args=[slug, "attack"]),
    ):
        assert client.get(url).status_code == 404
        assert client.post(url, {"division-key": "x"}).status_code == 404
    assert client.post(reverse("console:standings_remove", args=[slug, "attack"])).status_code == (
        404
    )
    assert [d.key for d in standings_divisions(competition=competition)] == [
        "anonymization",
        "attack",
    ]


def test_the_division_form_shows_its_address_placeholders(season, client):  # noqa: F811
    # Django writes a field's help text as HTML: "<competition>" was read as a tag and the
    # English page said "Its address: /c//standings//".
    competition, _rounds, organizer = season
    client.force_login(organizer)
    page = client.get(reverse("console:standings_add", args=[competition.slug])).content.decode()
    assert "/c/&lt;competition&gt;/standings/&lt;key&gt;/" in page
    assert "/c/&lt;competition&gt;/standings.csv" in page


def test_unticking_every_round_says_the_division_was_removed(season, client):  # noqa: F811
    # Saving a division with no round removes it: the console said "Standings saved." and
    # showed the form of the division that had become the first.
    competition, rounds, organizer = season
    two_divisions(competition, rounds)
    client.force_login(organizer)
    page = reverse("console:standings_division", args=[competition.slug, "attack"])
    untick = {f"rounds-{i}-counts": False for i in range(len(rounds))}
    response = post_as_rendered(client, page, "standings-form", untick)
    assert response.url == reverse("console:competition", args=[competition.slug])
    shown = [str(m) for m in client.get(response.url).context["messages"]]
    assert shown == ["Division removed."]
    assert [d.key for d in standings_divisions(competition=competition)] == ["anonymization"]


def test_removing_a_division_asks_first(season, client):  # noqa: F811
    # The edit page's button removed the division, its rule and rankings, at one click.
    competition, rounds, organizer = season
    two_divisions(competition, rounds)
    client.force_login(organizer)
    slug = competition.slug
    remove = reverse("console:standings_remove", args=[slug, "attack"])
    edit = client.get(reverse("console:standings_division", args=[slug, "attack"]))
    assert f'href="{remove}"' in edit.content.decode()
    asked = client.get(remove)
    assert "Remove the division Attack division (attack)?" in asked.content.decode()
    assert [d.key for d in standings_divisions(competition=competition)] == [
        "anonymization",
        "attack",
    ]
    response = post_as_rendered(client, remove, "standings-remove-form")
    assert response.url == reverse("console:competition", args=[slug])
    assert [d.key for d in standings_divisions(competition=competition)] == ["anonymization"]
