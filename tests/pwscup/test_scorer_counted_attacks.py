"""Which attack upload counts (the round's ``attack_counts``: the best, the last or the chosen
one) and what the ranking program sees of the counted attacks: their scores on each target in
``standings.json`` (``attacks``) and their files under ``input/attacks/<attacker>/<upload>/``.
PWSCup 2025's anonymity, ``max(0, (members - max_j TP_ij) - (L - 1))``, is computed by a small
program of the tests (``membership_2025_program.py``) from the mounted answers; the numbers
are worked out by hand below. Three teams on eight rows, each upload covering every target;
the round is built once for the module (the jobs run in the real sandbox) and each test
changes its settings in its own transaction."""

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.core.errors import Refused
from pwscup.scorer import selectors, services
from pwscup.scorer.models import Attack
from tests.pwscup.membership_2025_world import CONFIG, membership_play, ranking_run
from tests.pwscup.scorer_world import scorer_world

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    from tests.support import flush_database

    with django_db_blocker.unblock():
        made = membership_play(scorer_world(slug="cnt", config=CONFIG, build=False))
    yield made
    with django_db_blocker.unblock():
        flush_database()


@pytest.fixture(autouse=True)
def settings_as_built(world):
    """Each test starts from the round's settings as built (a test's own change is rolled
    back with its transaction, but stays on the module's round object)."""
    world.round.config = dict(world.config)


def counting(world, rule: str) -> None:
    """The round counts ``rule`` (in the test's transaction)."""
    world.round.refresh_from_db()
    world.round.config = {**world.round.config, "attack_counts": rule}
    world.round.save(update_fields=["config"])


def test_the_ranking_program_computes_2025s_anonymity_from_the_counted_answers(world):
    # Each attacker's best upload counts: B's #1 on A and on C.
    # A: 5 members, max TP 3 (B); row 0 is hit by B and C, so L = 2: (5 - 3) - 1 = 1.
    # B: 5 members, max TP 2 (A); every member row hit once, L = 1: (5 - 2) - 0 = 3.
    # C: 5 members, max TP 2 (B); row 0 hit by A and B, L = 2: (5 - 2) - 1 = 2.
    assert ranking_run(world) == {
        "teama": {"release": 11.0, "attack": 3},
        "teamb": {"release": 23.0, "attack": 5},
        "teamc": {"release": 32.0, "attack": 2},
    }
    cells = services.standings_input(scorer=world.scorer)["attacks"]
    first_of_b = world.attacks[1]
    assert cells["teama"]["teamb"] == {"upload": first_of_b.pk, "scores": {"tp": 3}}
    assert cells["teamc"]["teamb"] == {"upload": first_of_b.pk, "scores": {"tp": 2}}


def test_the_ranking_program_reads_the_last_uploads_files_where_the_last_counts(world):
    counting(world, "last")
    # B's #3 counts: on A 2 (rows 0, 1), on C 0.
    # A: max TP 2 (B); row 0 hit by B and C, L = 2: (5 - 2) - 1 = 2.
    # C: max TP 1 (A); row 0 hit by A only, L = 1: (5 - 1) - 0 = 4.
    assert ranking_run(world) == {
        "teama": {"release": 12.0, "attack": 3},
        "teamb": {"release": 23.0, "attack": 2},
        "teamc": {"release": 34.0, "attack": 2},
    }


def b_cells(world) -> tuple:
    matrix = selectors.attack_matrix(scorer=world.scorer)
    return matrix["teama"]["teamb"], matrix["teamc"]["teamb"]


def test_the_best_upload_counts_by_default_and_where_the_best_counts(world):
    assert b_cells(world) == (3, 2)  # B #1
    counting(world, "best")
    assert b_cells(world) == (3, 2)


def test_the_newest_upload_counts_where_the_last_counts(world):
    counting(world, "last")
    assert b_cells(world) == (2, 0)  # B #3
    attackers = {
        row.team.slug: row.power for row in selectors.standings(scorer=world.scorer).attackers
    }
    assert attackers["teamb"] == 1.0  # the mean of 2 and 0


def test_the_chosen_upload_counts_where_the_team_chooses_else_its_newest(world):
    counting(world, "chosen")
    assert b_cells(world) == (2, 0)  # none chosen yet: the newest, B #3
    services.attack_select(attack=Attack.objects.get(pk=world.attacks[3].pk))
    assert b_cells(world) == (1, 1)  # B #2
    assert selectors.team_counted_attacks(scorer=world.scorer, team=world.teams["b"]) == {
        world.attacks[3].pk
    }


def test_an_attack_is_chosen_through_the_api_only_where_the_round_says_so(world):
    user = world.users["b"]
    headers = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}
    args = [world.competition.slug, world.round.slug]
    select = reverse("api:scorer-attack-select", args=[*args, world.attacks[3].pk])
    refused = Client().post(select, **headers)
    assert refused.status_code == 409, refused.content
    with pytest.raises(Refused):
        services.attack_select(attack=Attack.objects.get(pk=world.attacks[3].pk))
    counting(world, "chosen")
    chosen = Client().post(select, **headers)
    assert chosen.status_code == 200, chosen.content
    assert chosen.json()["final"] is True
    status = Client().get(reverse("api:round-status", args=args), **headers).json()
    kind = next(t for t in status["submission_types"] if t["key"] == "attack")
    assert kind["selectable"] is True
    assert "registered" in kind["counts"]
    finals = [u["number"] for u in status["uploads"] if u["type"] == "attack" and u["final"]]
    assert finals == [world.attacks[3].number]


def test_the_submit_tab_says_which_attack_counts_and_registers_the_chosen_one(world, client):
    args = [world.competition.slug, world.round.slug]
    submit = reverse("round_tab", args=[*args, "submit"])
    client.force_login(world.users["b"])
    best = client.get(submit).content.decode()
    assert "the best of a team&#x27;s scored attacks" in best
    assert 'data-testid="counts"' not in best and "attack-select-" not in best
    counting(world, "chosen")
    chosen = client.get(submit).content.decode()
    assert chosen.count('data-testid="counts"') == 1  # B #3, the newest
    assert "counts (newest scored)" in chosen
    assert all(f'data-testid="attack-select-{n}"' in chosen for n in (1, 2, 3))
    second = world.attacks[3]
    select = reverse("scorer:attack_select", args=[*args, second.pk])
    assert client.post(select).status_code == 302
    assert Attack.objects.get(pk=second.pk).selected
    after = client.get(submit).content.decode()
    assert "counts (chosen)" in after and 'data-testid="attack-select-2"' not in after
    other = reverse("scorer:attack_select", args=[*args, world.attacks[0].pk])  # Team A's
    assert client.post(other).status_code == 404
