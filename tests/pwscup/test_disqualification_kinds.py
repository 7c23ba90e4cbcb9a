"""A disqualified team disappears from every ranking of every kind of its competition, and
comes back when the organizers reinstate it (docs/organizers.md, "Teams register
themselves"): here a DP round and a sequential round with an attack phase, both scored and
published, played by teams A and B; the organizer disqualifies A from the console.

Where each kind shows a ranking: the DP leaderboard page, its CSV, the API's leaderboard and
the results archive's ``leaderboard.csv``; the sequential leaderboard page (rows and attack
ranking) and the archive's ``leaderboard.csv`` and ``attack_ranking.csv``."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.api.services import api_token_create
from pwscup.dp.services import (
    dp_estimate_check,
    dp_estimate_upload,
    dp_round_create,
    dp_round_score,
    dp_round_window_set,
)
from pwscup.kinds.round_basics import RoundBasics
from pwscup.sequential import services as seq_services
from tests.pwscup.archive_world import publish_and_read
from tests.pwscup.dp_world import TOY_CONFIG, toy_csv
from tests.pwscup.seq_web_world import (
    attack_phase_world,
)
from tests.support import csv_upload

pytestmark = pytest.mark.django_db


def dp_estimate(gender_age, gender) -> bytes:
    cells = [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")]
    lines = ["target,gender,age,count"]
    lines += [f"gender_age,{g},{a},{v}" for (g, a), v in zip(cells, gender_age, strict=True)]
    lines += [f"gender,{g},,{v}" for g, v in zip("FM", gender, strict=True)]
    return ("\n".join(lines) + "\n").encode()


def played_world():
    """Teams A and B play a sequential round (own masters, both releases frozen, attack
    phase, results published) and a DP round (an estimate each at ε = 1, closed, scored)."""
    world = attack_phase_world(slug="dqcup", pool=None)
    seq_services.results_publish(sequential=world.sequential)

    now = timezone.now()
    dp_round = dp_round_create(
        basics=RoundBasics(competition=world.competition, name="DP round", slug="dp"),
        table=toy_csv(),
        table_filename="hidden.csv",
        config_raw=TOY_CONFIG,
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(hours=1),
    )
    for letter, estimate in (("a", [0, 2, 2, 1, 2, 3]), ("b", [1, 1, 1, 1, 1, 5])):
        kept = dp_estimate_upload(
            dp_round=dp_round,
            team=world.teams[letter],
            user=world.users[letter],
            level="eps-1",
            uploaded_file=csv_upload(dp_estimate(estimate, [4, 6]), "estimate.csv"),
        )
        dp_estimate_check(estimate_id=kept.pk)
    dp_round_window_set(
        dp_round=dp_round,
        opens_at=now - dt.timedelta(hours=2),
        closes_at=now - dt.timedelta(minutes=1),
    )
    dp_round.refresh_from_db()
    assert dp_round_score(dp_round=dp_round)
    world.dp_round = dp_round
    return world


def round_url(world, name, round_slug):
    return reverse(name, args=[world.competition.slug, round_slug])


def what_shows_team_a(world) -> dict[str, bool]:
    """Whether each ranking of each kind lists team A (and, as a check that it is read at
    all, that team B is listed in each)."""
    visitor = Client()
    dp_page = visitor.get(round_url(world, "dp:leaderboard", "dp")).content.decode()
    dp_csv = visitor.get(round_url(world, "dp:leaderboard", "dp") + "?format=csv")
    dp_csv = dp_csv.content.decode()
    token = api_token_create(user=world.users["b"], name="t").secret
    api_board = Client().get(
        reverse(
            "api:dp-leaderboard",
            kwargs={"competition_slug": world.competition.slug, "round_slug": "dp"},
        ),
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert api_board.status_code == 200
    api_teams = [row["team"] for level in api_board.json()["levels"] for row in level["verified"]]
    api_teams += [row["team"] for row in api_board.json()["overall"]]
    seq_page = visitor.get(round_url(world, "sequential:leaderboard", "s1")).content.decode()
    _archive, members = publish_and_read(world.competition)
    archive_dp = members["rounds/dp/leaderboard.csv"].decode()
    archive_seq = members["rounds/s1/leaderboard.csv"].decode()
    archive_attack = members["rounds/s1/attack_ranking.csv"].decode()

    assert 'data-testid="dp-l2-eps-1-teamB"' in dp_page and ",Team B," in dp_csv
    assert "teamB" in api_teams
    assert 'data-testid="row-teamB"' in seq_page and 'data-testid="attack-rank-teamB"' in seq_page
    assert ",Team B," in archive_dp and "Team B" in archive_seq and "Team B" in archive_attack
    return {
        "dp page": 'data-testid="dp-l2-eps-1-teamA"' in dp_page,
        "dp csv": "Team A" in dp_csv,
        "dp api": "teamA" in api_teams,
        "dp archive": "Team A" in archive_dp,
        "seq page": 'data-testid="row-teamA"' in seq_page,
        "seq attack ranking": 'data-testid="attack-rank-teamA"' in seq_page,
        "seq archive": "Team A" in archive_seq,
        "seq archive attack ranking": "Team A" in archive_attack,
    }


def test_a_disqualified_team_leaves_every_dp_and_sequential_ranking_until_reinstated():
    world = played_world()
    shown = what_shows_team_a(world)
    assert shown == dict.fromkeys(shown, True)

    organizer = Client()
    organizer.force_login(world.organizer)
    team = world.teams["a"]
    response = organizer.post(
        reverse("console:team_disqualify", args=[world.competition.slug, team.pk]),
        {"reason": "Shared answers."},
    )
    assert response.status_code == 302
    assert what_shows_team_a(world) == dict.fromkeys(shown, False)

    # The ranks close up: B is first everywhere A was ahead of it.
    board = Client().get(round_url(world, "dp:leaderboard", "dp") + "?format=csv")
    assert "eps-1,verified,1,Team B," in board.content.decode()

    response = organizer.post(
        reverse("console:team_reinstate", args=[world.competition.slug, team.pk])
    )
    assert response.status_code == 302
    assert what_shows_team_a(world) == dict.fromkeys(shown, True)
