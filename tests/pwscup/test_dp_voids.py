"""Voided estimates in a DP round (PWSCup 2016's "logically deleted" uploads, on the DP
game): the organizers void a team's estimate through the console page or the API; it is
kept as uploaded and counts nowhere (its level's estimate that counts is the team's previous
valid one, on the pages, in the status and in the ranking; the level's limits), until they
restore it. A team voids nothing, another competition's organizer does not reach the round's
console page (and the API refuses them, 403, as any non-organizer), and once
the round is scored neither a void nor a restore is taken (they would change its results)."""

import html
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.dp.models import Estimate
from pwscup.dp.ranking import level_boards
from pwscup.dp.selectors import final_estimates, team_level
from pwscup.dp.services import dp_round_score
from pwscup.submissions.selectors import quota_day_of, uploads_quota_usage
from tests.pwscup.dp_world import (
    TOY_Z,
    build_dp_world,
    close_now,
    toy_estimate_csv,
    upload_estimate,
)

pytestmark = pytest.mark.django_db

REASON = "Sent before the rule change"
LEVEL = "eps-1"


@pytest.fixture(autouse=True)
def cache_emptied():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world():
    """Team A's two valid estimates at ``LEVEL`` (#1, then #2, the one that counts); B's one."""
    made = build_dp_world(slug="dpvoid")
    made.a1 = upload_estimate(made, "a", LEVEL, toy_estimate_csv())
    made.a2 = upload_estimate(made, "a", LEVEL, toy_estimate_csv([v + 1 for v in TOY_Z]))
    made.b1 = upload_estimate(made, "b", LEVEL, toy_estimate_csv())
    for estimate in (made.a1, made.a2, made.b1):
        assert estimate.status == Estimate.Status.FINISHED, estimate.message
    return made


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def void(world, estimate, *, user=None):
    return Client().post(
        address(world, "dp-estimates-void"),
        {"upload": estimate.pk, "reason": REASON},
        **bearer(user or world.organizer),
    )


def restore(world, estimate, *, user=None):
    return Client().post(
        address(world, "dp-estimate-restore", estimate.pk), **bearer(user or world.organizer)
    )


def counting(world, letter: str = "a"):
    """The estimate that counts at ``LEVEL`` for the team's pages, and for the ranking."""
    view = team_level(dp_round=world.dp_round, team=world.teams[letter], level=LEVEL)
    ranked = {e.team_id: e for e in final_estimates(dp_round=world.dp_round, level=LEVEL)}
    return view.current_estimate, ranked.get(world.teams[letter].pk)


def used(world, letter: str = "a") -> int:
    estimates = Estimate.objects.filter(team=world.teams[letter], level=LEVEL)
    day = quota_day_of(world.round)
    return uploads_quota_usage(estimates, day=day, now=estimates.first().created_at).used_total


def console_page(world) -> str:
    return reverse("console:round_voids", args=[world.competition.slug, world.round.slug])


def form_as_rendered(page: str) -> dict:
    """The void form's fields as the browser sends them: each input's value, each select's
    selected option (its first one when none is)."""
    form = re.search(r'<form[^>]*data-testid="void-form"[^>]*>.*?</form>', page, re.S).group(0)
    fields = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]*)"', tag)
        if name and 'type="submit"' not in tag:
            value = re.search(r'value="([^"]*)"', tag)
            fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
    for name, options in re.findall(r'<select[^>]*name="([^"]*)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options)
        first = re.search(r'<option value="([^"]*)"', options)
        fields[name] = (chosen or first).group(1)
    return fields


def level_page(world, letter: str, language: str = "en") -> str:
    client = Client()
    client.force_login(world.users[letter])
    url = reverse("dp:level", args=[world.competition.slug, world.round.slug, LEVEL])
    answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    return html.unescape(answer.content.decode())


def test_an_organizer_voids_an_estimate_on_the_console_page_as_the_browser_posts_it(world):
    assert not world.organizer.is_superuser
    console = Client()
    console.force_login(world.organizer)
    page = console.get(console_page(world), {"type": "estimate", "upload": world.a2.pk})
    assert page.status_code == 200
    fields = form_as_rendered(page.content.decode())
    assert fields["type"] == "estimate" and fields["upload"] == str(world.a2.pk)

    posted = console.post(console_page(world), {**fields, "reason": REASON})

    assert posted.status_code == 302, posted.content.decode()[-2000:]
    assert Estimate.objects.get(pk=world.a2.pk).voided_at is not None
    assert counting(world) == (world.a1, world.a1)  # the previous valid one counts again
    assert counting(world, "b") == (world.b1, world.b1)
    assert used(world) == 1  # the level's limits count it no more
    listed = console.get(console_page(world)).content.decode()
    assert f'data-testid="voided-{world.a2.pk}"' in listed
    english = level_page(world, "a")
    # The note row under the voided estimate's row.
    note_row = english.split(f'data-testid="dp-estimate-{world.a2.pk}"')[1].split("</tr>")[1]
    assert f"Voided by the organizers: {REASON}" in note_row
    # Its verdict is the format check's alone (its mark says it is voided), not that a later
    # one replaced it.
    verdict = english.split(f'data-testid="dp-verdict-{world.a2.pk}"')[1].split("</span>")[0]
    assert "format OK" in verdict and "replaced" not in verdict and "counts" not in verdict
    assert f"運営者が無効化: {REASON}" in level_page(world, "a", "ja")
    assert REASON not in level_page(world, "b")


def test_the_api_voids_an_estimate_the_answers_say_so_and_a_restore_brings_it_back(world):
    voided = void(world, world.a2)

    assert voided.status_code == 200, voided.content
    assert voided.json() == {"voided": 1}
    assert counting(world) == (world.a1, world.a1)
    team = bearer(world.users["a"])
    listed = Client().get(address(world, "dp-estimates"), **team).json()
    answers = {upload["id"]: upload for upload in listed}
    assert answers[world.a2.pk]["voided"]["reason"] == REASON
    assert answers[world.a2.pk]["voided"]["by_organizers"] is True
    assert "withdraw_url" not in answers[world.a2.pk]  # only the organizers void
    assert (answers[world.a2.pk]["final"], answers[world.a1.pk]["final"]) == (False, True)
    assert answers[world.a1.pk]["voided"] is None
    one = Client().get(answers[world.a2.pk]["url"], **team)
    assert one.status_code == 200 and one.json()["voided"]["reason"] == REASON
    status = Client().get(address(world, "round-status"), **team).json()
    finals = {upload["id"]: upload["final"] for upload in status["uploads"]}
    assert (finals[world.a2.pk], finals[world.a1.pk]) == (False, True)

    restored = restore(world, world.a2)

    assert restored.status_code == 200, restored.content
    assert counting(world) == (world.a2, world.a2)
    assert used(world) == 2
    assert REASON not in level_page(world, "a")


def test_a_team_voids_nothing_and_another_competition_s_organizer_reaches_nothing(world):
    member = world.users["a"]
    refused = void(world, world.b1, user=member)
    assert refused.status_code == 403, refused.content
    team = Client()
    team.force_login(member)
    posted = {"type": "estimate", "upload": str(world.b1.pk), "reason": "mine"}
    assert team.get(console_page(world)).status_code == 404
    assert team.post(console_page(world), posted).status_code == 404
    other = build_dp_world(slug="dpvoidelse")
    # The API refuses them as it refuses any caller who does not organize the competition
    # (every kind's void), the console does not show them the round.
    assert void(world, world.b1, user=other.organizer).status_code == 403
    stranger = Client()
    stranger.force_login(other.organizer)
    assert stranger.post(console_page(world), posted).status_code == 404
    assert not Estimate.objects.filter(voided_at__isnull=False).exists()
    Estimate.objects.filter(pk=world.a2.pk).update(voided_at=world.a2.created_at)
    assert restore(world, world.a2, user=member).status_code == 403
    assert restore(world, world.a2, user=other.organizer).status_code == 403
    restore_page = reverse(
        "console:round_void_restore",
        args=[world.competition.slug, world.round.slug, "estimate", world.a2.pk],
    )
    assert stranger.post(restore_page).status_code == 404
    assert Estimate.objects.get(pk=world.a2.pk).voided_at is not None


def test_the_ranking_scores_the_previous_estimate_and_a_scored_round_takes_no_void_nor_restore(
    world,
):
    assert void(world, world.a2).status_code == 200
    close_now(world)
    assert dp_round_score(dp_round=world.dp_round)
    (board, *_rest) = [b for b in level_boards(dp_round=world.dp_round) if b.level == LEVEL]
    row = next(r for r in board.verified if r.team == world.teams["a"])
    assert row.estimate == world.a1

    for refused in (void(world, world.a1), restore(world, world.a2)):
        assert refused.status_code == 409, refused.content
        assert "the round is scored" in refused.json()["message"]
    japanese = Client().post(
        address(world, "dp-estimates-void"),
        {"upload": world.a1.pk, "reason": REASON},
        HTTP_ACCEPT_LANGUAGE="ja",
        **bearer(world.organizer),
    )
    assert japanese.status_code == 409 and "採点済み" in japanese.json()["message"]
    assert counting(world) == (world.a1, world.a1)
    assert Estimate.objects.get(pk=world.a2.pk).voided_at is not None
