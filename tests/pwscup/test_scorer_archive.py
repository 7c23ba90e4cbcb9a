"""The scorer round in the results archive: nothing before publication; after it the two
rankings, the matrix, every scored upload's scores as the program wrote them with the version
that scored them, each target's public files; the hidden packs and the releases as uploaded
only when their secrets are ticked."""

import csv
import io
import json

import pytest

from pwscup.archives.data_card import round_card
from pwscup.competitions.choice_services import choices_set, team_choice_set
from pwscup.competitions.total_services import round_total_formula_set
from pwscup.kinds.archives import GROUND_TRUTH, ORIGINAL
from pwscup.scorer import archive, selectors, services
from tests.pwscup.archive_world import publish_and_read
from tests.pwscup.scorer_world import (
    CONFIG,
    attack,
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
    zipped,
)

pytestmark = pytest.mark.django_db


def _rows(content: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8"))))


def test_the_archive_holds_the_published_outcome_and_secrets_only_when_ticked():
    world = scorer_world(slug="scoarch", letters="ab")
    kept = {
        "a": release(world, "a", release_bytes(noise=0)),
        "b": release(world, "b", release_bytes(noise=7, seed=4)),
    }
    targets = attack_phase(world)
    hit = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    assert archive.archive_members(world.round, secrets=frozenset()) == []
    services.results_publish(scorer=world.scorer, user=world.organizer)
    world.scorer.refresh_from_db()

    members = {m.name: m for m in archive.archive_members(world.round, secrets=frozenset())}
    assert {
        "release_ranking.csv",
        "attack_ranking.csv",
        "attack_matrix.csv",
        "release_scores.csv",
        "attack_scores.csv",
        "targets/teama/public.zip",
        "targets/teamb/public.zip",
    } == set(members)
    assert all(member.secret == "" for member in members.values())
    scores = {row["team"]: row for row in _rows(members["release_scores.csv"].content)}
    assert float(scores["Team B"]["utility"]) == kept["b"].scores["utility"]
    assert scores["Team B"]["program_version"] == str(world.program.version)
    attacks = _rows(members["attack_scores.csv"].content)
    assert [(row["team"], row["target"]) for row in attacks] == [("Team B", "Team A")]
    assert float(attacks[0]["reidentified"]) == hit.scores["reidentified"]
    matrix = _rows(members["attack_matrix.csv"].content)
    assert [(row["attacker"], row["Team A"]) for row in matrix] == [("Team B", "1.0")]

    secret = {
        m.name: m
        for m in archive.archive_members(world.round, secrets=frozenset({ORIGINAL, GROUND_TRUTH}))
    }
    assert secret["reference.zip"].secret == ORIGINAL
    uploaded = secret["targets/teama/release_as_uploaded/release.csv"]
    assert uploaded.secret == GROUND_TRUTH
    assert uploaded.content == release_bytes(noise=0)
    card = archive.data_card(world.round)
    assert "organizer's own program" in card["rules"]
    assert {column["name"] for column in card["columns"]} == {"utility", "reidentified"}


def test_the_archive_names_the_data_pack_each_team_played_on():
    # PWSCup 2022: six datasets, each team's scores only read against the one it picked.
    world = scorer_world(slug="scoarchc", letters="ab")
    choices_set(
        user=world.organizer,
        round=world.round,
        rows=[
            {"key": "d1", "label": "Dataset 1", "label_ja": "データ 1"},
            {"key": "d3", "label": "Dataset 3", "label_ja": "データ 3"},
        ],
    )
    team_choice_set(user=world.users["b"], round=world.round, team=world.teams["b"], key="d3")
    release(world, "a", release_bytes(noise=0))  # never picked: the first pack, locked
    release(world, "b", release_bytes(noise=7, seed=4))
    attack_phase(world)
    services.results_publish(scorer=world.scorer, user=world.organizer)
    world.scorer.refresh_from_db()

    members = {m.name: m for m in archive.archive_members(world.round, secrets=frozenset())}
    for name in ("release_ranking.csv", "release_scores.csv"):
        rows = _rows(members[name].content)
        header = next(csv.reader(io.StringIO(members[name].content.decode("utf-8"))))
        # docs/archive.md: the pack is the column right after ``team``, in both files.
        assert header[header.index("team") + 1] == "data_choice", (name, header)
        assert {row["team"]: row["data_choice"] for row in rows} == {
            "Team A": "d1",
            "Team B": "d3",
        }, name
    card = archive.data_card(world.round)
    assert "d1 (Dataset 1), d3 (Dataset 3)" in card["rules"]


def test_the_data_card_says_what_an_attack_not_made_counts_as():
    """The round's ``unattacked`` decides every protection and power (PWSCup 2019: an attack
    not made is 0): the card's rules say it, as the Rules tab does, and say the default too."""
    config = {**CONFIG, "unattacked": 0}
    counted = scorer_world(slug="scoarchu", letters="ab", config=config, build=False)
    rules = archive.data_card(counted.round)["rules"]
    assert "an attack not made counts as 0: every other team" in rules
    default = scorer_world(slug="scoarchn", letters="ab", build=False)
    rules = archive.data_card(default.round)["rules"]
    assert "a target nobody attacked has none" in rules
    assert "attack not made is left out" in rules


def test_the_data_card_names_the_packs_files_and_the_round_s_total():
    # PWSCup 2016–2018 ran on a master M and transactions T, and their winner was the total
    # "utility + persons not re-identified": the card once said "Original: 0 rows" of the
    # reference ZIP and nothing of the formula that made total.csv.
    world = scorer_world(slug="scoarct", letters="ab", config={**CONFIG, "unattacked": 0})
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=7, seed=4))
    attack_phase(world)
    round_total_formula_set(
        user=world.organizer, round=world.round, formula="utility - protection", attack_top_n=1
    )
    services.results_publish(scorer=world.scorer, user=world.organizer)
    _archive, members = publish_and_read(world.competition)
    (card,) = json.loads(members["data-card.json"])["rounds"]
    reference = selectors.current_pack(scorer=world.scorer, role="reference")
    assert card["original"]["rows"] is None
    assert card["original"]["files"] == reference.members
    assert card["total"] == {"formula": "utility - protection", "attack_top_n": 1}
    markdown = members["data-card.md"].decode()
    assert f"- Original: a ZIP of {len(reference.members)} files" in markdown
    assert "0 rows" not in markdown
    assert "**Total.** `utility - protection`, higher is better (`total.csv`)" in markdown
    assert "top 1 releases (`attack_top.csv`)" in markdown
    assert "an attack not made counts as 0" in card["rules"]


def test_the_data_card_says_the_ranking_rules_in_words():
    # PWSCup 2024 walk: the card said "ranked by primary" and "their top n score".
    world = scorer_world(slug="scoarcd", letters="a", build=False)
    card = round_card(world.round)
    assert "ranked by their primary score" in card["rules"]
    assert "primary (" not in card["rules"]


def test_an_upload_covering_every_target_keeps_each_targets_scores_in_the_archive():
    """PWSCup 2024 and 2025 send one upload for every target: the program writes each target's
    score under ``targets``, and attack_scores.csv keeps them, a line per target under the
    upload's own line (``*``), as the Submit tab shows them."""
    world = scorer_world(slug="scoall", config={**CONFIG, "attack_mode": "all_targets"})
    for letter, noise in zip("abc", (0, 20, 40), strict=True):
        release(world, letter, release_bytes(noise=noise, seed=noise))
    targets = attack_phase(world)
    files = {f"{slug}.csv": guess_bytes(targets[slug]) for slug in ("teama", "teamb")}
    kept = attack(world, "c", zipped(files), name="all.zip")
    assert set(kept.targets) == {"teama", "teamb"}
    services.results_publish(scorer=world.scorer, user=world.organizer)
    world.scorer.refresh_from_db()
    members = {m.name: m for m in archive.archive_members(world.round, secrets=frozenset())}
    rows = _rows(members["attack_scores.csv"].content)
    assert [row["target"] for row in rows] == ["*", "Team A", "Team B"]
    assert all(row["team"] == "Team C" and row["number"] == "1" for row in rows)
    assert float(rows[0]["reidentified"]) == kept.scores["reidentified"]
    for row, slug in zip(rows[1:], ("teama", "teamb"), strict=True):
        assert float(row["reidentified"]) == kept.targets[slug]["reidentified"]
