"""Per-team masters drawn from a pool after the first draw: a team that joins later gets its
own master from what the pool has left (the kind's team hook), the console's "redraw the
masters" is confirmed on the console's confirmation page and redraws only the teams that
have uploaded nothing, and what goes wrong (the pool has too few persons left) is said in
the page's language."""

import html

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from pwscup.accounts.services import team_create, user_create
from pwscup.competitions.services import competition_create
from pwscup.sequential import demo, engine, services
from pwscup.sequential.models import Master
from tests.pwscup.seq_web_world import fixture_config, publish, seq_world, tab, url

pytestmark = pytest.mark.django_db


def pool_csv(persons: int) -> bytes:
    rng = np.random.default_rng(0)
    values = ["flu", "gastritis", "dyspepsia", "bronchitis"]
    rows = [
        f"P{i},{rng.integers(20, 70)},{rng.integers(10, 50) * 1000},{values[i % 4]}"
        for i in range(persons)
    ]
    return ("pid,Age,Zip,Disease\n" + "\n".join(rows) + "\n").encode()


def pool_world(slug: str, *, persons: int = 400, turnover: float = 0.25):
    config = {
        **fixture_config("zhang_config.json"),
        "n_releases": 3,
        "per_team": {"pool": "pool.csv", "size": 40, "turnover": turnover, "seed": 7},
    }
    return seq_world(slug=slug, config=config, master=None, pool=pool_csv(persons))


def late_team(world, name: str = "Team Late"):
    student = user_create(username=f"{world.competition.slug}-late", password="pw")
    team = team_create(competition=world.competition, name=name, captain=student)
    return team, student


def pids_of(master: Master) -> set[str]:
    return set(services.master_frame(master=master).frame["pid"])


def page_text(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def redraw_url(world) -> str:
    return reverse(
        "console:round_action", args=[world.competition.slug, world.round.slug, "redraw"]
    )


def test_a_team_joining_after_the_draw_gets_its_own_master_and_downloads_it(client):
    world = pool_world("late1")
    before = {m.team_id: (m.pk, m.sha256, pids_of(m)) for m in world.sequential.masters.all()}
    assert len(before) == 3
    team, student = late_team(world)
    mine = Master.objects.get(sequential=world.sequential, team=team)
    assert mine.drawn and mine.persons >= 40
    for _pk, _sha, pids in before.values():
        assert not (pids & pids_of(mine))
    # The others keep theirs.
    after = {m.team_id: (m.pk, m.sha256, pids_of(m)) for m in world.sequential.masters.all()}
    assert {k: v for k, v in after.items() if k != team.pk} == before
    client.force_login(student)
    with CaptureQueriesContext(connection) as captured:
        page = page_text(client.get(tab(world, "data")))
    assert 'data-testid="download-master"' in page and 'data-testid="no-master"' not in page
    # The tab knows the team's master, and that the pool was not short for it, from one read.
    masters_read = [q for q in captured if 'FROM "sequential_master"' in q["sql"]]
    assert len(masters_read) == 1, masters_read
    download = client.get(url(world, "sequential:master"))
    assert download.status_code == 200
    body = b"".join(download) if download.streaming else download.content
    # The persons seen so far (online mode hides the future), all of them the team's own.
    downloaded = set(engine.pool_read(body, {})["pid"])
    assert len(downloaded) >= 40 and downloaded <= pids_of(mine)


def test_when_the_pool_has_too_few_persons_left_the_team_and_the_organizer_are_told(client):
    # Turnover 0: each master holds exactly 40 persons; 3 × 40 of 130 leaves 10.
    world = pool_world("late2", persons=130, turnover=0)
    team, student = late_team(world)
    assert not Master.objects.filter(sequential=world.sequential, team=team).exists()
    client.force_login(student)
    page = page_text(client.get(tab(world, "data"), HTTP_ACCEPT_LANGUAGE="ja"))
    assert "プールに残っている人数が足りず" in page
    page = page_text(client.get(tab(world, "data"), HTTP_ACCEPT_LANGUAGE="en"))
    assert "the pool has too few persons left to draw a master table for it" in page
    client.force_login(world.organizer)
    console = reverse("console:round", args=[world.competition.slug, world.round.slug])
    page = page_text(client.get(console, HTTP_ACCEPT_LANGUAGE="ja"))
    assert 'data-testid="pool-left-short"' in page and "Team Late" in page
    assert "プールに残っている人数が足りません" in page


def test_the_pool_too_small_refusal_of_a_redraw_is_in_the_page_s_language(client):
    world = pool_world("late3", persons=130, turnover=0)
    late_team(world)  # stays without a master: 10 persons left
    client.force_login(world.organizer)
    shas = set(world.sequential.masters.values_list("sha256", flat=True))
    page = page_text(client.post(redraw_url(world), follow=True, HTTP_ACCEPT_LANGUAGE="ja"))
    assert "プールの人数が足りません" in page
    assert "The pool is too small" not in page
    # Nothing changed: the masters drawn before are all still there.
    assert set(world.sequential.masters.values_list("sha256", flat=True)) == shas


def test_redraw_is_confirmed_first_and_keeps_a_team_that_uploaded(client):
    world = pool_world("late4")
    masters = {m.team.slug: m for m in world.sequential.masters.select_related("team")}
    frame = services.master_frame(master=masters["teamA"])
    table = engine.table_bytes(engine.step_table(frame, 1))
    release = publish(
        world, "a", 1, engine.baseline_bytes(table, None, world.sequential.config, step=1)
    )
    assert release.status == release.Status.FINISHED
    client.force_login(world.organizer)
    page = page_text(client.get(redraw_url(world), HTTP_ACCEPT_LANGUAGE="en"))
    assert 'data-testid="confirm-redraw"' in page
    assert "Drawn again: Team B, Team C." in page
    assert "Kept (a release uploaded, or a master uploaded by the organizers): Team A." in page
    assert set(world.sequential.masters.values_list("pk", flat=True)) == {
        m.pk for m in masters.values()
    }  # the GET changed nothing
    response = client.post(redraw_url(world), follow=True)
    assert "2 master tables drawn." in page_text(response)
    now = {m.team.slug: m for m in world.sequential.masters.select_related("team")}
    assert now["teamA"].pk == masters["teamA"].pk and now["teamA"].sha256 == masters["teamA"].sha256
    assert now["teamB"].pk != masters["teamB"].pk and now["teamC"].pk != masters["teamC"].pk
    assert not (pids_of(now["teamB"]) & pids_of(now["teamA"]))


def test_the_redraw_confirmation_page_in_japanese(client):
    world = pool_world("late5")
    client.force_login(world.organizer)
    console = reverse("console:round", args=[world.competition.slug, world.round.slug])
    page = page_text(client.get(console, HTTP_ACCEPT_LANGUAGE="ja"))
    assert redraw_url(world) in page
    page = page_text(client.get(redraw_url(world), HTTP_ACCEPT_LANGUAGE="ja"))
    assert "チームごとのマスター表を抽選し直す" in page
    assert "抽選し直すチーム: Team A、Team B、Team C。" in page
    assert "Drawn again" not in page


def test_teams_of_a_class_registering_after_the_demo_loaded_each_get_a_master_in_round_s2(
    client,
):
    organizer = user_create(username="latedemo-org", password="pw")
    competition = competition_create(name="Demo", slug="latedemo", organizers=[organizer])
    for letter in "ABC":
        team_create(competition=competition, name=f"Team {letter}", slug=f"team{letter}")
    _paper, generated = demo.demo_load(competition, organizer=organizer)
    students = []
    for index in range(5):
        student = user_create(username=f"latedemo-{index}", password="pw")
        team_create(competition=competition, name=f"Class {index}", captain=student)
        students.append(student)
    masters = list(generated.masters.all())
    assert len(masters) == 8
    seen = set()
    for master in masters:
        pids = pids_of(master)
        assert not (pids & seen)
        seen |= pids
    client.force_login(students[-1])
    address = reverse("round_tab", args=[competition.slug, generated.round.slug, "data"])
    page = page_text(client.get(address))
    assert 'data-testid="download-master"' in page
