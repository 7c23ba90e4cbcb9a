"""A synthetic round offering a data choice (issue 50, point 4; PWSCup 2025: three candidate
populations): one population per pack, uploaded by the organizer and checked like the
round's original; a team is drawn from its pack's population the first time it needs its
data (not when it joins), and that draw locks its pick; every table a team gets, every score
and every attack on a target uses that target's population; a pack without a population
refuses its teams' downloads; the organizer cannot move a drawn team to another pack; a
bundle keeps each pack's population."""

import io

import numpy as np
import pandas as pd
import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.api.services import api_token_create
from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions.choice_selectors import team_pick
from pwscup.competitions.choice_services import (
    choices_set,
    organizer_choice_change,
    team_choice_set,
)
from pwscup.competitions.models import AuditEntry
from pwscup.core.errors import Refused
from pwscup.kinds.archives import ORIGINAL
from pwscup.kinds.registry import kind_of
from pwscup.submissions.models import Status
from pwscup.synthetic import engine, services
from pwscup.synthetic.api import files
from pwscup.synthetic.models import SynPopulation, SyntheticRound, TeamDraw
from tests.pwscup.bundle_helpers import START, creator, manifest_of, members_of
from tests.pwscup.syn_world import (
    ADULT,
    attack,
    baseline_release,
    freeze,
    open_attack_phase,
    release,
    syn_world,
    upload_file,
)

pytestmark = pytest.mark.django_db

PACKS = [
    {"key": "p1", "label": "Population 1", "label_ja": "母集団 1"},
    {"key": "p2", "label": "Population 2", "label_ja": "母集団 2"},
    {"key": "p3", "label": "Population 3", "label_ja": ""},
]


def adult_slice(first: int, rows: int) -> bytes:
    """The header and Adult's data rows ``first`` … ``first + rows - 1`` (0-based)."""
    lines = ADULT.read_bytes().splitlines(keepends=True)
    return lines[0] + b"".join(lines[1 + first : 1 + first + rows])


POPULATION_1 = adult_slice(0, 3000)
POPULATION_2 = adult_slice(10000, 3000)


def raw(table: bytes) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(table), skipinitialspace=True)


def add_team(world, letter: str):
    team = team_create(
        competition=world.competition, name=f"Team {letter.upper()}", slug=f"team{letter.upper()}"
    )
    world.teams[letter] = team
    world.users[letter] = user_create(username=f"{world.competition.slug}-{letter}", password="pw")
    membership_add(team=team, user=world.users[letter])
    kind_of(world.round).teams_changed(world.round)
    return team


@pytest.fixture
def world():
    """A round offering packs p1 and p2 (each with its population) and p3 (none yet);
    teams A, B, C join after the packs are offered."""
    world = syn_world(slug="synchoice", letters="")
    choices_set(user=world.organizer, round=world.round, rows=PACKS)
    for key, table in (("p1", POPULATION_1), ("p2", POPULATION_2)):
        services.population_upload(
            synthetic=world.synthetic,
            key=key,
            table=table,
            filename=f"{key}.csv",
            user=world.organizer,
        )
    for letter in "abc":
        add_team(world, letter)
    return world


def client_of(world, letter: str) -> Client:
    client = Client()
    client.force_login(world.users[letter])
    return client


def url(world, name: str) -> str:
    return reverse(f"synthetic:{name}", args=[world.competition.slug, world.round.slug])


def data_tab(world) -> str:
    return reverse("round_tab", args=[world.competition.slug, world.round.slug, "data"])


def test_a_team_joining_a_round_with_packs_is_not_drawn_until_it_needs_its_data(world):
    assert not TeamDraw.objects.filter(synthetic=world.synthetic).exists()
    page = client_of(world, "a").get(data_tab(world)).content.decode()
    assert 'data-testid="draw-locks-choice"' in page
    assert "Downloading your data locks your choice" in page


def test_members_come_from_the_picked_pack_and_the_first_download_locks_the_pick(world):
    team_choice_set(user=world.users["a"], round=world.round, team=world.teams["a"], key="p2")
    answer = client_of(world, "a").get(url(world, "train"))
    assert answer.status_code == 200
    draw_a = TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams["a"])
    assert draw_a.choice_key == "p2"
    downloaded = pd.read_csv(io.BytesIO(answer.content))
    expected = raw(POPULATION_2).iloc[draw_a.members].reset_index(drop=True)
    assert len(downloaded) == len(draw_a.members) == 300
    for column in ("age", "fnlwgt", "hours-per-week"):
        assert downloaded[column].tolist() == expected[column].tolist()
    assert downloaded["education"].tolist() == expected["education"].str.strip().tolist()
    # The rows are Adult's 10,000th and later: not the first population's.
    assert (
        downloaded["fnlwgt"].tolist() != raw(POPULATION_1).iloc[draw_a.members]["fnlwgt"].tolist()
    )
    pick = team_pick(round=world.round, team=world.teams["a"])
    assert (pick.choice.key, pick.locked) == ("p2", True)
    with pytest.raises(Refused) as refused:
        team_choice_set(user=world.users["a"], round=world.round, team=world.teams["a"], key="p1")
    assert refused.value.code == "choice_locked"
    page = client_of(world, "a").get(data_tab(world)).content.decode()
    assert 'data-testid="draw-locks-choice"' not in page
    assert 'data-testid="data-choice-locked"' in page


def test_a_team_that_did_not_pick_is_drawn_from_the_first_pack_at_its_first_upload(world):
    kept = release(world, "b", baseline_release(world, "b"))
    assert kept.status == Status.FINISHED, kept.message_text
    draw_b = TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams["b"])
    assert draw_b.choice_key == "p1"
    pick = team_pick(round=world.round, team=world.teams["b"])
    assert (pick.choice.key, pick.locked) == ("p1", True)
    pack = engine.draw_population(world.synthetic, draw_b)
    stored = SynPopulation.objects.get(synthetic=world.synthetic, choice_key="p1")
    assert pack.holdout == stored.holdout and pack.aux == stored.aux
    members = engine.rows_of(pack.population, draw_b.members)
    expected = raw(POPULATION_1).iloc[draw_b.members].reset_index(drop=True)
    assert members["fnlwgt"].tolist() == expected["fnlwgt"].tolist()
    # Each population has its own holdout and auxiliary table, none the round's original's.
    other = SynPopulation.objects.get(synthetic=world.synthetic, choice_key="p2")
    assert stored.holdout != other.holdout
    assert stored.holdout != world.synthetic.holdout or stored.aux != world.synthetic.aux


def test_draws_are_disjoint_within_a_population_not_across(world):
    team_choice_set(user=world.users["a"], round=world.round, team=world.teams["a"], key="p2")
    team_choice_set(user=world.users["c"], round=world.round, team=world.teams["c"], key="p2")
    for letter in "abc":
        services.team_draw(synthetic=world.synthetic, team=world.teams[letter])
    draws = {d.team_id: d for d in TeamDraw.objects.filter(synthetic=world.synthetic)}
    a, b, c = (draws[world.teams[x].pk] for x in "abc")
    assert (a.choice_key, b.choice_key, c.choice_key) == ("p2", "p1", "p2")
    assert not set(a.members + a.nonmembers) & set(c.members + c.nonmembers)
    holdout_2 = set(SynPopulation.objects.get(choice_key="p2").holdout)
    assert not set(a.members) & holdout_2


def test_an_attack_on_a_target_is_scored_against_its_own_population(world):
    team_choice_set(user=world.users["a"], round=world.round, team=world.teams["a"], key="p2")
    for letter in "ab":
        assert release(world, letter, baseline_release(world, letter)).status == Status.FINISHED
    targets = freeze(world)
    open_attack_phase(world)
    target_a = targets["teamA"]
    assert target_a.status == Status.FINISHED, target_a.message_text
    assert set(target_a.builtin) >= {"dcr", "density", "null"}
    draw_a = TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams["a"])
    challenge = pd.read_csv(io.StringIO(files.challenge_csv(target=target_a)))
    expected = raw(POPULATION_2).iloc[draw_a.challenge].reset_index(drop=True)
    assert challenge["fnlwgt"].tolist() == expected["fnlwgt"].tolist()
    # An answer that knows team A's membership labels reaches TPR 1 on both halves; one
    # that knows them reversed reaches 0: the truth is population 2's draw.
    labels = np.asarray(draw_a.labels)
    ids = np.arange(1, len(labels) + 1)
    perfect = pd.DataFrame({"id": ids, "score": labels.astype(float)})
    scored = attack(world, "b", target_a, perfect.to_csv(index=False).encode())
    assert scored.status == Status.FINISHED, scored.message_text
    headline = engine.round_config(world.round).headline
    assert scored.dev[headline] == 1.0
    reversed_ = pd.DataFrame({"id": ids, "score": 1.0 - labels})
    wrong = attack(world, "b", target_a, reversed_.to_csv(index=False).encode())
    assert wrong.dev[headline] == 0.0
    # The auxiliary table an attacker gets for A's target is population 2's.
    aux = client_of(world, "b").get(url(world, "aux") + "?pack=p2")
    assert aux.status_code == 200
    assert aux["Content-Disposition"].endswith('p2.aux.csv"')
    got = pd.read_csv(io.BytesIO(aux.content))
    stored = SynPopulation.objects.get(choice_key="p2")
    assert got["fnlwgt"].tolist() == raw(POPULATION_2).iloc[stored.aux]["fnlwgt"].tolist()
    assert client_of(world, "b").get(url(world, "aux") + "?pack=nope").status_code == 404


def test_a_pack_without_a_population_refuses_its_teams_download(world):
    team_choice_set(user=world.users["c"], round=world.round, team=world.teams["c"], key="p3")
    answer = client_of(world, "c").get(url(world, "train"), follow=True)
    assert answer.redirect_chain and answer.status_code == 200
    assert "have not uploaded the population of the data pack p3" in answer.content.decode()
    assert not TeamDraw.objects.filter(team=world.teams["c"]).exists()
    assert not team_pick(round=world.round, team=world.teams["c"]).locked
    missing = kind_of(world.round).missing_phases(world.round)
    assert any("p3" in label for label in missing)
    organizer = Client()
    organizer.force_login(world.organizer)
    console = organizer.get(
        reverse("console:round", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    assert 'data-testid="syn-population-p3"' in console
    assert "population missing" in console


def test_the_organizer_uploads_a_population_checked_like_the_original(world):
    organizer = Client()
    organizer.force_login(world.organizer)
    post = reverse("synthetic_console:population", args=[world.competition.slug, world.round.slug])
    wrong = adult_slice(0, 3000).replace(b"hours-per-week", b"hours", 1)
    answer = organizer.post(
        post, {"choice": "p3", "table": upload_file(wrong, "p3.csv")}, follow=True
    )
    assert "columns missing: hours-per-week" in answer.content.decode()
    bad_value = adult_slice(0, 3000).replace(b"\n39,", b"\nold,", 1)
    answer = organizer.post(
        post, {"choice": "p3", "table": upload_file(bad_value, "p3.csv")}, follow=True
    )
    assert not SynPopulation.objects.filter(choice_key="p3").exists()
    assert "age" in answer.content.decode() and "old" in answer.content.decode()
    answer = organizer.post(
        post, {"choice": "p3", "table": upload_file(adult_slice(5000, 3000), "p3.csv")}
    )
    assert answer.status_code == 302
    stored = SynPopulation.objects.get(synthetic=world.synthetic, choice_key="p3")
    assert stored.rows == 3000
    assert AuditEntry.objects.filter(round=world.round, detail__population="p3").exists()
    # A pack a team has drawn from keeps its population.
    services.team_draw(synthetic=world.synthetic, team=world.teams["b"])
    with pytest.raises(ValidationError) as refused:
        services.population_upload(
            synthetic=world.synthetic, key="p1", table=POPULATION_2, filename="p1.csv"
        )
    assert "already drew" in " ".join(refused.value.messages)


def test_the_organizer_cannot_move_a_drawn_team_but_can_move_one_not_drawn(world):
    services.team_draw(synthetic=world.synthetic, team=world.teams["a"])
    with pytest.raises(Refused) as refused:
        organizer_choice_change(
            user=world.organizer, round=world.round, team=world.teams["a"], key="p2"
        )
    assert refused.value.code == "choice_drawn"
    assert "p1" in refused.value.message
    assert team_pick(round=world.round, team=world.teams["a"]).choice.key == "p1"
    assert organizer_choice_change(
        user=world.organizer, round=world.round, team=world.teams["c"], key="p2"
    )
    entry = AuditEntry.objects.filter(round=world.round, detail__team="Team C").latest("pk")
    assert entry.detail["data_choice"] == "- → p2"
    services.team_draw(synthetic=world.synthetic, team=world.teams["c"])
    assert TeamDraw.objects.get(team=world.teams["c"]).choice_key == "p2"


def test_a_round_without_packs_draws_at_join_from_its_original():
    world = syn_world(slug="synnochoice", letters="ab")
    draws = TeamDraw.objects.filter(synthetic=world.synthetic)
    assert draws.count() == 2 and {d.choice_key for d in draws} == {""}
    add_team(world, "c")
    draw_c = TeamDraw.objects.get(team=world.teams["c"])
    pack = engine.team_population(world.synthetic, world.teams["c"])
    assert pack.key == "" and pack.holdout == world.synthetic.holdout
    assert pack.population is engine.round_population(world.round)
    assert draw_c.choice_key == ""
    assert kind_of(world.round).choice_change_refusal(world.round, world.teams["c"])


def test_a_bundle_keeps_each_packs_population(world):
    exported = competition_export(competition=world.competition, user=world.organizer)
    (entry,) = manifest_of(exported)["rounds"]
    assert {"original.csv", "p1.population.csv", "p2.population.csv"} <= set(entry["files"])
    copy = competition_import(
        bundle_file=io.BytesIO(exported),
        name="",
        slug="synchoice-2",
        start=START,
        user=creator(world.organizer),
    )
    (round_,) = copy.rounds.all()
    synthetic = SyntheticRound.objects.get(round=round_)
    stored = {p.choice_key: p for p in SynPopulation.objects.filter(synthetic=synthetic)}
    assert set(stored) == {"p1", "p2"}
    originals = {p.choice_key: p for p in world.synthetic.populations.all()}
    for key in ("p1", "p2"):
        assert stored[key].sha256 == originals[key].sha256
        assert stored[key].holdout != originals[key].holdout  # a new seed: new draws
    assert [c.key for c in round_.data_choices.order_by("order")] == ["p1", "p2", "p3"]
    again = competition_export(competition=copy, user=world.organizer)
    assert members_of(again).keys() == members_of(exported).keys()


def api_get(world, letter: str, name: str, query: str = ""):
    token = api_token_create(user=world.users[letter], name="t").secret
    address = reverse(name, args=[world.competition.slug, world.round.slug]) + query
    return Client().get(address, HTTP_AUTHORIZATION=f"Bearer {token}")


def test_the_api_draws_at_the_first_members_download_and_refuses_a_pack_without_population(
    world,
):
    status = api_get(world, "a", "api:round-status").json()
    assert "teamA_train.csv" in {d["name"] for d in status["downloads"]}
    team_choice_set(user=world.users["a"], round=world.round, team=world.teams["a"], key="p2")
    members = api_get(world, "a", "api:syn-members")
    assert members.status_code == 200
    draw_a = TeamDraw.objects.get(team=world.teams["a"])
    got = pd.read_csv(io.BytesIO(members.content))
    assert got["fnlwgt"].tolist() == raw(POPULATION_2).iloc[draw_a.members]["fnlwgt"].tolist()
    assert team_pick(round=world.round, team=world.teams["a"]).locked
    team_choice_set(user=world.users["c"], round=world.round, team=world.teams["c"], key="p3")
    refused = api_get(world, "c", "api:syn-members")
    assert refused.status_code == 409
    assert refused.json()["code"] == "population_missing"
    assert not TeamDraw.objects.filter(team=world.teams["c"]).exists()


def test_the_archive_holds_each_population_and_its_auxiliary_table(world):
    team_choice_set(user=world.users["a"], round=world.round, team=world.teams["a"], key="p2")
    for letter in "ab":
        release(world, letter, baseline_release(world, letter))
    freeze(world)
    services.results_publish(synthetic=world.synthetic)
    world.synthetic.refresh_from_db()
    members = {
        m.name: m
        for m in kind_of(world.round).archive_members(world.round, secrets=frozenset({ORIGINAL}))
    }
    assert {"p1.aux.csv", "p2.aux.csv"} <= set(members)
    assert "aux.csv" not in members
    assert members["populations/p2.population.csv"].content == POPULATION_2
    holdout = pd.read_csv(io.BytesIO(members["populations/p2.holdout.csv"].content))
    stored = SynPopulation.objects.get(choice_key="p2")
    assert holdout["fnlwgt"].tolist() == raw(POPULATION_2).iloc[stored.holdout]["fnlwgt"].tolist()
    assert "populations/p3.population.csv" not in members


def test_the_admin_lists_each_population_read_only_without_its_rows(world, django_user_model):
    admin_user = django_user_model.objects.create_superuser("syn-pop-admin", "p@example.org", "pw")
    client = Client()
    client.force_login(admin_user)
    population = SynPopulation.objects.get(synthetic=world.synthetic, choice_key="p2")
    listing = client.get(reverse("admin:synthetic_synpopulation_changelist"))
    page = client.get(reverse("admin:synthetic_synpopulation_change", args=[population.pk]))
    assert listing.status_code == 200 and page.status_code == 200
    assert population.sha256 in page.content.decode()
    # No row of the population: a value only its rows hold (an fnlwgt of row 10,000 on).
    fnlwgt = str(raw(POPULATION_2)["fnlwgt"].iloc[0])
    assert fnlwgt not in page.content.decode() and fnlwgt not in listing.content.decode()
    assert b"_save" not in page.content


def test_packs_offered_after_the_teams_were_drawn_say_the_teams_keep_the_original():
    """The finding: a round created with its teams (each drawn from the original), then
    packs offered. The Data tab, the API and the organizer's card say those teams keep the
    original's rows; a pick is refused (it would change nothing); a team joining later is
    drawn from its pack."""
    world = syn_world(slug="synlate", letters="ab")
    choices_set(user=world.organizer, round=world.round, rows=PACKS[:2])
    page = client_of(world, "a").get(data_tab(world)).content.decode()
    assert 'data-testid="data-choice-kept"' in page
    assert "the round&#x27;s original table (it was drawn before the data packs" in page
    assert "until it does, its downloads" not in page
    assert 'data-testid="data-choice-form"' not in page
    status = api_get(world, "a", "api:round-status").json()["data_choice"]
    assert status["choice"] is None and status["locked"] is True
    assert "original table" in status["kept"]
    with pytest.raises(Refused) as refused:
        team_choice_set(user=world.users["a"], round=world.round, team=world.teams["a"], key="p2")
    assert refused.value.code == "choice_kept"
    members = api_get(world, "a", "api:syn-members")
    draw_a = TeamDraw.objects.get(team=world.teams["a"])
    assert members.status_code == 200 and draw_a.choice_key == ""
    organizer = Client()
    organizer.force_login(world.organizer)
    console = organizer.get(
        reverse("console:round", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    warning = console.split('data-testid="round-data-choice-kept">')[1].split("</p>")[0]
    assert "The data of 2 teams (Team A, Team B) stays as it is" in warning
    assert world.teams["a"].name in warning and world.teams["b"].name in warning
    assert 'data-testid="data-choice-kept-' in console
    add_team(world, "c")
    page_c = client_of(world, "c").get(data_tab(world)).content.decode()
    assert 'data-testid="data-choice-kept"' not in page_c
    assert 'data-testid="data-choice-form"' in page_c
