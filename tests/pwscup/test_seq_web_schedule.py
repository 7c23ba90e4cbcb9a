"""The sequential round's step windows, automatic freeze and upload quotas: a close per
release enforced on the server, each step frozen once at its close, per-team per-release
daily and total limits counted like the first kind's phases."""

import datetime as dt
import html
import json
import threading

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse
from django.utils import translation

from pwscup.competitions.models import AuditEntry
from pwscup.core.errors import Refused
from pwscup.sequential import selectors, services
from pwscup.sequential.models import Release, SequenceScore, SequentialRound
from tests.pwscup.seq_web_world import fixture, publish, seq_world, tab, upload_file
from tests.support import wait_for

pytestmark = pytest.mark.django_db

TABLE3, TABLE9 = "zhang_release_1.csv", "zhang_release_2_table9.csv"
UTC = dt.UTC
# Far ahead, so that release 1 is open whatever the day the suite runs (a 2026 date broke the
# suite on that day).
CLOSE_1 = dt.datetime(2096, 12, 1, 9, 0, tzinfo=UTC)  # 18:00 in Asia/Tokyo


def scheduled_world(**limits):
    world = seq_world()
    services.schedule_set(
        sequential=world.sequential, first_close=CLOSE_1, step_length=dt.timedelta(days=1)
    )
    SequentialRound.objects.filter(pk=world.sequential.pk).update(**limits)
    world.sequential.refresh_from_db()
    return world


def upload(world, letter, step, content, now):
    return publish(world, letter, step, content, now=now)


# --- schedule ------------------------------------------------------------------------------


def test_a_step_length_gives_one_close_per_release_and_explicit_ones_are_checked():
    world = scheduled_world()
    assert world.sequential.close_of(1) == CLOSE_1
    assert world.sequential.close_of(2) == CLOSE_1 + dt.timedelta(days=1)
    assert world.sequential.close_of(3) is None
    with pytest.raises(ValidationError, match="one close time per release: 2, not 1"):
        services.schedule_set(sequential=world.sequential, closes=[CLOSE_1])
    with pytest.raises(ValidationError, match="Release 2 must close after release 1"):
        services.schedule_set(sequential=world.sequential, closes=[CLOSE_1, CLOSE_1])
    # A time without a zone is read in the round's (Asia/Tokyo).
    closes = services.schedule_set(
        sequential=world.sequential,
        closes=[dt.datetime(2096, 12, 1, 18, 0), dt.datetime(2096, 12, 2, 18, 0)],
    )
    assert closes[0] == CLOSE_1
    services.schedule_set(sequential=world.sequential)  # no deadlines any more
    assert world.sequential.close_of(1) is None


def test_the_console_creates_a_round_with_a_step_length_and_limits(client):
    world = seq_world(slug="seqc")
    client.force_login(world.organizer)
    response = client.post(
        reverse("sequential_console:create", args=[world.competition.slug]),
        {
            "name": "Scheduled",
            "slug": "s2",
            "config": '{"type": "sequential", "n_releases": 2, "m": 2, '
            '"qi": {"Age": "num", "Zip": "num"}, "sa": "Disease"}',
            "master": upload_file(fixture("zhang_master.csv"), "master.csv"),
            "first_close": "2096-12-01 18:00",
            "step_hours": "24",
            "auto_freeze": "on",
            "daily_limit": "3",
            "total_limit": "5",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    created = SequentialRound.objects.get(round__slug="s2")
    assert created.close_of(1) == CLOSE_1  # 18:00 in the round's time zone
    assert created.close_of(2) == CLOSE_1 + dt.timedelta(hours=24)
    assert (created.daily_limit, created.total_limit, created.auto_freeze) == (3, 5, True)
    panel = client.get(reverse("console:round", args=[world.competition.slug, "s2"]))
    assert b"2096-12-01 18:00 JST" in panel.content
    assert b"frozen automatically at its close" in panel.content


# --- the close, enforced on the server --------------------------------------------------------


def test_an_upload_before_the_close_is_taken_and_after_it_refused_with_the_time():
    world = scheduled_world()
    release = upload(world, "a", 1, fixture(TABLE3), CLOSE_1 - dt.timedelta(seconds=1))
    assert release.status == Release.Status.FINISHED
    with pytest.raises(Refused) as refused:
        upload(world, "b", 1, fixture(TABLE3), CLOSE_1)
    assert refused.value.status == 403
    assert refused.value.message == (
        "Release 1 closed at 2096-12-01 18:00 (Asia/Tokyo); uploads are no longer accepted."
    )
    with translation.override("ja"):
        with pytest.raises(Refused) as refused:
            upload(world, "b", 1, fixture(TABLE3), CLOSE_1 + dt.timedelta(hours=1))
    assert refused.value.message == (
        "公開データ 1は 2096-12-01 18:00 (Asia/Tokyo) に締め切られました。"
        "アップロードはもう受け付けていません。"
    )
    assert Release.objects.filter(team=world.teams["b"]).count() == 0  # nothing kept


def test_the_page_shows_each_close_with_its_time_zone_and_a_late_upload_is_refused(client):
    world = scheduled_world()
    client.force_login(world.users["a"])
    page = client.get(tab(world, "data"))
    assert b'data-testid="closes-1"' in page.content
    # The Data tab's close wraps after its date on a phone, never inside it.
    assert (
        '<td role="cell" data-testid="closes-1"><span class="phone-label" aria-hidden="true">Closes</span> '
        '<time class="wrapping" datetime="2096-12-01T18:00:00+09:00">'
        '<span class="nowrap">2096-12-01</span> <span class="nowrap">18:00 JST</span></time>'
    ) in page.content.decode()
    overview = client.get(tab(world, "overview")).content.decode()
    # The Overview's schedule is the core's table of the round's lines, each date whole.
    assert '<td role="cell">Release 1</td>' in overview
    assert (
        '<span class="nowrap">2096-12-01</span> <span class="nowrap">18:00 JST</span>' in overview
    )
    # The close in the next step's sentence is a moment for a machine too, on one line.
    assert (
        '(open until <time datetime="2096-12-01T18:00:00+09:00">2096-12-01 18:00 JST</time>)'
    ) in html.unescape(overview)
    services.schedule_set(
        sequential=world.sequential,
        closes=[dt.datetime(2020, 1, 1, 9, 0), dt.datetime(2020, 1, 2, 9, 0)],
    )
    response = client.post(
        reverse("sequential:seq-release-send", args=[world.competition.slug, world.round.slug]),
        {"step": "1", "file": upload_file(fixture(TABLE3), "release_1.csv")},
    )
    assert response["Location"] == tab(world, "submit") + "#upload"
    text = html.unescape(client.get(response["Location"]).content.decode())
    assert "Release 1 closed at 2020-01-01 09:00 (Asia/Tokyo)" in text
    assert 'data-testid="upload-form"' not in text  # no step is open
    assert "No release is open now: release 1 is closed and waits to be frozen" in text
    assert not Release.objects.exists()


# --- automatic freeze -------------------------------------------------------------------------


def test_each_step_is_frozen_at_its_close_once_and_only_once():
    world = scheduled_world()
    upload(world, "a", 1, fixture(TABLE3), CLOSE_1 - dt.timedelta(hours=1))
    assert services.steps_auto_freeze(now=CLOSE_1 - dt.timedelta(seconds=1)) == []
    assert services.steps_auto_freeze(now=CLOSE_1) == [(world.round.pk, 1)]
    assert services.steps_auto_freeze(now=CLOSE_1 + dt.timedelta(minutes=1)) == []
    world.sequential.refresh_from_db()
    assert world.sequential.frozen_steps == 1
    assert SequenceScore.objects.filter(step=1, team=world.teams["a"], complete=True).exists()
    assert AuditEntry.objects.filter(round=world.round, action="round_frozen").count() == 1
    # Step 2 opened at once; it freezes at its own close, and then nothing is left to do.
    upload(world, "a", 2, fixture(TABLE9), CLOSE_1 + dt.timedelta(hours=2))
    later = CLOSE_1 + dt.timedelta(days=1)
    assert services.steps_auto_freeze(now=later) == [(world.round.pk, 2)]
    assert services.steps_auto_freeze(now=later + dt.timedelta(days=9)) == []
    world.sequential.refresh_from_db()
    assert world.sequential.all_frozen
    assert Release.objects.filter(team=world.teams["a"], is_frozen=True).count() == 2


def test_steps_whose_closes_all_passed_are_caught_up_and_no_freeze_without_the_option():
    world = scheduled_world(auto_freeze=False)
    assert services.steps_auto_freeze(now=CLOSE_1 + dt.timedelta(days=5)) == []
    SequentialRound.objects.filter(pk=world.sequential.pk).update(auto_freeze=True)
    frozen = services.steps_auto_freeze(now=CLOSE_1 + dt.timedelta(days=5))
    assert frozen == [(world.round.pk, 1), (world.round.pk, 2)]


def test_the_freeze_waits_for_a_release_being_checked_at_the_close():
    world = scheduled_world()
    Release.objects.create(
        sequential=world.sequential,
        team=world.teams["a"],
        step=1,
        file=upload_file(fixture(TABLE3), "release_1.csv"),
        created_at=CLOSE_1 - dt.timedelta(seconds=5),
        status=Release.Status.QUEUED,
    )
    assert services.steps_auto_freeze(now=CLOSE_1 + dt.timedelta(minutes=5)) == []
    # Not for ever: past the wait bound the step is frozen without it.
    assert services.steps_auto_freeze(now=CLOSE_1 + dt.timedelta(hours=2)) == [(world.round.pk, 1)]


def test_the_manual_freeze_still_works_and_the_automatic_one_then_skips_the_step():
    world = scheduled_world()
    assert services.step_freeze(sequential=world.sequential, user=world.organizer) == 1
    assert services.steps_auto_freeze(now=CLOSE_1) == []
    world.sequential.refresh_from_db()
    assert world.sequential.frozen_steps == 1


@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_freeze_the_step_once():
    world = scheduled_world()
    barrier = threading.Barrier(2)
    results, errors = [], []

    def tick():
        try:
            barrier.wait()
            results.append(services.steps_auto_freeze(now=CLOSE_1 + dt.timedelta(minutes=1)))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(results) == [[], [(world.round.pk, 1)]]
    world.sequential.refresh_from_db()
    assert world.sequential.frozen_steps == 1
    assert AuditEntry.objects.filter(round=world.round, action="round_frozen").count() == 1


def test_the_beat_schedule_runs_the_task_and_the_task_is_registered():
    from pwscup.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["auto-freeze-sequential-steps"]
    assert entry["task"] == "pwscup.sequential.tasks.auto_freeze_steps"
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks


# --- quotas ---------------------------------------------------------------------------------


def test_the_total_limit_counts_valid_releases_of_the_step_not_rejected_ones():
    world = scheduled_world(total_limit=1)
    now = CLOSE_1 - dt.timedelta(hours=3)
    bad = b"gid,pid,Age,Zip,Disease\n1,Zoe,21,12000,flu\n"
    assert upload(world, "a", 1, bad, now).status == Release.Status.FAILED
    assert upload(world, "a", 1, fixture(TABLE3), now).status == Release.Status.FINISHED
    with pytest.raises(Refused) as refused:
        upload(world, "a", 1, fixture(TABLE3), now)
    assert refused.value.status == 429
    assert refused.value.message == "Your team has used all 1 uploads of release 1."
    with translation.override("ja"):
        with pytest.raises(Refused) as refused:
            upload(world, "a", 1, fixture(TABLE3), now)
    assert (
        refused.value.message
        == "あなたのチームは公開データ 1 のアップロード 1 回をすべて使いました。"
    )
    assert upload(world, "b", 1, fixture(TABLE3), now).status == Release.Status.FINISHED
    releases = selectors.team_releases(sequential=world.sequential, team=world.teams["a"])
    quotas = selectors.step_quotas(
        sequential=world.sequential, releases=releases, steps=[1, 2], now=now
    )
    assert [(q.used_today, q.used_total) for q in quotas.values()] == [(1, 1), (0, 0)]


def test_the_daily_limit_resets_at_midnight_in_the_round_time_zone():
    world = seq_world()
    SequentialRound.objects.filter(pk=world.sequential.pk).update(daily_limit=1)
    # 2096-12-01 23:30 in Tokyo.
    evening = dt.datetime(2096, 12, 1, 14, 30, tzinfo=UTC)
    upload(world, "a", 1, fixture(TABLE3), evening)
    with pytest.raises(Refused) as refused:
        upload(world, "a", 1, fixture(TABLE3), evening + dt.timedelta(minutes=10))
    assert refused.value.message == (
        "Your team has used its 1 submissions for today; the limit resets at "
        "2096-12-02 00:00 (Asia/Tokyo)."
    )
    with translation.override("ja"):
        with pytest.raises(Refused) as refused:
            upload(world, "a", 1, fixture(TABLE3), evening + dt.timedelta(minutes=10))
    assert "2096-12-02 00:00 (Asia/Tokyo)" in refused.value.message
    assert "本日" in refused.value.message
    after_midnight = evening + dt.timedelta(minutes=31)
    assert upload(world, "a", 1, fixture(TABLE3), after_midnight).status == "finished"


@pytest.mark.django_db(transaction=True)
def test_two_uploads_at_once_cannot_both_take_the_last_place():
    world = scheduled_world(total_limit=1)
    now = CLOSE_1 - dt.timedelta(hours=1)
    barrier = threading.Barrier(2)
    outcomes = []

    def send():
        try:
            barrier.wait()
            outcomes.append(upload(world, "a", 1, fixture(TABLE3), now).pk)
        except Refused as refusal:
            outcomes.append(str(refusal.status))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # The upload committed, so the session's real worker may have claimed its check first:
    # then it is that worker's to finish.
    refused = [o for o in outcomes if isinstance(o, str)]
    kept = [o for o in outcomes if not isinstance(o, str)]
    assert refused == ["429"] and len(kept) == 1, outcomes
    wait_for(
        lambda: Release.objects.get(pk=kept[0]).status not in ("queued", "running"),
        timeout=60,
        what="the kept release's check",
    )
    assert Release.objects.get(pk=kept[0]).status == "finished"
    assert Release.objects.filter(team=world.teams["a"]).count() == 1


def test_the_admin_checks_the_closes(client):
    from django.contrib.auth import get_user_model

    world = scheduled_world()
    client.force_login(get_user_model().objects.create_superuser("seq-root2", password="pw"))
    change = reverse("admin:sequential_sequentialround_change", args=[world.sequential.pk])
    form = {
        "config": json.dumps(world.sequential.config),
        "step_closes": json.dumps(["2096-12-02T09:00:00+00:00", "2096-12-01T09:00:00+00:00"]),
        "auto_freeze": "on",
    }
    response = client.post(change, form)
    assert response.status_code == 200
    assert "Release 2 must close after release 1." in response.content.decode()
    form["step_closes"] = json.dumps(["2096-12-01T09:00:00+00:00", "2096-12-03T09:00:00+00:00"])
    form["total_limit"] = "4"
    assert client.post(change, form).status_code == 302
    world.sequential.refresh_from_db()
    assert world.sequential.close_of(2) == CLOSE_1 + dt.timedelta(days=2)
    assert world.sequential.total_limit == 4


@pytest.mark.parametrize(
    "closes, said",
    [
        ("99999999999999999999", "A list of dates and times"),
        ("1e309", "A list of dates and times"),
        ("NaN", "A list of dates and times"),
        ('{"at": "2096-12-01T09:00:00+00:00"}', "A list of dates and times"),
        ('"2096-12-01T09:00:00+00:00"', "A list of dates and times"),
        ('["soon", "2096-12-03T09:00:00+00:00"]', "soon is not a date and time"),
        ("[1, 2]", "1 is not a date and time"),
    ],
)
def test_the_admin_refuses_closes_that_are_not_a_list_of_times(client, closes, said):
    """Whatever JSON the closes' field holds, the page answers with what is wrong (no 500)
    and the round keeps its closes."""
    from django.contrib.auth import get_user_model

    world = scheduled_world()
    before = list(world.sequential.step_closes)
    client.force_login(get_user_model().objects.create_superuser("seq-root3", password="pw"))
    change = reverse("admin:sequential_sequentialround_change", args=[world.sequential.pk])
    form = {"config": json.dumps(world.sequential.config), "step_closes": closes}
    response = client.post(change, form)
    assert response.status_code == 200
    assert said in html.unescape(response.content.decode())
    world.sequential.refresh_from_db()
    assert world.sequential.step_closes == before


def test_the_console_takes_one_close_per_line_and_names_a_bad_line(client):
    world = seq_world(slug="seqd")
    client.force_login(world.organizer)
    form = {
        "name": "Explicit",
        "slug": "s3",
        "config": json.dumps(world.sequential.config),
        "master": upload_file(fixture("zhang_master.csv"), "master.csv"),
        "step_closes": "2096-12-01 18:00\nsoon\n",
    }
    create = reverse("sequential_console:create", args=[world.competition.slug])
    response = client.post(create, form)
    assert response.status_code == 200
    assert "“soon” is not a date and time" in html.unescape(response.content.decode())
    form["step_closes"] = "2096-12-01 18:00\n2096-12-05 12:00\n"
    form["master"] = upload_file(fixture("zhang_master.csv"), "master.csv")
    assert client.post(create, form).status_code == 302
    created = SequentialRound.objects.get(round__slug="s3")
    assert created.close_of(1) == CLOSE_1
    assert created.close_of(2) == dt.datetime(2096, 12, 5, 3, 0, tzinfo=UTC)
    assert (created.daily_limit, created.total_limit) == (None, None)


def test_the_round_page_shows_the_team_its_use_of_the_limits(client):
    world = scheduled_world(daily_limit=2, total_limit=3)
    services.schedule_set(sequential=world.sequential)  # no close: the upload is taken now
    publish(world, "a", 1, fixture(TABLE3))
    client.force_login(world.users["a"])
    page = client.get(tab(world, "submit"))
    text = html.unescape(page.content.decode())
    assert "Release 1: 1 uploads today, 1 in all." in text
    assert "At most 3 uploads per release." in text
    # The request leaves its language active in this thread: restore it for the next tests.
    with translation.override(translation.get_language()):
        client.post(reverse("set_language"), {"language": "ja", "next": "/"})
        page = client.get(tab(world, "submit"))
    assert "公開データ 1: 本日 1 回、合計 1 回アップロード。" in html.unescape(
        page.content.decode()
    )
