"""What a synthetic round offering data packs says of them (the look-79 walk): a team's pick
is fixed at its first download (the kind's wording, not the core's "first upload"), the
organizer's card shows drawn and kept teams fixed, with no Change form, and a kept team's
refusal gives its own reason; a kept team reads a student's sentence and no "drawn from its
pack"; how many teams get rows of their own is counted per pack's population; large numbers
have thousands separators."""

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.competitions.choice_services import choices_set, organizer_choice_change
from pwscup.core.errors import Refused
from pwscup.synthetic import services
from scoring.synthetic.draws import disjoint_teams
from tests.pwscup.syn_world import SMALL, syn_world
from tests.pwscup.test_syn_choice import PACKS, add_team, adult_slice

pytestmark = pytest.mark.django_db

POPULATION_1 = adult_slice(0, 3000)
POPULATION_2 = adult_slice(10000, 5000)


def offer_packs(world) -> None:
    choices_set(user=world.organizer, round=world.round, rows=PACKS[:2])
    for key, table in (("p1", POPULATION_1), ("p2", POPULATION_2)):
        services.population_upload(
            synthetic=world.synthetic, key=key, table=table, filename=f"{key}.csv"
        )


@pytest.fixture
def late():
    """Teams A and B drawn from the original when the round was created, then packs p1
    (3,000 people) and p2 (5,000) offered, then team C joins."""
    world = syn_world(slug="synlook", letters="ab")
    offer_packs(world)
    add_team(world, "c")
    return world


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def data_tab(world, letter: str, language: str = "en") -> str:
    url = reverse("round_tab", args=[world.competition.slug, world.round.slug, "data"])
    return login(world.users[letter]).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def console(world, language: str = "en") -> str:
    url = reverse("console:round", args=[world.competition.slug, world.round.slug])
    return login(world.organizer).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def shown(page: str, name: str) -> str:
    """The text of the element ``data-testid=name`` up to its first closing tag."""
    return page.split(f'data-testid="{name}"', 1)[1].split(">", 1)[1].split("</", 1)[0]


def test_the_console_shows_kept_and_drawn_teams_fixed_without_a_change_form(late):
    services.team_draw(synthetic=late.synthetic, team=late.teams["c"])  # C: from p1
    page = console(late)
    for letter in "abc":
        slug = late.teams[letter].slug
        assert shown(page, f"data-choice-locked-{slug}") == "Yes"
        assert f'data-testid="data-choice-fixed-{slug}"' in page
        change = reverse(
            "console:round_choice_team",
            args=[late.competition.slug, late.round.slug, late.teams[letter].pk],
        )
        assert f'action="{change}"' not in page
    assert "nobody can change it" in page and "locked at its first upload" not in page
    # A kept team's refusal says where its rows come from (no empty pack "-").
    with pytest.raises(Refused) as refused:
        organizer_choice_change(
            user=late.organizer, round=late.round, team=late.teams["a"], key="p2"
        )
    assert "drawn from the round's original table before the data packs" in refused.value.message
    assert " - " not in refused.value.message and "downloaded or uploaded" not in (
        refused.value.message
    )


def test_the_console_still_offers_a_change_for_a_team_not_drawn(late):
    page = console(late)
    change = reverse(
        "console:round_choice_team",
        args=[late.competition.slug, late.round.slug, late.teams["c"].pk],
    )
    assert f'action="{change}"' in page
    assert shown(page, f"data-choice-locked-{late.teams['c'].slug}") == "No"


def test_the_data_tab_says_the_first_download_fixes_the_pick(late):
    page = data_tab(late, "c")
    assert "locked at the team&#x27;s first upload" not in shown(page, "data-choice-rule")
    assert "first download of its members table or its starter kit" in page
    note = shown(page, "data-choice-form-note")
    assert "first download of its members table or its starter kit" in note
    japanese = data_tab(late, "c", "ja")
    assert "メンバーテーブルかスターターキットを最初にダウンロードした時点で確定" in japanese
    assert "データパック</legend>" in japanese
    # After the first download: fixed, not "has uploaded", and not the organizers' to change.
    services.team_draw(synthetic=late.synthetic, team=late.teams["c"])
    locked = shown(data_tab(late, "c"), "data-choice-locked")
    assert "has uploaded" not in locked and "Ask the organizers" not in locked
    assert "first download" in locked and "cannot change" in locked


def test_a_kept_team_reads_a_student_sentence_and_not_drawn_from_its_pack(late):
    page = data_tab(late, "a")
    kept = shown(page, "data-choice-kept")
    assert kept == (
        "Your team plays on the round&#x27;s original table (it was drawn before the data "
        "packs were offered); the packs below are for teams that joined later."
    )
    assert 'data-testid="packs-team"' not in page
    assert "drawn from the population of its pack" not in page
    japanese = shown(data_tab(late, "a", "ja"), "data-choice-kept")
    assert japanese.startswith("あなたのチームは元のテーブルで競います")
    # A team that joined after the packs reads where its rows come from.
    assert 'data-testid="packs-team"' in data_tab(late, "c")
    # The organizer's card: one colon, and the warning names the teams in parentheses.
    card = console(late)
    assert "offered; its rows stay" in card
    assert "The data of 2 teams (Team A, Team B) stays as it is" in card


def capacity(rows: int) -> int:
    sizes = {key: SMALL[key] for key in ("n_holdout", "n_aux", "n_train", "n_challenge")}
    return disjoint_teams(rows, **sizes)


def test_teams_with_rows_of_their_own_are_counted_per_pack_population(late):
    assert capacity(3000) != capacity(5000)  # the original (3,000 rows) counts as p1
    page = data_tab(late, "c")
    assert shown(page, "pack-capacity-p2") == f", rows of their own for {capacity(5000)} teams"
    assert shown(page, "pack-capacity-p1") == f", rows of their own for {capacity(3000)} teams"
    assert "5,000 people" in page
    assert "The table holds" not in shown(page, "disjoint")
    panel = console(late)
    assert f"{capacity(5000)} teams</li>" in panel.split('data-testid="syn-capacity-p2"')[1]
    assert "The table holds" not in panel.split('data-testid="syn-capacity"')[1][:400]
    assert "5,000 rows" in panel and "3,000 rows" in panel


def test_the_japanese_pick_confirmation_says_the_pick_was_made():
    world = syn_world(slug="synpick", letters="")
    offer_packs(world)
    add_team(world, "a")
    client = login(world.users["a"])
    action = reverse("data_choice", args=[world.competition.slug, world.round.slug])
    page = client.post(
        action, {"choice": "p2"}, follow=True, HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "チームのデータを 母集団 2 にしました。" in page
