"""Standings over a real round (the 2015 game): its rankings come through the kind's
``published_rankings`` (pending before the publication, a disqualified team left out), and
the standings travel in bundles and the results archive."""

import csv
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from pwscup.bundles.selectors import competition_bundle
from pwscup.bundles.services import competition_clone
from pwscup.competitions.standings import standings_of
from pwscup.competitions.standings_models import Standings
from pwscup.competitions.standings_services import (
    DivisionInput,
    EntryInput,
    standings_division_add,
    standings_update,
)
from pwscup.console.services import console_team_disqualify
from pwscup.kinds import kind_of
from pwscup.pwscup2015.leaderboards.selectors import final_ranking
from tests.pwscup.archive_world import play_2015, publish_and_read
from tests.pwscup.bundle_helpers import START, creator, manifest_of, rebuilt
from tests.pwscup.factories import run_operations
from tests.pwscup.test_bundles import _import, _refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_world):
    """Every team submits, B attacks half of A's rows, C all of them; not published yet."""
    world = make_world(data_mode="per_team")
    play_2015(world, publish=False)
    standings_update(
        user=world.organizer,
        competition=world.competition,
        rule="weighted_rank",
        entries=[EntryInput(world.round, Decimal(1), ("attack",))],
    )
    return world


def publish(world):
    from pwscup.pwscup2015.services import round_publish_request

    round_publish_request(round=world.round, requested_by=world.organizer)
    run_operations()
    world.round.refresh_from_db()


def order(table) -> list[tuple]:
    return [(row.rank, row.team.slug) for row in table.rows]


def test_a_2015_rounds_rankings_come_once_published_and_leave_the_disqualified(played):
    world = played
    kind = kind_of(world.round)
    assert [r.key for r in kind.ranking_keys(world.round)] == ["anonymization", "attack"]
    assert kind.published_rankings(world.round) == []
    table = standings_of(competition=world.competition)
    assert table.pending and table.rows == []
    publish(world)
    rankings = {r.key: r for r in kind.published_rankings(world.round)}
    _anonymization, attack = final_ranking(round=world.round)
    assert {(row.team_id, row.rank) for row in rankings["attack"].rows} == {
        (row.team.pk, row.rank) for row in attack
    }
    # C found every row of A, B half of them, A attacked nobody (no rank, listed last).
    assert order(standings_of(competition=world.competition)) == [
        (1, "teamC"),
        (2, "teamB"),
        (None, "teamA"),
    ]
    console_team_disqualify(user=world.organizer, team=world.teams["c"], reason="Cheated.")
    assert order(standings_of(competition=world.competition)) == [(1, "teamB"), (None, "teamA")]


def test_the_archive_holds_standings_csv(played):
    world = played
    publish(world)
    _archive, members = publish_and_read(world.competition, user=world.organizer)
    rows = list(csv.reader(io.StringIO(members["standings.csv"].decode())))
    assert rows[0] == ["rank", "team", "combined", "r1:attack:rank", "r1:attack:score"]
    assert [row[:3] for row in rows[1:]] == [
        ["1", "Team C", "1.0"],
        ["2", "Team B", "2.0"],
        ["", "Team A", ""],
    ]


def test_no_standings_no_archive_member(make_world):
    world = make_world(data_mode="per_team")
    play_2015(world)
    _archive, members = publish_and_read(world.competition, user=world.organizer)
    assert "standings.csv" not in members


def test_a_bundle_carries_the_standings_and_an_old_one_imports_without(played):
    world = played
    standings_update(
        user=world.organizer,
        competition=world.competition,
        rule="inverse_rank_sum",
        entries=[EntryInput(world.round, Decimal("0.9"), ("anonymization", "attack"))],
    )
    data = competition_bundle(competition=world.competition).data
    assert manifest_of(data)["standings"] == {
        "rule": "inverse_rank_sum",
        "rounds": [{"round": "r1", "weight": 0.9, "rankings": ["anonymization", "attack"]}],
    }
    user = creator(world.organizer)
    copy = _import(data, user, slug="copy")
    standings = Standings.objects.get(competition=copy)
    assert standings.rule == "inverse_rank_sum"
    assert [
        (e.round.slug, e.round.competition_id, e.weight, e.rankings)
        for e in standings.entries.all()
    ] == [("r1", copy.pk, Decimal("0.9"), ["anonymization", "attack"])]
    old = rebuilt(data, change=lambda manifest: manifest.pop("standings"))
    assert not Standings.objects.filter(competition=_import(old, user, slug="old")).exists()


def test_a_bundles_standings_are_checked_like_the_consoles(played):
    world = played
    data = competition_bundle(competition=world.competition).data
    user = creator(world.organizer)

    def unknown_ranking(manifest):
        manifest["standings"]["rounds"][0]["rankings"] = ["total"]

    def unknown_round(manifest):
        manifest["standings"]["rounds"][0]["round"] = "r9"

    assert _refused(rebuilt(data, change=unknown_ranking), user) == [
        "manifest.json: standings: Round has no ranking total."
    ]
    assert _refused(rebuilt(data, change=unknown_round), user) == [
        "manifest.json: standings.rounds[0].round: the bundle has no round r9."
    ]
    with pytest.raises(ValidationError):
        standings_update(
            user=None,
            competition=world.competition,
            rule="weighted_score",
            entries=[EntryInput(world.round, Decimal(1), ("anonymization", "attack"))],
        )


def add_attack_division(world):
    standings_division_add(
        user=world.organizer,
        competition=world.competition,
        division=DivisionInput("attack", "Attack division", "攻撃部門"),
        rule="inverse_rank_sum",
        entries=[EntryInput(world.round, Decimal("0.9"), ("attack",))],
    )


def test_the_archive_holds_one_standings_csv_per_division(played):
    world = played
    add_attack_division(world)
    publish(world)
    _archive, members = publish_and_read(world.competition, user=world.organizer)
    assert "standings.csv" in members
    rows = list(csv.reader(io.StringIO(members["standings-attack.csv"].decode())))
    assert [row[:2] for row in rows[1:]] == [["1", "Team C"], ["2", "Team B"], ["", "Team A"]]


def test_a_bundle_carries_every_division(played):
    world = played
    add_attack_division(world)
    data = competition_bundle(competition=world.competition).data
    manifest = manifest_of(data)
    assert "key" not in manifest["standings"]  # the first, "overall", as before divisions
    assert manifest["standings_divisions"] == [
        {
            "key": "attack",
            "name_en": "Attack division",
            "name_ja": "攻撃部門",
            "rule": "inverse_rank_sum",
            "rounds": [{"round": "r1", "weight": 0.9, "rankings": ["attack"]}],
        }
    ]
    user = creator(world.organizer)
    copy = _import(data, user, slug="copy-divisions")
    divisions = Standings.objects.filter(competition=copy).order_by("order")
    assert [(d.key, d.name_ja, d.rule) for d in divisions] == [
        ("overall", "", "weighted_rank"),
        ("attack", "攻撃部門", "inverse_rank_sum"),
    ]

    clone = competition_clone(
        competition=world.competition,
        name="Again",
        slug="again-divisions",
        start=START,
        user=user,
    )
    assert [d.key for d in Standings.objects.filter(competition=clone).order_by("order")] == [
        "overall",
        "attack",
    ]

    def clash(manifest):
        manifest["standings_divisions"][0]["key"] = "overall"

    assert _refused(rebuilt(data, change=clash), user) == [
        "manifest.json: standings_divisions[0]: Another division already has the key overall."
    ]
