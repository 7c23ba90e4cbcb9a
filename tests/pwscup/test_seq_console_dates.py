"""The sequential round's console page *Dates and limits* (``sequential:action`` ``dates``,
saved by ``services.schedule_edit``): an organizer who is not a superuser moves the next
release's close after the round exists and the teams' upload window follows; a frozen
release keeps its close (on the admin's form too) and the closes keep their order; others
are refused; Japanese."""

import datetime as dt
import json
import re
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import AuditEntry, RankingVersion
from pwscup.core.errors import Refused
from pwscup.sequential import services
from pwscup.sequential.admin import SequentialRoundForm as SequentialRoundAdminForm
from pwscup.sequential.models import Release, SequentialRound
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world

pytestmark = pytest.mark.django_db

FORM = "seq-dates-form"
TABLE3, TABLE9 = "zhang_release_1.csv", "zhang_release_2_table9.csv"
CLOSE_1 = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)  # 18:00 in Asia/Tokyo
DAY = dt.timedelta(days=1)


def scheduled_world():
    """Release 1 closes at CLOSE_1, release 2 a day later (the round is in Asia/Tokyo)."""
    world = seq_world()
    services.schedule_set(sequential=world.sequential, first_close=CLOSE_1, step_length=DAY)
    world.sequential.refresh_from_db()
    return world


def page_url(world) -> str:
    return reverse("sequential:action", args=[world.competition.slug, world.round.slug, "dates"])


def signed_in(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def closes_typed(*closes) -> str:
    """The closes as the page's field takes them: one per line, in the round's time zone."""
    tokyo = dt.timezone(dt.timedelta(hours=9))
    return "\n".join(at.astimezone(tokyo).strftime("%Y-%m-%d %H:%M") for at in closes)


def stored_closes(world) -> list:
    return SequentialRound.objects.get(pk=world.sequential.pk).step_closes


def test_an_organizer_extends_the_next_release_and_a_team_uploads_in_the_new_window():
    world = scheduled_world()
    assert not world.organizer.is_superuser
    publish(world, "a", 1, fixture(TABLE3), now=CLOSE_1 - dt.timedelta(hours=1))
    assert freeze(world) == 1
    late = CLOSE_1 + DAY + dt.timedelta(hours=1)  # after release 2's close
    with pytest.raises(Refused):
        publish(world, "a", 2, fixture(TABLE9), now=late)

    client = signed_in(world.organizer)
    control = reverse("console:round", args=[world.competition.slug, world.round.slug])
    assert page_url(world) in client.get(control).content.decode()
    before = RankingVersion.objects.filter(round=world.round).values_list("version", flat=True)
    before = before.first() or 0
    fill = {"step_closes": closes_typed(CLOSE_1, CLOSE_1 + 2 * DAY), "daily_limit": "4"}
    answer = post_as_rendered(client, page_url(world), FORM, fill)
    assert answer.status_code == 302, answer.content.decode()
    said = client.get(answer.url).content.decode()
    assert "The round&#x27;s dates and limits are saved." in said  # the core page's words

    world.sequential.refresh_from_db()
    assert world.sequential.close_of(1) == CLOSE_1  # the frozen release keeps its close
    assert world.sequential.close_of(2) == CLOSE_1 + 2 * DAY
    assert world.sequential.daily_limit == 4
    assert RankingVersion.objects.get(round=world.round).version == before + 1
    edit = AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_EDITED)
    assert edit.latest("pk").detail["fields"] == ["step_closes", "daily_limit"]
    release = publish(world, "a", 2, fixture(TABLE9), now=late)
    assert release.status == Release.Status.FINISHED


def test_an_organizer_sets_the_opening_and_release_1_waits_for_it():
    """*Release 1 opens at* on the page (typed in the round's time zone): uploads before it
    are refused with the core's window message, after it taken; an opening after release 1's
    close is refused; once release 1 is frozen the opening no longer moves."""
    world = scheduled_world()
    client = signed_in(world.organizer)
    opens = CLOSE_1 - dt.timedelta(hours=6)  # 2026-12-01 12:00 in Asia/Tokyo
    answer = post_as_rendered(client, page_url(world), FORM, {"opens_at": closes_typed(opens)})
    assert answer.status_code == 302, answer.content.decode()
    world.sequential.refresh_from_db()
    assert world.sequential.opens_at == opens
    edit = AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_EDITED)
    assert edit.latest("pk").detail["fields"] == ["opens_at"]
    with pytest.raises(Refused) as refused:
        publish(world, "a", 1, fixture(TABLE3), now=opens - dt.timedelta(minutes=1))
    assert refused.value.message == (
        "Release 1 is not open yet: it opens at 2026-12-01 12:00 (Asia/Tokyo)."
    )
    assert publish(world, "a", 1, fixture(TABLE3), now=opens).status == Release.Status.FINISHED
    panel = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    assert "Release 1 opens at" in panel.content.decode()

    late = post_as_rendered(
        client, page_url(world), FORM, {"opens_at": closes_typed(CLOSE_1 + dt.timedelta(hours=1))}
    )
    assert late.status_code == 200
    # Under the opening the organizer typed: the close it has to come before (no "phase").
    assert late.context["form"].errors["opens_at"] == [
        "Release 1 must open before it closes (at 2026-12-01 18:00 JST)."
    ]
    late_ja = post_as_rendered(
        signed_in(world.organizer, "ja"),
        page_url(world),
        FORM,
        {"opens_at": closes_typed(CLOSE_1)},
    )
    assert late_ja.context["form"].errors["opens_at"] == [
        "公開データ 1 は締切（2026-12-01 18:00 JST）より前に開始してください。"
    ]
    freeze(world)
    moved = post_as_rendered(
        signed_in(world.organizer, "ja"),
        page_url(world),
        FORM,
        {"opens_at": closes_typed(opens - dt.timedelta(hours=1))},
    )
    assert moved.status_code == 200
    assert moved.context["form"].errors["opens_at"] == [
        "公開データ 1 は凍結済みです。開始日時はもう変更できません。"
    ]
    world.sequential.refresh_from_db()
    assert world.sequential.opens_at == opens


def test_a_frozen_releases_close_does_not_move_and_nothing_is_saved():
    world = scheduled_world()
    freeze(world)
    stored = stored_closes(world)
    answer = post_as_rendered(
        signed_in(world.organizer, "ja"),
        page_url(world),
        FORM,
        {"step_closes": closes_typed(CLOSE_1 + dt.timedelta(hours=3), CLOSE_1 + 2 * DAY)},
    )
    assert answer.status_code == 200
    assert answer.context["form"].errors["step_closes"] == [
        "公開データ 1 は凍結済みです。締切はもう変更できません。"
    ]
    assert stored_closes(world) == stored
    assert not AuditEntry.objects.filter(round=world.round, action="round_edited").exists()


def test_the_admin_keeps_a_frozen_releases_close_too():
    world = scheduled_world()
    freeze(world)
    moved = [(CLOSE_1 + dt.timedelta(hours=3)).isoformat(), (CLOSE_1 + DAY).isoformat()]
    data = {"config": json.dumps(world.sequential.config), "step_closes": json.dumps(moved)}
    form = SequentialRoundAdminForm(data, instance=world.sequential)
    assert not form.is_valid()
    assert form.errors["step_closes"] == ["Release 1 is frozen: its close can no longer move."]


def test_a_later_close_stays_after_an_earlier_one():
    world = scheduled_world()
    stored = stored_closes(world)
    answer = post_as_rendered(
        signed_in(world.organizer),
        page_url(world),
        FORM,
        {"step_closes": closes_typed(CLOSE_1 + 2 * DAY, CLOSE_1 + DAY)},
    )
    assert answer.status_code == 200
    assert answer.context["form"].errors["step_closes"] == ["Release 2 must close after release 1."]
    assert stored_closes(world) == stored


def test_the_page_as_rendered_changes_nothing():
    world = scheduled_world()
    answer = post_as_rendered(signed_in(world.organizer), page_url(world), FORM)
    assert answer.status_code == 302
    assert not AuditEntry.objects.filter(round=world.round, action="round_edited").exists()
    assert not RankingVersion.objects.filter(round=world.round).exists()


def test_a_non_organizer_is_refused_and_nothing_changes():
    world = scheduled_world()
    stored = stored_closes(world)
    for user in (world.users["a"], None):
        client = Client()
        if user is not None:
            client.force_login(user)
        page = client.get(page_url(world))
        posted = client.post(page_url(world), {"step_closes": "2099-01-01 00:00"})
        assert page.status_code in (302, 403, 404), page.status_code
        assert posted.status_code in (302, 403, 404), posted.status_code
        if user is not None:
            assert (page.status_code, posted.status_code) == (403, 403)
    assert stored_closes(world) == stored


def test_the_page_in_japanese():
    world = scheduled_world()
    client = signed_in(world.organizer, "ja")
    control = reverse("console:round", args=[world.competition.slug, world.round.slug])
    assert "日程と上限を変更" in client.get(control).content.decode()
    page = re.sub(r"<[^>]*>", " ", client.get(page_url(world)).content.decode())
    for words in ("日程と上限", "各公開データの締切", "凍結"):
        assert words in page, words
    for english in ("Dates and limits", "Uploads per team", "close", "time zone"):
        assert english not in page, english


def test_a_release_not_open_yet_is_frozen_only_when_the_organizer_ends_it_early():
    """Freezing release 1 before the round opens would leave every team without an upload:
    the confirmation says so and offers a box; posted as rendered (the box not ticked), the
    console says why nothing was frozen (both languages); ticked, release 1 is frozen and
    the audit line says when it was to open."""
    world = seq_world()
    opens = timezone.now().replace(microsecond=0) + 30 * DAY
    SequentialRound.objects.filter(pk=world.sequential.pk).update(opens_at=opens)
    url = reverse("sequential:action", args=[world.competition.slug, world.round.slug, "freeze"])
    opens_text = opens.astimezone(zoneinfo.ZoneInfo(world.round.timezone))
    said = (
        f"Release 1 opens at {opens_text:%Y-%m-%d %H:%M} ({world.round.timezone}): ended now, "
        "it would never take an upload."
    )
    for language, text in (
        ("en", said),
        ("ja", "いま終えると、アップロードを一度も受け付けません。何も行っていません。"),
    ):
        client = signed_in(world.organizer, language)
        page = client.get(url).content.decode()
        assert 'data-testid="freeze-before-opening"' in page
        refused = post_as_rendered(client, url, "confirm-seq-freeze")
        assert refused.status_code == 302
        assert text in client.get(refused.url).content.decode()
    world.sequential.refresh_from_db()
    assert world.sequential.frozen_steps == 0
    client = signed_in(world.organizer)
    ended = post_as_rendered(client, url, "confirm-seq-freeze", {"early": True})
    assert "Release 1 is frozen." in client.get(ended.url).content.decode()
    world.sequential.refresh_from_db()
    assert world.sequential.frozen_steps == 1
    line = AuditEntry.objects.filter(round=world.round, action="round_frozen").get()
    assert line.detail == {"frozen_steps": 1, "ended_before_opening": opens.isoformat()}
    # Online, release 2 then waits for the opening: the team reads so (it read "Release 1 is
    # not open yet"), and an upload of it is refused with the window's words (it said
    # "Release 2 opens when release 1 is frozen").
    overview = signed_in(world.users["a"]).get(f"/c/{world.competition.slug}/{world.round.slug}/")
    text = re.sub(r"<[^>]*>", "", overview.content.decode())
    assert "Release 2 is not open yet: it opens at" in text
    assert "Release 1 is not open yet" not in text and "Download T(2) and the kit" in text
    with pytest.raises(Refused) as refused:
        publish(world, "a", 2, fixture(TABLE9))
    assert refused.value.message == (
        f"Release 2 is not open yet: it opens at {opens_text:%Y-%m-%d %H:%M} "
        f"({world.round.timezone})."
    )
