"""Counted divisions (PWSCup 2023's grand ranking) over a real round (the 2015 game): they
travel in bundles and clones, the counting division imported after the divisions it
counts, and the results archive's CSV carries their columns. A clone keeping some rounds
leaves out every division that counts a round or a division left out."""

import csv
import io
from decimal import Decimal

import pytest

from pwscup.bundles.selectors import competition_bundle
from pwscup.bundles.services import competition_clone
from pwscup.bundles.subset import rounds_kept
from pwscup.competitions.standings import standings_csv, standings_of
from pwscup.competitions.standings_models import Standings
from pwscup.competitions.standings_services import (
    CountedInput,
    DivisionInput,
    EntryInput,
    standings_division_add,
)
from tests.pwscup.archive_world import play_2015, publish_and_read
from tests.pwscup.bundle_helpers import START, creator, manifest_of, rebuilt
from tests.pwscup.test_bundles import _import, _refused
from tests.pwscup.test_standings_kinds import publish

pytestmark = pytest.mark.django_db

GRAND_ENTRY = {
    "key": "grand",
    "name_en": "Grand ranking",
    "name_ja": "総合順位",
    "rule": "weighted_rank",
    "rounds": [],
    "divisions": [
        {"division": "anonymization", "weight": 1.0},
        {"division": "attack", "weight": 1.0},
    ],
}


@pytest.fixture
def grand_world(make_world):
    """The grand ranking first (order 0), then the two divisions it counts, each of one
    ranking of the round; every team played, nothing published yet."""
    world = make_world(data_mode="per_team")
    play_2015(world, publish=False)
    counted = []
    for order, key in ((1, "anonymization"), (2, "attack")):
        division = standings_division_add(
            user=world.organizer,
            competition=world.competition,
            division=DivisionInput(key, f"{key.title()} division", order=order),
            rule="weighted_rank",
            entries=[EntryInput(world.round, Decimal(1), (key,))],
        )
        counted.append(CountedInput(division, Decimal(1)))
    standings_division_add(
        user=world.organizer,
        competition=world.competition,
        division=DivisionInput("grand", "Grand ranking", "総合順位", order=0),
        rule="weighted_rank",
        entries=[],
        counted=counted,
    )
    return world


def shape(competition) -> list[tuple]:
    return [
        (
            d.key,
            [
                (c.counted.key, c.counted.competition_id, c.weight)
                for c in d.counted_divisions.all()
            ],
        )
        for d in Standings.objects.filter(competition=competition).order_by("order", "pk")
    ]


def test_a_bundle_and_a_clone_carry_the_counted_divisions(grand_world):
    world = grand_world
    data = competition_bundle(competition=world.competition).data
    manifest = manifest_of(data)
    assert manifest["standings"] == GRAND_ENTRY
    assert "divisions" not in manifest["standings_divisions"][0]
    user = creator(world.organizer)
    # The grand ranking comes first in the manifest; it is added after what it counts.
    copy = _import(data, user, slug="copy-grand")
    one = Decimal(1)
    assert shape(copy) == [
        ("grand", [("anonymization", copy.pk, one), ("attack", copy.pk, one)]),
        ("anonymization", []),
        ("attack", []),
    ]
    clone = competition_clone(
        competition=world.competition, name="Again", slug="again-grand", start=START, user=user
    )
    assert [key for key, _counted in shape(clone)] == ["grand", "anonymization", "attack"]
    assert len(shape(clone)[0][1]) == 2

    def unknown(manifest):
        manifest["standings"]["divisions"][1]["division"] = "defence"

    assert _refused(rebuilt(data, change=unknown), user) == [
        "manifest.json: standings.divisions[1].division: the bundle has no division defence."
    ]

    def two_levels(manifest):
        manifest["standings_divisions"][0]["divisions"] = [{"division": "grand", "weight": 1}]

    assert _refused(rebuilt(data, change=two_levels), user) == [
        "manifest.json: standings.divisions[0].division: anonymization counts other "
        "divisions: a division that counts divisions cannot be counted itself (one level)."
    ]


def test_the_archive_csv_has_the_counted_divisions_columns(grand_world):
    world = grand_world
    publish(world)
    _archive, members = publish_and_read(world.competition, user=world.organizer)
    rows = list(csv.reader(io.StringIO(members["standings.csv"].decode())))
    assert rows[0] == [
        "rank",
        "team",
        "combined",
        "anonymization:rank",
        "anonymization:combined",
        "attack:rank",
        "attack:combined",
    ]
    table = standings_of(competition=world.competition)
    expected = [["" if v is None else str(v) for v in row] for row in standings_csv(table)[1]]
    assert rows[1:] == expected
    # A attacked nobody: no attack division rank, so no grand value, listed last.
    assert rows[-1][:3] == ["", "Team A", ""] and rows[-1][5] == ""
    rank_in = {
        key: {
            r.team.name: r.rank for r in standings_of(competition=world.competition, key=key).rows
        }
        for key in ("anonymization", "attack")
    }
    for row in rows[1:-1]:
        assert float(row[2]) == rank_in["anonymization"][row[1]] + rank_in["attack"][row[1]]


def test_a_clone_of_some_rounds_leaves_out_what_counts_a_left_out_round():
    manifest = {
        "rounds": [{"slug": "pre"}, {"slug": "final"}],
        "presentations": [],
        "standings": GRAND_ENTRY,
        "standings_divisions": [
            {"key": "anonymization", "rule": "weighted_rank", "rounds": [{"round": "final"}]},
            {"key": "attack", "rule": "weighted_rank", "rounds": [{"round": "pre"}]},
            {"key": "final-only", "rule": "weighted_rank", "rounds": [{"round": "final"}]},
        ],
    }
    rounds_kept(manifest, [[], []], {"final"})
    # The attack division counts the preliminary; the grand ranking counts the attack division.
    assert manifest["standings"]["key"] == "anonymization"
    assert [d["key"] for d in manifest["standings_divisions"]] == ["final-only"]
