"""The public board of a scorer round (the setting ``public_columns``; PWSCup 2024's sample
anonymity shown during the phase): every team sees every team's counted release with the
public scores only, on the Results tab and in the API's round standings, until the results
are published; never another score, never a file."""

import datetime as dt
import html
import json

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.console.services import console_team_disqualify
from pwscup.kinds.tabs import RESULTS, RULES, tab_url
from pwscup.scorer.models import Release
from pwscup.submissions.models import Status
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.scorer_world import CONFIG, scorer_world

pytestmark = pytest.mark.django_db

COLUMNS = [
    {"key": "U", "label": "Utility", "label_ja": "有用性", "higher_is_better": True},
    {"key": "sample_A", "label": "Sample anonymity", "label_ja": "サンプル匿名性"},
    {"key": "secret_part", "label": "Secret part", "label_ja": "非公開部分"},
]
PUBLIC = {**CONFIG, "release_columns": COLUMNS, "public_columns": ["sample_A", "U"]}
SECRET = 0.31415  # a non-public score: never on the board
SECRET_TEXT = "0.3142"


def scored(world, letter, number, *, sample, utility, secret=SECRET, selected=False):
    return Release.objects.create(
        scorer=world.scorer,
        team=world.teams[letter],
        number=number,
        status=Status.FINISHED,
        selected=selected,
        scores={"U": utility, "sample_A": sample, "secret_part": secret},
    )


def results_page(world, user, language="en") -> str:
    browser = Client()
    browser.force_login(user)
    answer = browser.get(tab_url(world.round, RESULTS), HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    return answer.content.decode()


def board_html(page: str) -> str:
    return page.split('data-testid="public-board"')[1].split("</section>")[0]


def api_standings(world, user):
    secret = api_token_create(user=user, name="t").secret
    url = reverse("api:round-standings", args=[world.competition.slug, world.round.slug])
    return Client().get(url, HTTP_AUTHORIZATION=f"Bearer {secret}")


def board_table(answer) -> dict:
    return next(t for t in answer.json()["tables"] if t["title"] == "Public leaderboard")


def test_a_team_sees_another_teams_public_scores_and_not_its_others():
    world = scorer_world(slug="pubboard", letters="ab", config=PUBLIC, build=False)
    scored(world, "a", 1, sample=77.5, utility=87.25)
    scored(world, "b", 1, sample=90.0, utility=40.0, secret=0.27182)

    for language, label in (("en", "Sample anonymity"), ("ja", "サンプル匿名性")):
        page = results_page(world, world.users["b"], language)
        board = board_html(page)
        assert label in board.split("</thead>")[0]
        row = board.split('data-testid="public-board-teama"')[1].split("</tr>")[0]
        assert "77.5000" in row and "87.2500" in row
        # A's other score nowhere (B's own, on its own summary, is its own to see).
        assert SECRET_TEXT not in page
        assert "Secret part" not in board and "非公開部分" not in board
        # Ranked by the first public column (sample anonymity, higher is better): B first.
        assert board.index("public-board-teamb") < board.index("public-board-teama")

    browser = Client()
    browser.force_login(world.users["b"])
    rules = browser.get(tab_url(world.round, RULES)).content.decode()
    assert "Sample anonymity, Utility, ranked by Sample anonymity" in rules

    answer = api_standings(world, world.users["b"])
    assert answer.status_code == 200
    table = board_table(answer)
    assert table["columns"][:4] == ["Rank", "Team", "Sample anonymity", "Utility"]
    assert [row[:4] for row in table["rows"]] == [
        [1, "Team B", 90.0, 40.0],
        [2, "Team A", 77.5, 87.25],
    ]
    assert str(SECRET) not in answer.content.decode() and "secret_part" not in str(answer.json())


def test_with_no_public_column_no_board_is_shown():
    # The organizer makes "utility" public on the console's rules page, then no column.
    world = scorer_world(slug="noboard", letters="ab", build=False)
    Release.objects.create(
        scorer=world.scorer,
        team=world.teams["a"],
        number=1,
        status=Status.FINISHED,
        scores={"utility": 0.777777},
    )
    organizer = Client()
    organizer.force_login(world.organizer)
    url = reverse("scorer_console:rules", args=[world.competition.slug, world.round.slug])
    refused = post_as_rendered(organizer, url, "scorer-rules", {"public_columns": "utility, nope"})
    assert refused.status_code == 200
    said = html.unescape(refused.content.decode())
    assert "“Release scores every team sees during the phases (keys)” is 'nope'" in said
    for public, shown in (("utility", True), ("", False)):
        fill = {"public_columns": public}
        assert post_as_rendered(organizer, url, "scorer-rules", fill).status_code == 302
        world.round.refresh_from_db()
        assert world.round.config["public_columns"] == ([public] if public else [])
        page = results_page(world, world.users["b"])
        assert ('data-testid="public-board"' in page) is shown
        assert ("0.7778" in page) is shown
        assert (api_standings(world, world.users["b"]).status_code == 200) is shown


def test_the_board_follows_the_chosen_release_else_the_newest_scored():
    world = scorer_world(slug="chosenboard", letters="ab", config=PUBLIC, build=False)
    scored(world, "a", 1, sample=11.0, utility=1.0, selected=True)
    scored(world, "a", 2, sample=22.0, utility=2.0)
    scored(world, "b", 1, sample=33.0, utility=3.0)
    scored(world, "b", 2, sample=44.0, utility=4.0)

    rows = {row[1]: row[2] for row in board_table(api_standings(world, world.users["b"]))["rows"]}
    assert rows == {"Team A": 11.0, "Team B": 44.0}
    board = board_html(results_page(world, world.users["b"]))
    assert "11.0000" in board and "22.0000" not in board


def test_the_organizer_sees_the_same_board_and_a_disqualified_team_marked():
    world = scorer_world(slug="orgboard", letters="abc", config=PUBLIC, build=False)
    scored(world, "a", 1, sample=50.0, utility=5.0)
    scored(world, "b", 1, sample=60.0, utility=6.0)
    scored(world, "c", 1, sample=70.0, utility=7.0)
    console_team_disqualify(user=world.organizer, team=world.teams["c"], reason="Broke a rule.")

    team_board = board_html(results_page(world, world.users["a"]))
    assert "public-board-teamc" not in team_board
    organizer_page = results_page(world, world.organizer)
    assert "the teams see their own scores and the public leaderboard" in organizer_page
    organizer_board = board_html(organizer_page)
    for slug in ("teama", "teamb"):
        mine = team_board.split(f"public-board-{slug}")[1].split("</tr>")[0]
        theirs = organizer_board.split(f"public-board-{slug}")[1].split("</tr>")[0]
        assert mine.replace(' <span class="muted small">(you)</span>', "") == theirs
    disqualified = organizer_board.split("public-board-teamc")[1].split("</tr>")[0]
    assert "disqualified" in disqualified and "70.0000" in disqualified
    # Ranks close up over the disqualified team: B 1, A 2.
    assert team_board.index("public-board-teamb") < team_board.index("public-board-teama")
    api_rows = board_table(api_standings(world, world.organizer))["rows"]
    assert [row[:2] for row in api_rows] == [[1, "Team B"], [2, "Team A"], [None, "Team C"]]


def test_a_team_never_gets_another_teams_file_through_the_board():
    world = scorer_world(slug="fileboard", letters="ab", config=PUBLIC, build=False)
    other = scored(world, "a", 1, sample=77.5, utility=87.25)
    args = [world.competition.slug, world.round.slug, "releases", other.pk]
    file_url = reverse("scorer:upload_file", args=args)

    page = results_page(world, world.users["b"])
    answer = api_standings(world, world.users["b"])
    assert "77.5000" in board_html(page)
    assert file_url not in page and f"/releases/{other.pk}/" not in page
    assert f"/releases/{other.pk}" not in json.dumps(answer.json())
    browser = Client()
    browser.force_login(world.users["b"])
    assert browser.get(file_url).status_code == 404


def test_the_board_says_when_in_the_rounds_time_zone_as_the_results_tab_does():
    """The API's board gives the upload's moment in the round's time zone (the exact moment,
    to the second), and ``rows_text`` writes it as the client prints every other time
    (``2026-12-01 11:44 +09:00``), not as a raw UTC ISO string."""
    world = scorer_world(slug="pubwhen", letters="a", config=PUBLIC, build=False)
    release = scored(world, "a", 1, sample=77.5, utility=87.25)
    moment = dt.datetime(2026, 12, 1, 2, 44, 43, 373490, tzinfo=dt.UTC)
    Release.objects.filter(pk=release.pk).update(created_at=moment)
    world.round.timezone = "Asia/Tokyo"
    world.round.save(update_fields=["timezone"])

    table = board_table(api_standings(world, world.users["a"]))
    assert table["rows"][0][-1] == "2026-12-01T11:44:43+09:00"
    assert table["rows_text"][0][-1] == "2026-12-01 11:44 +09:00"
    page = results_page(world, world.users["a"])
    assert "2026-12-01 11:44" in board_html(page)
