"""The competition page: each round's schedule as its kind describes it, and only links the
visitor may follow."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from pwscup.dp.services import dp_round_create, dp_round_score, dp_round_window_set
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015.services.operations import round_results_set
from pwscup.sequential.services import results_publish, schedule_set, sequential_round_create
from tests.pwscup.dp_world import TOY_CONFIG, toy_csv
from tests.pwscup.factories import freeze, scored
from tests.pwscup.seq_web_world import fixture, fixture_config, upload_file

pytestmark = pytest.mark.django_db

HOUR = dt.timedelta(hours=1)


@pytest.fixture
def rounds(world):
    """The test world's anonymize-then-attack round, an open DP round and an open
    sequential round (two releases, the first closing tomorrow) in one competition."""
    now = timezone.now().replace(second=0, microsecond=0)
    dp_round = dp_round_create(
        basics=RoundBasics(competition=world.competition, name="DP round", slug="dp"),
        table=toy_csv(),
        table_filename="hidden.csv",
        config_raw=TOY_CONFIG,
        opens_at=now - HOUR,
        closes_at=now + 48 * HOUR,
    )
    sequential = sequential_round_create(
        basics=RoundBasics(competition=world.competition, name="Sequential round", slug="s1"),
        config=fixture_config("zhang_config.json"),
        master_file=upload_file(fixture("zhang_master.csv"), "master.csv"),
    )
    schedule_set(sequential=sequential, first_close=now + 24 * HOUR, step_length=24 * HOUR)
    return {"world": world, "dp": dp_round, "sequential": sequential, "now": now}


def _local(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")  # rounds in Asia/Tokyo


def _text(html: str) -> str:
    """The words of ``html``, its tags left out (a date and its time are two spans)."""
    return re.sub(r"<[^>]+>", "", html)


def _round_section(html: str, slug: str) -> str:
    start = html.index(f'data-testid="round-{slug}"')
    return html[start : html.find("</section>", start)]


def test_open_dp_and_sequential_rounds_show_their_schedule(client, rounds):
    world, now = rounds["world"], rounds["now"]
    html = client.get(reverse("competition_detail", args=[world.competition.slug])).content
    html = html.decode()
    dp = _round_section(html, "dp")
    assert "No phase has been scheduled yet." not in dp
    assert "Release phase" in dp and "state-open" in dp
    assert _local(now - HOUR) in _text(dp) and _local(now + 48 * HOUR) in _text(dp)
    sequential = _round_section(html, "s1")
    assert "No phase has been scheduled yet." not in sequential
    cell = r'<td role="cell">(.*?)</td>'
    rows = re.findall(rf'<tr role="row">{cell}{cell}{cell}', sequential)
    assert [tuple(_text(part) for part in row) for row in rows] == [
        ("Release 1", "—", f"{_local(now + 24 * HOUR)} JST"),
        ("Release 2", "—", f"{_local(now + 48 * HOUR)} JST"),
    ]
    assert "state-open" in sequential and "state-upcoming" in sequential
    # The first kind keeps its phases.
    first = _round_section(html, world.round.slug)
    assert "Anonymization phase" in first and "Attack phase" in first


def _links(html: str) -> list[str]:
    hrefs = set(re.findall(r'href="([^"]+)"', html))
    return sorted(h for h in hrefs if h.startswith("/") and not h.startswith("/static/"))


def _assert_every_link_opens(client, competition) -> list[str]:
    client.logout()
    html = client.get(reverse("competition_detail", args=[competition.slug])).content.decode()
    links = _links(html)
    for url in links:
        assert client.get(url).status_code == 200, url
    return links


def test_a_visitor_can_open_every_link_of_the_competition_page(client, rounds):
    world = rounds["world"]
    c = world.competition.slug
    seq_board = reverse("sequential:leaderboard", args=[c, "s1"])
    before = _assert_every_link_opens(client, world.competition)
    assert seq_board not in before  # not published: teams and organizers only
    assert reverse("round_detail", args=[c, "s1"]) in before
    # Every round's results published (the DP round's once closed and scored).
    round_results_set(round=world.round, published=True)
    results_publish(sequential=rounds["sequential"], published=True)
    dp_round = rounds["dp"]
    dp_round_window_set(
        dp_round=dp_round,
        opens_at=timezone.now() - 2 * HOUR,
        closes_at=timezone.now() - dt.timedelta(minutes=1),
    )
    dp_round_score(dp_round=dp_round)
    after = _assert_every_link_opens(client, world.competition)
    assert seq_board in after
    assert reverse("final_ranking", args=[c, world.round.slug]) in after
    assert reverse("dp:leaderboard", args=[c, "dp"]) in after


def test_a_frozen_phase_shows_its_real_close_and_its_plan(client, world):
    """The 2015 freeze ends the anonymization phase: its row reads the freeze as its close,
    beside "closed", and the planned close apart (the API's status says the same)."""
    scored(world, "a", seed=1)
    planned = world.anonymization.closes_at
    freeze(world)
    html = client.get(reverse("competition_detail", args=[world.competition.slug])).content
    first = _round_section(html.decode(), world.round.slug)
    cell = r'<td role="cell">(.*?)</td>'
    rows = re.findall(rf'<tr role="row">{cell}{cell}{cell}', first, re.S)
    closes = _text(rows[0][2])
    frozen_at = world.round.pwscup2015.frozen_at
    assert closes.startswith(f"{_local(frozen_at)} JST")
    assert closes.endswith(f"(planned: {_local(planned)} JST)")
    assert "planned" not in _text(rows[1][2])  # the attack phase keeps its plan
