"""The sequential round's attack phase closes at its planned close
(``SequentialRound.attack_closes_at``): set at the creation and on the *Dates and limits*
page (after the last release's close, not once the results are published), carried by a
bundle, refused after it through the service, the page's form and the API (the core's
closed-window message, 403), shown on the Submit tab, the Overview and the schedule."""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils.dateparse import parse_datetime

from pwscup.competitions.models import AuditEntry
from pwscup.core.errors import Refused
from pwscup.kinds import get_kind
from pwscup.sequential import services
from pwscup.sequential.models import SeqAttack, SeqTarget, SequentialRound
from tests.pwscup import seq_web_world
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.seq_web_world import attack_phase_world, fixture_config, seq_world
from tests.pwscup.test_api_kinds import bearer, status_of
from tests.pwscup.test_bundle_kinds import ANCHOR, _demo_round, _import

pytestmark = pytest.mark.django_db

GUESSES = b"pid,guess\nBob,dyspepsia\nAlice,dyspepsia\n"
CLOSE = dt.datetime(2026, 1, 10, 9, 0, tzinfo=dt.UTC)  # 18:00 in Asia/Tokyo
DAY = dt.timedelta(days=1)
# CLOSE as the pages print it (``when``), in the round's time zone.
SHOWN = '<time datetime="2026-01-10T18:00:00+09:00">2026-01-10 18:00 JST</time>'
CLOSED = "Attack phase closed at 2026-01-10 18:00 (Asia/Tokyo); uploads are no longer accepted."


def closed_world(slug: str, closes_at=CLOSE):
    """The attack phase of teams A and B, its planned close ``closes_at`` (round in Tokyo)."""
    world = attack_phase_world(slug=slug, pool=None)
    world.round.timezone = "Asia/Tokyo"
    world.round.save(update_fields=["timezone"])
    SequentialRound.objects.filter(pk=world.sequential.pk).update(attack_closes_at=closes_at)
    world.sequential.refresh_from_db()
    return world


def target_of(world, letter: str) -> SeqTarget:
    return SeqTarget.objects.get(sequential=world.sequential, team=world.teams[letter])


def signed_in(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_the_service_takes_guesses_until_the_close_and_refuses_them_from_it():
    world = closed_world("seqcl1")
    target = target_of(world, "a")

    def send(now):
        return services.attack_upload(
            target=target,
            team=world.teams["b"],
            user=world.users["b"],
            uploaded_file=seq_web_world.upload_file(GUESSES, "g.csv"),
            now=now,
        )

    assert send(CLOSE - dt.timedelta(minutes=1)).number == 1
    with pytest.raises(Refused) as refused:
        send(CLOSE)
    assert (refused.value.status, refused.value.message) == (403, CLOSED)
    assert SeqAttack.objects.filter(team=world.teams["b"]).count() == 1


def test_the_submit_tab_says_until_when_and_stops_offering_the_form_after_the_close():
    world = closed_world("seqcl2", closes_at=dt.datetime.now(dt.UTC) + DAY)
    client = signed_in(world.users["b"])
    send = reverse("sequential:seq-attack-send", args=[world.competition.slug, world.round.slug])
    page = client.get(seq_web_world.tab(world, "submit")).content.decode()
    assert send in page and "Guesses are accepted until" in page
    SequentialRound.objects.filter(pk=world.sequential.pk).update(attack_closes_at=CLOSE)
    page = client.get(seq_web_world.tab(world, "submit")).content.decode()
    assert send not in page
    assert f"The attack phase is closed: it was open until {SHOWN}" in page
    posted = client.post(send, {"target": "teamA", "file": SimpleUploadedFile("g.csv", GUESSES)})
    assert posted.status_code in (302, 403)
    assert not SeqAttack.objects.filter(team=world.teams["b"]).exists()
    followed = client.get(posted.url).content.decode() if posted.status_code == 302 else ""
    assert CLOSED in (followed or posted.content.decode())
    overview = client.get(seq_web_world.tab(world, "overview")).content.decode()
    assert f"The attack phase closes at {SHOWN}, or earlier" in overview


def test_the_api_refuses_guesses_after_the_close_and_shows_the_close_in_the_schedule():
    world = closed_world("seqcl3")
    status = status_of(world, world.users["b"])
    attack = next(t for t in status["submission_types"] if t["key"] == "attack")
    assert attack["open"] is False
    line = status["schedule"][-1]
    assert (line["label"], line["state"]) == ("Attack phase", "closed")
    assert line["closes_at"].startswith("2026-01-10T")
    answer = Client().post(
        attack["url"],
        {"file": SimpleUploadedFile("g.csv", GUESSES), "target": "teamA"},
        **bearer(world.users["b"]),
    )
    assert answer.status_code == 403 and answer.json()["message"] == CLOSED
    assert not SeqAttack.objects.exists()


# --- setting and moving it ------------------------------------------------------------------


def dates_url(world) -> str:
    return reverse("sequential:action", args=[world.competition.slug, world.round.slug, "dates"])


def scheduled_attack_world(slug: str):
    """An attack-phase round (per-team masters from a pool) in Tokyo whose two releases close
    at CLOSE and a day later."""
    config = {**fixture_config("small_config.json"), "attack_phase": True}
    world = seq_world(slug=slug, config=config, master=None)
    world.round.timezone = "Asia/Tokyo"
    world.round.save(update_fields=["timezone"])
    services.schedule_set(sequential=world.sequential, first_close=CLOSE, step_length=DAY)
    world.sequential.refresh_from_db()
    return world


def test_the_dates_page_sets_moves_and_refuses_the_attack_close():
    world = scheduled_attack_world("seqcl4")
    client = signed_in(world.organizer)
    early = post_as_rendered(
        client, dates_url(world), "seq-dates-form", {"attack_closes_at": "2026-01-11 12:00"}
    )
    assert early.status_code == 200
    assert "The attack phase must close after the last release" in early.content.decode()
    saved = post_as_rendered(
        client, dates_url(world), "seq-dates-form", {"attack_closes_at": "2026-01-14 18:00"}
    )
    assert saved.status_code == 302, saved.content.decode()
    world.sequential.refresh_from_db()
    assert world.sequential.attack_closes_at == CLOSE + 4 * DAY
    control = reverse("console:round", args=[world.competition.slug, world.round.slug])
    panel = client.get(control).content.decode()
    assert 'data-testid="seq-attack-close">Attack phase closes at <time' in panel
    entry = AuditEntry.objects.filter(round=world.round, action="round_edited").first()
    assert entry.detail["fields"] == ["attack_closes_at"]
    # Saved again as shown: nothing changed.
    again = post_as_rendered(client, dates_url(world), "seq-dates-form")
    assert again.status_code == 302
    assert AuditEntry.objects.filter(round=world.round, action="round_edited").count() == 1

    services.results_publish(sequential=world.sequential)
    moved = post_as_rendered(
        client, dates_url(world), "seq-dates-form", {"attack_closes_at": "2026-01-18 18:00"}
    )
    assert moved.status_code == 200 and "can no longer move" in moved.content.decode()
    world.sequential.refresh_from_db()
    assert world.sequential.attack_closes_at == CLOSE + 4 * DAY


def test_the_dates_page_speaks_japanese():
    world = scheduled_attack_world("seqcl5")
    client = signed_in(world.organizer, "ja")
    page = client.get(dates_url(world)).content.decode()
    assert "攻撃フェーズの締切" in page
    early = post_as_rendered(
        client, dates_url(world), "seq-dates-form", {"attack_closes_at": "2026-01-10 12:00"}
    )
    assert "攻撃フェーズは最後の公開データ" in early.content.decode()


def test_a_round_without_an_attack_phase_has_no_attack_close_on_its_page():
    world = seq_world(slug="seqcl6")
    page = signed_in(world.organizer).get(dates_url(world)).content.decode()
    assert 'name="attack_closes_at"' not in page
    with pytest.raises(Exception, match="no attack phase"):
        services.schedule_edit(
            sequential=world.sequential, user=world.organizer, attack_closes_at=CLOSE
        )


def test_the_creation_form_sets_the_attack_close_after_the_last_release():
    from tests.pwscup.test_sequential_console_form import fields_post

    world = seq_world(slug="seqcl7")
    client = signed_in(world.organizer)
    url = reverse("sequential_console:create", args=[world.competition.slug])
    pool = "pid,Age,Zip,Disease\n" + "".join(
        f"p{k},{20 + k % 30},{10000 + k % 7},{['flu', 'gastritis', 'dyspepsia'][k % 3]}\n"
        for k in range(60)
    )

    def create(attack_closes_at, attack_phase=True):
        keys = ("name", "slug", "n_releases", "m", "sa", "qi-0-column", "qi-1-column")
        fill = {key: fields_post()[key] for key in keys}
        fill.update(
            pool=("pool.csv", pool.encode()),
            per_team_size="8",
            per_team_seed="11",
            attack_phase=attack_phase,
            first_close="2026-01-10 18:00",
            step_hours="24",
            attack_closes_at=attack_closes_at,
            timezone="Asia/Tokyo",
        )
        return post_as_rendered(client, url, "seq-create", fill)

    without = create("2026-01-13 18:00", attack_phase=False)  # no attack phase: no close
    assert without.context["form"].errors["attack_closes_at"] == ["This round has no attack phase."]
    refused = create("2026-01-11 18:00")  # the last release's close: not after it
    assert refused.status_code == 200
    assert refused.context["form"].errors["attack_closes_at"]
    assert not SequentialRound.objects.filter(round__slug="seq").exists()
    created = create("2026-01-13 18:00")
    assert created.status_code == 302, created.context["form"].errors
    sequential = SequentialRound.objects.get(round__slug="seq")
    assert sequential.attack_closes_at == CLOSE + 3 * DAY


def test_a_bundle_keeps_the_attack_close_and_one_without_it_imports_as_before():
    source = _demo_round("seq-generated")
    sequential = SequentialRound.objects.get(round=source)
    assert sequential.config["attack_phase"]
    last = sequential.close_of(sequential.n_releases)
    SequentialRound.objects.filter(pk=sequential.pk).update(attack_closes_at=last + 2 * DAY)
    kind = get_kind("sequential")
    exported = kind.bundle_export(source, anchor=ANCHOR)
    assert exported.settings["schedule"]["attack_close"]
    start = dt.datetime(2031, 10, 5, 18, 30, tzinfo=dt.UTC)
    imported = _import(exported, slug="seq-generated", start=start)
    moved = SequentialRound.objects.get(round=imported)
    assert moved.attack_closes_at == last + 2 * DAY + (start - ANCHOR)
    assert kind.bundle_export(imported, anchor=start).settings == exported.settings
    without = {
        **exported.settings,
        "schedule": {"step_closes": exported.settings["schedule"]["step_closes"]},
    }
    plain = _import(exported, slug="seq-plain", start=start, settings=without)
    assert SequentialRound.objects.get(round=plain).attack_closes_at is None


def test_a_publication_before_the_planned_close_ends_the_attack_phase_in_the_schedule():
    planned = dt.datetime.now(dt.UTC) + DAY
    world = closed_world("seqcl8", closes_at=planned)
    line = status_of(world, world.users["b"])["schedule"][-1]
    assert (line["state"], line["planned_closes_at"]) == ("open", None)
    services.results_publish(sequential=world.sequential, user=world.organizer)
    published_at = AuditEntry.objects.get(round=world.round, action="results_published").created_at
    line = status_of(world, world.users["b"])["schedule"][-1]
    assert line["state"] == "closed"
    assert parse_datetime(line["closes_at"]) == published_at
    assert parse_datetime(line["planned_closes_at"]) == planned


def test_the_overview_picture_moves_to_the_results_once_the_attack_phase_has_closed():
    """Between the close and the publication the teams wait for the results: the picture's
    "now" box is Results, not the attack step."""
    world = closed_world("seqcl9", closes_at=dt.datetime.now(dt.UTC) + DAY)
    client = signed_in(world.users["b"])

    def now_box() -> str:
        page = client.get(seq_web_world.tab(world, "overview")).content.decode()
        current = page[page.index('aria-current="step"') :]
        return current[: current.index("</li>")]

    assert "Attack the others" in now_box()
    SequentialRound.objects.filter(pk=world.sequential.pk).update(attack_closes_at=CLOSE)
    assert "Results" in now_box() and "Attack the others" not in now_box()
