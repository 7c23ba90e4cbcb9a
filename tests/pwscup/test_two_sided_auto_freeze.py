"""The freeze at the release phase's close of a two-sided round (synthetic, scorer), served by
the core (``pwscup.submissions.services.auto_freeze``, run by Celery beat): due once the
release phase has closed with the setting on, through the kind's own *Freeze the releases*
(its notifications, its audit entry by the platform), after the releases uploaded before the
close are scored, once however many beats ask at once, and a refusal said on the console's
panel."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import AuditEntry, Phase
from pwscup.kinds.tabs import OVERVIEW, RULES, tab_url
from pwscup.notifications.models import Notification
from pwscup.submissions.models import Status
from pwscup.submissions.services import auto_freeze
from pwscup.submissions.services.auto_freeze import NOTHING_TO_FREEZE, rounds_auto_freeze
from tests.pwscup import scorer_world, syn_world
from tests.pwscup.races import at_once, slow_down
from tests.pwscup.test_console_phases_edit import control_url, signed_in

MINUTE = dt.timedelta(minutes=1)


def _synthetic(slug):
    world = syn_world.syn_world(slug=slug, letters="ab")

    def upload(letter, *, scored=True):
        if scored:
            return syn_world.release(world, letter, syn_world.baseline_release(world, letter))
        from pwscup.synthetic import services

        return services.release_upload(
            synthetic=world.synthetic,
            team=world.teams[letter],
            user=world.users[letter],
            uploaded_file=syn_world.upload_file(
                syn_world.baseline_release(world, letter), "release.csv"
            ),
        )

    def score(release):
        from pwscup.synthetic import services

        services.release_score(release_id=release.pk)

    return world, world.synthetic, upload, score


def _scorer(slug):
    world = scorer_world.scorer_world(slug=slug, letters="ab")

    def upload(letter, *, scored=True):
        content = scorer_world.release_bytes(1)
        if scored:
            return scorer_world.release(world, letter, content)
        from pwscup.scorer import services

        return services.release_upload(
            scorer=world.scorer,
            team=world.teams[letter],
            user=world.users[letter],
            uploaded_file=scorer_world.upload_file(content, "release.csv"),
        )

    def score(release):
        from pwscup.scorer import services

        services.release_score(release_id=release.pk)

    return world, world.scorer, upload, score


KINDS = {"synthetic": _synthetic, "scorer": _scorer}


def _auto(row, on=True):
    type(row).objects.filter(pk=row.pk).update(auto_freeze=on)
    row.refresh_from_db()


def _close_now(world):
    """The release phase closes now (the uploads made so far were accepted before it)."""
    now = timezone.now()
    Phase.objects.filter(round=world.round, kind="release").update(closes_at=now)
    return now


def _frozen_entries(world):
    return AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_FROZEN)


def _text(fragment: str) -> str:
    import html
    import re

    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_a_round_is_frozen_once_its_release_phase_has_closed_with_the_setting_on(kind):
    world, row, upload, _score = KINDS[kind](f"af{kind[:3]}")
    upload("a")
    closes_at = world.round.phases.get(kind="release").closes_at
    # The setting off: the organizer freezes, nothing happens at the close.
    assert rounds_auto_freeze(now=closes_at + MINUTE) == []
    _auto(row)
    assert rounds_auto_freeze(now=closes_at - MINUTE) == []
    row.refresh_from_db()
    assert row.frozen_at is None
    assert rounds_auto_freeze(now=closes_at + MINUTE) == [world.round.pk]
    row.refresh_from_db()
    assert row.frozen_at is not None
    assert [t.team for t in row.targets.all()] == [world.teams["a"]]
    # As the button does: the participants told, the audit entry, here by the platform.
    told = Notification.objects.filter(kind=Notification.Kind.ROUND_FROZEN)
    assert sorted(told.values_list("user__username", flat=True)) == sorted(
        u.username for u in world.users.values()
    )
    (entry,) = _frozen_entries(world)
    assert entry.user is None
    assert entry.detail == {"targets": 1, "automatic": True}
    # Done: the next beats leave it alone.
    assert rounds_auto_freeze(now=closes_at + 2 * MINUTE) == []
    assert _frozen_entries(world).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_the_freeze_waits_while_a_release_of_the_round_is_still_being_scored(kind):
    world, row, upload, score = KINDS[kind](f"aw{kind[:3]}")
    _auto(row)
    upload("a")
    pending = upload("b", scored=False)
    assert type(pending).objects.get(pk=pending.pk).status == Status.QUEUED
    _close_now(world)
    assert rounds_auto_freeze() == []
    row.refresh_from_db()
    assert row.frozen_at is None
    browser = Client()
    browser.force_login(world.users["a"])
    for language, said in (
        (
            "en",
            "The release phase is closed; the releases are frozen automatically when scoring ends.",
        ),
        ("ja", "開示フェーズは終了しました。採点が終わると公開データは自動で凍結されます。"),
    ):
        page = browser.get(
            tab_url(world.round, OVERVIEW), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        state = page.split('data-testid="round-state">')[1].split("</p>")[0]
        assert _text(state) == said, language
    panel = signed_in(world.organizer).get(control_url(world.round)).content.decode()
    waiting = panel.split('data-testid="auto-freeze">')[1].split("</dd>")[0]
    assert "frozen when the scoring of the releases uploaded before the close ends" in waiting
    score(pending)
    assert rounds_auto_freeze() == [world.round.pk]
    row.refresh_from_db()
    assert sorted(t.team.slug for t in row.targets.all()) == sorted(
        t.slug for t in world.teams.values()
    )


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_a_refused_freeze_says_why_on_the_console_panel(kind):
    """No team has a release that passed: the platform does not end the release phase for
    nothing to attack, and the organizer reads why on the panel (not in the worker's log)."""
    world, row, _upload, _score = KINDS[kind](f"ar{kind[:3]}")
    _auto(row)
    _close_now(world)
    assert rounds_auto_freeze() == []
    row.refresh_from_db()
    assert row.frozen_at is None
    assert row.auto_freeze_refusal == str(NOTHING_TO_FREEZE)
    assert not _frozen_entries(world).exists()
    assert not Notification.objects.filter(kind=Notification.Kind.ROUND_FROZEN).exists()
    browser = Client()
    browser.force_login(world.organizer)
    url = reverse("console:round", args=[world.competition.slug, world.round.slug])
    for language, said in (
        ("en", "Not frozen: " + str(NOTHING_TO_FREEZE)),
        (
            "ja",
            "凍結していません：採点済みの公開データを持つチームがないため、公開データを自動で"
            "凍結しませんでした。攻撃対象なしでラウンドを進める場合は、ここで凍結してください。",
        ),
    ):
        page = browser.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        line = page.split('data-testid="auto-freeze-refused">')[1].split("</span>")[0]
        assert _text(line) == said, language
    # The teams are not told the platform freezes: the organizers decide now.
    team = Client()
    team.force_login(world.users["a"])
    overview = team.get(tab_url(world.round, OVERVIEW)).content.decode()
    state = overview.split('data-testid="round-state">')[1].split("</p>")[0]
    assert _text(state) == "The release phase is closed; the releases are not frozen yet."
    assert "frozen automatically" not in overview
    assert "the organizers freeze next" in overview
    # The organizer's button still freezes, knowingly; the panel's line goes.
    args = [world.competition.slug, world.round.slug, "freeze"]
    answer = browser.post(reverse("console:round_action", args=args))
    assert answer.status_code == 302
    row.refresh_from_db()
    assert row.frozen_at is not None
    assert 'data-testid="auto-freeze"' not in browser.get(url).content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_beats_at_once_freeze_the_round_once(monkeypatch):
    """Two beats (or two workers) run at the same moment, each in its own PostgreSQL
    connection, both past the due check before either freezes: the row lock makes one of
    them freeze, the other find the round frozen."""
    world, row, upload, _score = _synthetic("aftwice")
    upload("a")
    _auto(row)
    now = _close_now(world) + MINUTE
    # Both read "due" before either locks the row.
    slow_down(monkeypatch, auto_freeze, "scoring_awaited", seconds=0.5)
    answers, errors = at_once([lambda: rounds_auto_freeze(now=now)] * 2)
    assert errors == []
    assert sorted(answers) == [[], [world.round.pk]]
    assert _frozen_entries(world).count() == 1
    told = Notification.objects.filter(kind=Notification.Kind.ROUND_FROZEN)
    assert told.count() == len(world.users)


@pytest.mark.django_db
def test_the_rules_and_the_overview_tell_the_teams_the_releases_freeze_at_the_close():
    world, row, _upload, _score = _synthetic("afrule")
    browser = Client()
    browser.force_login(world.users["a"])
    rule = "The releases are frozen automatically at the release phase's close"
    for tab in (OVERVIEW, RULES):
        assert rule not in browser.get(tab_url(world.round, tab)).content.decode()
    _auto(row)
    for tab in (OVERVIEW, RULES):
        page = browser.get(tab_url(world.round, tab)).content.decode()
        assert 'data-testid="auto-freeze-rule"' in page and rule in page, tab
