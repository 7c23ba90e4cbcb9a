"""The DP round's release window on the core's console page *Dates and limits*
(``DPKind.phases_edit``: the window is the round's own row's): an organizer who is not a
superuser extends it after the round exists and a team's upload follows; the admin's rules
hold; others are refused; Japanese."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import AuditEntry, Phase, RankingVersion
from pwscup.core.errors import Refused
from pwscup.dp.models import DPRound, Estimate
from tests.pwscup.dp_world import TOY_CONFIG, build_dp_world, toy_estimate_csv, upload_estimate
from tests.pwscup.rendered_forms import post_as_rendered

pytestmark = pytest.mark.django_db

FORM = "round-phases-form"


def page_url(world) -> str:
    return reverse("console:round_phases", args=[world.competition.slug, world.round.slug])


def signed_in(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def typed(world, at: dt.datetime) -> str:
    return at.astimezone(ZoneInfo(world.round.timezone)).strftime("%Y-%m-%dT%H:%M")


def stored(world) -> DPRound:
    return DPRound.objects.get(pk=world.dp_round.pk)


def test_an_organizer_extends_a_closed_release_window_and_a_team_uploads_again():
    world = build_dp_world(open_now=False)
    assert not world.organizer.is_superuser
    with pytest.raises(Refused):
        upload_estimate(world, "a", "eps-1", toy_estimate_csv())

    client = signed_in(world.organizer)
    control = reverse("console:round", args=[world.competition.slug, world.round.slug])
    assert page_url(world) in client.get(control).content.decode()
    closes = timezone.now() + dt.timedelta(days=2)
    fill = {"release_closes_at": typed(world, closes), "release_daily_limit": "3"}
    answer = post_as_rendered(client, page_url(world), FORM, fill)
    assert answer.status_code == 302, answer.content.decode()

    world.dp_round = stored(world)
    assert world.dp_round.closes_at == closes.replace(second=0, microsecond=0)
    assert world.dp_round.daily_limit == 3
    assert not Phase.objects.filter(round=world.round).exists()  # its own row, no phase
    assert RankingVersion.objects.get(round=world.round).version >= 1
    edit = AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_EDITED)
    assert edit.latest("pk").detail["fields"] == ["release_closes_at", "release_daily_limit"]
    assert upload_estimate(world, "a", "eps-1", toy_estimate_csv()).status == (
        Estimate.Status.FINISHED
    )


def test_a_window_closing_before_it_opens_is_refused_under_its_field():
    world = build_dp_world()
    before = stored(world).closes_at
    opens = stored(world).opens_at
    answer = post_as_rendered(
        signed_in(world.organizer, "ja"),
        page_url(world),
        FORM,
        {"release_closes_at": typed(world, opens - dt.timedelta(hours=1))},
    )
    assert answer.status_code == 200
    assert "開始" in answer.context["form"].errors["release_closes_at"][0]
    assert stored(world).closes_at == before


def test_a_non_organizer_is_refused_and_nothing_changes():
    world = build_dp_world()
    before = stored(world).closes_at
    client = signed_in(world.users["a"])
    assert client.get(page_url(world)).status_code == 404
    posted = client.post(page_url(world), {"release_closes_at": "2099-01-01T00:00"})
    assert posted.status_code == 404
    assert stored(world).closes_at == before


def page_text(world, language) -> str:
    answer = signed_in(world.organizer, language).get(page_url(world))
    assert answer.status_code == 200
    return re.sub(r"<[^>]*>", " ", answer.content.decode())


def test_the_limits_are_labelled_per_level_as_the_round_counts_them():
    page = page_text(build_dp_world(), "en")
    for words in ("Estimates per team per level per day", "Estimates per team per level in all"):
        assert words in page, words
    assert "Uploads per team" not in page


def test_the_page_in_japanese():
    page = page_text(build_dp_world(), "ja")
    for words in (
        "日程と上限",
        "開示フェーズの開始",
        "開示フェーズの締切",
        "1 チーム・1 レベルあたりの 1 日の推定値の数",
        "1 チーム・1 レベルあたりの推定値の総数",
    ):
        assert words in page, words
    for english in ("Dates and limits", "Release phase", "Uploads per team", "time zone"):
        assert english not in page, english


def test_a_scored_round_opened_again_hides_its_scores_and_truth_until_its_new_close():
    """Scores and a published truth are of a closed round: moving the close of a scored
    round into the future opens it again, so they go (the truth would answer every
    estimate still to come) and the round is scored again at its new close."""
    from pwscup.dp.exports import published_truths
    from pwscup.dp.ranking import level_boards
    from pwscup.dp.services import dp_round_score, dp_rounds_score_closed

    world = build_dp_world(config={**TOY_CONFIG, "publish_truth": True})
    upload_estimate(world, "a", "eps-1", toy_estimate_csv())
    now = timezone.now()
    DPRound.objects.filter(pk=world.dp_round.pk).update(closes_at=now - dt.timedelta(minutes=1))
    assert dp_round_score(dp_round=stored(world))
    assert level_boards(dp_round=stored(world)) and published_truths(stored(world))

    closes = now + dt.timedelta(days=1)
    fill = {"release_closes_at": typed(world, closes)}
    answer = post_as_rendered(signed_in(world.organizer), page_url(world), FORM, fill)
    assert answer.status_code == 302, answer.content.decode()
    assert stored(world).scored_at is None
    assert level_boards(dp_round=stored(world)) == [] and published_truths(stored(world)) is None
    assert dp_rounds_score_closed(now=now) == []  # open: nothing scored before the close
    assert dp_rounds_score_closed(now=closes + dt.timedelta(minutes=1)) == [world.dp_round.pk]
    assert level_boards(dp_round=stored(world))
