"""The reference linkage attack on the platform (issue 47): stored beside the built-in
attacks' rates, shown in the attack matrix and beside the live rank, outside every 2015
score, and the final ranking's floor for a target no team attacked."""

import io

import numpy as np
import pandas as pd
import pytest
from django.urls import reverse

import scoring
from pwscup.core.templatetags.pwscup_tags import rate
from pwscup.kinds.tabs import RULES, SUBMIT, tab_url
from pwscup.pwscup2015.leaderboards.selectors import attack_matrix, final_ranking
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.pwscup.factories import freeze, scored, scored_attack
from tests.support import table_bytes

pytestmark = pytest.mark.django_db

REF = scoring.REFERENCE_ATTACK


def recoded_ages(original: bytes, *, seed: int = 1) -> bytes:
    """A release the built-in attacks underrate: each age recoded to the youngest age of its
    5-year band (an age of the column), every SA value moved by up to ±10 %."""
    table = pd.read_csv(io.BytesIO(original), dtype=str, keep_default_na=False)
    rng = np.random.default_rng(seed)
    ages = table["age"].astype(int).to_numpy()
    present = np.unique(ages)
    table["age"] = [str(present[(present // 5) == a // 5].min()) for a in ages]
    for column in ("fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"):
        values = table[column].astype(float).to_numpy()
        moved = np.round(values * rng.uniform(0.9, 1.1, values.size)).astype(int)
        table[column] = moved.astype(str)
    return table_bytes(table)


def test_uploads_and_targets_carry_it_beside_the_2015_rates(world):
    submission = scored(world, "a", content=recoded_ages(world.original))
    scored(world, "b", seed=2)
    builtin = max(submission.scores[m] for m in scoring.ATTACK_METRICS)
    assert submission.scores[REF] > 2 * builtin  # what the built-in attacks miss
    target = freeze(world)["a"]
    # The published target is shuffled: the same rate (the attack ignores the row order).
    assert target.builtin.rates[REF] == pytest.approx(submission.scores[REF], abs=1e-12)

    matrix = attack_matrix(round=world.round)
    assert f"builtin:{REF}" not in dict(matrix.attackers)  # not an attacker row ...
    assert matrix.reference[target.pk] == target.builtin.rates[REF]
    others = [v for k, v in target.builtin.rates.items() if k != REF]
    assert matrix.worst_case(target.pk) == max(others)  # ... nor in the worst case
    assert matrix.worst_case(target.pk) < target.builtin.rates[REF]


def test_the_matrix_page_and_its_csv_show_a_reference_line(world, client):
    scored(world, "a", content=recoded_ages(world.original))
    scored(world, "b", seed=2)
    targets = freeze(world)
    client.force_login(world.organizer)
    url = reverse("matrix", args=[world.competition.slug, world.round.slug])
    html = client.get(url).content.decode()
    line = html[html.index('data-testid="reference-attack"') :].split("</tr>")[0]
    for letter in "ab":
        assert f">{rate(targets[letter].builtin.rates[REF])}<" in line
    assert 'data-testid="reference-note"' in html
    csv = client.get(url + "?format=csv").content.decode()
    assert any(row.startswith("reference attack,") for row in csv.splitlines())


def test_the_live_rank_is_followed_by_the_reference_rate(make_world, client):
    world = make_world(leaderboard_public=True)
    submission = scored(world, "a", content=recoded_ages(world.original))
    client.force_login(world.users["a"])
    html = client.get(tab_url(world.round, SUBMIT)).content.decode()
    assert "Your current rank: <strong>1</strong>" in html
    shown = html[html.index('data-testid="reference-rate"') :].split("</p>")[0]
    assert f"<strong>{rate(submission.scores[REF])}</strong>" in shown
    assert "real attackers may do better" in shown
    japanese = client.get(tab_url(world.round, SUBMIT), HTTP_ACCEPT_LANGUAGE="ja")
    assert "参照攻撃" in japanese.content.decode()


def test_a_target_nobody_attacked_is_rated_no_lower_than_the_reference_attack(world):
    scored(world, "a", content=recoded_ages(world.original))
    scored(world, "b", content=recoded_ages(world.original, seed=2))
    targets = freeze(world)
    # Team C attacks A's target (and misses everything); nobody attacks B's.
    scored_attack(world, "c", targets["a"], np.zeros(targets["a"].rows, dtype=int))
    rows = {row.team.slug: row for row in final_ranking(round=world.round)[0]}

    rates_a = targets["a"].builtin.rates
    attacked = rows["teamA"]
    assert attacked.attacked and attacked.reference == rates_a[REF]
    # Attacked: the 2015 rule alone, over the team's attack and the built-in ones.
    assert attacked.safety == max(v for k, v in rates_a.items() if k != REF)
    assert attacked.safety < rates_a[REF]

    rates_b = targets["b"].builtin.rates
    alone = rows["teamB"]
    assert not alone.attacked
    assert max(v for k, v in rates_b.items() if k != REF) < rates_b[REF]
    assert alone.safety == rates_b[REF]  # the floor, not the built-in attacks' rate
    assert [r.team.slug for r in final_ranking(round=world.round)[0]][0] == "teamA"


def test_the_floor_under_the_mean_rule_too(world):
    Pwscup2015Round.objects.filter(round=world.round).update(ranking_rule="mean_attack")
    scored(world, "a", content=recoded_ages(world.original))
    targets = freeze(world)
    row = final_ranking(round=world.round)[0][0]
    rates = targets["a"].builtin.rates
    mean = sum(v for k, v in rates.items() if k != REF) / (len(rates) - 1)
    assert not row.attacked and row.safety == max(mean, rates[REF])


def test_the_rules_tab_states_the_algorithm_and_the_never_attacked_rule(world, client):
    client.force_login(world.users["a"])
    english = client.get(tab_url(world.round, RULES)).content.decode()
    assert 'data-testid="reference-attack-rules"' in english
    assert "a target that no team attacked is rated no lower than the reference" in english
    assert "rated no lower than the reference attack&#x27;s rate" in english  # the rule text
    japanese = client.get(tab_url(world.round, RULES), HTTP_ACCEPT_LANGUAGE="ja")
    text = japanese.content.decode()
    assert "参照攻撃" in text and "どのチームにも攻撃されなかった対象" in text


def test_the_api_gives_the_reference_line_and_which_releases_were_attacked(world, client):
    from pwscup.api.services import api_token_create

    scored(world, "a", content=recoded_ages(world.original))
    scored(world, "b", seed=2)
    targets = freeze(world)
    scored_attack(world, "c", targets["a"], np.zeros(targets["a"].rows, dtype=int))
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    token = api_token_create(user=world.users["c"], name="script").secret
    args = [world.competition.slug, world.round.slug]
    auth = {"HTTP_AUTHORIZATION": "Bearer " + token}
    matrix = client.get(reverse("api:matrix", args=args), **auth).json()
    by_slug = {t.team.slug: t for t in targets.values()}
    expected = [by_slug[t["slug"]].builtin.rates[REF] for t in matrix["targets"]]
    assert matrix["reference"] == expected and len(expected) == 2
    final = client.get(reverse("api:final", args=args), **auth).json()
    attacked = {row["team"]["slug"]: row["attacked"] for row in final["anonymization"]}
    assert attacked == {"teamA": True, "teamB": False}
