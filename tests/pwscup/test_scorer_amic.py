"""PWSCup 2020 (AMIC) on the organizer's-program kind (docs/scorer.md, "PWSCup 2020 (AMIC) on
this platform"): two rounds played with the 2020-like program of ``amic_world`` through the
real sandbox, the anonymizer ranked by 1 − max_j accuracy (protection ``worst``), the
attacker against the top-1 release with its own counted as the best other attacker's, and
the standings the weighted inverse of the rank sums, 0.1 : 0.9. Every expected number is
worked out by hand in the comments from the answers' hits."""

import csv
import datetime as dt
import io
import re
from dataclasses import replace
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.standings import standings_of
from pwscup.competitions.standings_services import EntryInput, standings_update
from pwscup.competitions.total_services import round_total_formula_set
from pwscup.competitions.totals import round_published_rankings
from pwscup.kinds.round_basics import RoundBasics
from pwscup.scorer import services
from pwscup.scorer.models import TeamSlot
from pwscup.submissions.services.two_sided import TwoSidedWindows
from tests.pwscup import amic_world
from tests.pwscup.amic_world import (
    CONFIG,
    HITS,
    RELEASES,
    amic_packs,
    answer_csv,
    members,
    release_csv,
)
from tests.pwscup.scorer_world import attack, attack_phase, release, scorer_world

pytestmark = pytest.mark.django_db

# 0.1 / rank sum in the preliminary + 0.9 / rank sum in the final.
COMBINED = {"a": 0.1 / 6 + 0.9 / 2, "b": 0.1 / 3 + 0.9 / 6, "c": 0.1 / 2 + 0.9 / 3}


def final_round(world):
    """The final: a second round of the same competition, set up as the preliminary."""
    now, day = timezone.now(), dt.timedelta(days=1)
    scorer = services.scorer_round_create(
        basics=RoundBasics(competition=world.competition, name="Final", slug="final"),
        config=CONFIG,
        windows=TwoSidedWindows(release=(now - day, now + day), attack=(now + day, now + 3 * day)),
        user=world.organizer,
    )
    final = replace(world, scorer=scorer)
    amic_packs(final)
    return final


def play(world, name: str, before_publication=None) -> None:
    """Releases, the freeze, one answer per pair, the top-1 setting, publication (after
    ``before_publication(world)``)."""
    slots = {s.team.slug[-1]: s.slot for s in TeamSlot.objects.filter(scorer=world.scorer)}
    for letter, (column, seed) in RELEASES[name].items():
        kept = release(
            world, letter, release_csv(slots[letter], swap=column, swap_seed=seed), "D.csv"
        )
        assert kept.status == "finished" and kept.scores["hist"] == 1000, kept.message
    targets = attack_phase(world)
    for target, attackers in HITS[name].items():
        for letter, hits in attackers.items():
            answer = answer_csv(slots[target], hits)
            rows = {int(line) for line in answer.decode().split()}
            assert len(rows & set(members(slots[target]))) == hits
            kept = attack(world, letter, answer, target=targets[f"team{target}"], name="E.csv")
            assert kept.scores == {"accuracy": 100 * hits}
    round_total_formula_set(
        user=world.organizer,
        round=world.round,
        formula="",
        attack_top_n=1,
        rule={"attack_top_by": "release", "attack_top_own": "best_other"},
    )
    if before_publication is not None:
        before_publication(world)
    services.results_publish(scorer=world.scorer, user=world.organizer)


def own_numbers_in_japanese(world) -> None:
    """Team A's Results tab before the publication lists its release's numbers as Japanese
    lists them (it joined them with ", ")."""
    client = Client()
    client.force_login(world.users["a"])
    url = reverse("round_tab", args=[world.competition.slug, world.round.slug, "results"])
    text = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert re.search(r"ヒストグラム <strong[^>]*>1000</strong>、分散共分散", text)


def ranks(round_, key: str) -> dict[str, tuple]:
    ranking = next(r for r in round_published_rankings(round_) if r.key == key)
    return {row.team.slug[-1]: (row.rank, row.score) for row in ranking.rows}


def test_pwscup_2020_preliminary_and_final_give_the_hand_computed_standings():
    pre = scorer_world(slug="amic", config=CONFIG, build=False)
    amic_packs(pre)
    # A value outside its domain is refused naming the column, the row and the value; a
    # release under a gate is scored and kept, then replaced by the team's next one.
    lines = release_csv(3).decode().splitlines()
    lines[1] = "200," + lines[1].split(",", 1)[1]
    refused = release(pre, "c", "\n".join(lines).encode(), "D.csv")
    assert refused.status == "failed"
    assert "column age, row 2: '200' is not a whole number from 17 to 90" in refused.message
    flat = release(pre, "c", amic_world.flat_release_csv(3), "D.csv")
    assert flat.status == "finished" and flat.scores["hist"] < 990
    play(pre, "pre")
    final = final_round(pre)
    play(final, "final", before_publication=own_numbers_in_japanese)

    assert ranks(pre.round, "release") == {"c": (1, 500), "b": (2, 600), "a": (3, 700)}
    assert ranks(pre.round, "attack_top") == {"b": (1, 500), "c": (1, 500), "a": (3, 200)}
    assert ranks(final.round, "release") == {"a": (1, 300), "c": (2, 700), "b": (3, 800)}
    assert ranks(final.round, "attack_top") == {"a": (1, 300), "c": (1, 300), "b": (3, 200)}

    entries = [
        EntryInput(pre.round, Decimal("0.1"), ("release", "attack_top")),
        EntryInput(final.round, Decimal("0.9"), ("release", "attack_top")),
    ]
    standings_update(
        user=pre.organizer, competition=pre.competition, rule="inverse_rank_sum", entries=entries
    )
    table = standings_of(competition=pre.competition)
    got = {row.team.slug[-1]: (row.rank, row.value) for row in table.rows}
    assert got == {
        "a": (1, pytest.approx(COMBINED["a"])),
        "c": (2, pytest.approx(COMBINED["c"])),
        "b": (3, pytest.approx(COMBINED["b"])),
    }
    response = Client().get(reverse("competition_standings_csv", args=[pre.competition.slug]))
    lines = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [(line["rank"], line["team"], float(line["combined"])) for line in lines] == [
        ("1", "Team A", pytest.approx(COMBINED["a"])),
        ("2", "Team C", pytest.approx(COMBINED["c"])),
        ("3", "Team B", pytest.approx(COMBINED["b"])),
    ]


@pytest.mark.parametrize(
    "lang,said",
    [
        ("en", "Histogram ≥ 990, Variance-covariance ≥ 400, Decision tree ≥ 850"),
        ("ja", "ヒストグラム ≥ 990、分散共分散 ≥ 400、決定木 ≥ 850"),
    ],
)
def test_the_rules_tab_lists_2020_s_three_gates_in_the_reader_s_language(client, lang, said):
    # 2020 also asked for a questionnaire of the methods used: a second required file.
    files = {"required": ["D.csv", "methods.txt"], "only_required": True}
    config = {**CONFIG, "release_files": files}
    world = scorer_world(slug=f"amicg{lang}", config=config, build=False)
    client.force_login(world.users["a"])
    url = reverse("round_tab", args=[world.competition.slug, world.round.slug, "rules"])
    text = client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    found = re.search(r'data-testid="gates">(.*?)</p>', text, re.S)
    assert said in re.sub(r"<[^>]+>", "", found[1])
    separator = "、" if lang == "ja" else ", "
    assert f"<code>D.csv</code>{separator}<code>methods.txt</code>" in text
