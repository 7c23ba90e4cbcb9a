"""docs/api.md, a round's ``…/standings/``: ``rows`` hold each cell's value, exact where it is
a number, and ``rows_text`` the same cells as the pages write them; the round's
``standings.csv`` (its rows) keeps the full values, as every CSV export does."""

import csv
import io
import json

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.pwscup2015.models import AnonymizationSubmission
from tests.pwscup.dp_world import build_dp_world, close_now
from tests.pwscup.factories import score
from tests.support import csv_upload, noisy_copy

pytestmark = pytest.mark.django_db


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": "Bearer " + api_token_create(user=user, name="t").secret}


def test_a_2015_rounds_standings_rows_are_the_leaderboards_exact_numbers(make_world):
    world = make_world(leaderboard_public=True)
    client, headers = Client(), bearer(world.users["b"])
    args = [world.competition.slug, world.round.slug]
    sent = client.post(
        reverse("api:submissions", args=args),
        {"file": csv_upload(noisy_copy(world.original, seed=1))},
        **bearer(world.users["a"]),
    )
    score(AnonymizationSubmission.objects.get(pk=sent.json()["id"]))
    board = client.get(reverse("api:leaderboard", args=args), **headers).json()
    (ranked,) = board["rows"]
    (table,) = client.get(reverse("api:round-standings", args=args), **headers).json()["tables"]
    (row,) = table["rows"]
    (row_text,) = table["rows_text"]
    metrics = board["metrics"]
    assert row[2:] == [ranked["safety"], *[ranked["scores"][m] for m in metrics]]
    assert row_text[2:] == [ranked["safety_text"], *[ranked["scores_text"][m] for m in metrics]]
    reader = Client()
    reader.force_login(world.users["b"])
    answer = reader.get(f"/c/{args[0]}/{args[1]}/standings.csv?table=1")
    _header, line = csv.reader(io.StringIO(answer.getvalue().decode("utf-8")))
    assert float(line[metrics.index("U1") + 3]) == ranked["scores"]["U1"]


def test_a_dp_rounds_standings_rows_are_the_exact_errors(db):
    world = build_dp_world(slug="dpexact")
    client, headers = Client(), bearer(world.users["a"])
    args = [world.competition.slug, world.round.slug]
    release = client.post(
        reverse("api:dp-releases", args=[*args, "eps-4"]),
        json.dumps({"groups": [{"attributes": ["gender", "age"], "epsilon": "4"}]}),
        content_type="application/json",
        **headers,
    )
    client.post(
        reverse("api:dp-level-estimates", args=[*args, "eps-4"]),
        json.dumps({"from_release": release.json()["charge_no"], "estimator": "BR"}),
        content_type="application/json",
        **headers,
    )
    close_now(world)
    from pwscup.dp.services import dp_round_score

    dp_round_score(dp_round=world.dp_round)
    board = client.get(reverse("api:dp-leaderboard", args=args), **headers).json()
    eps4 = next(level for level in board["levels"] if level["level"] == "eps-4")
    (verified,) = eps4["verified"]
    tables = client.get(reverse("api:round-standings", args=args), **headers).json()["tables"]
    rows = [row for table in tables for row in table["rows"] if row[1] == "Team A"]
    assert [verified["mean_l2"], verified["mean_spearman"]] in [row[-2:] for row in rows]


def test_a_hidden_2015_leaderboards_standings_csv_is_404_to_a_signed_in_team(make_world):
    """docs/api.md: ``standings.csv`` answers a signed-in browser under the API's rule, 404
    while hidden (a private leaderboard), as it does in every other kind."""
    world = make_world(leaderboard_public=False)
    reader = Client()
    reader.force_login(world.users["b"])
    answer = reader.get(f"/c/{world.competition.slug}/{world.round.slug}/standings.csv?table=1")
    assert answer.status_code == 404
