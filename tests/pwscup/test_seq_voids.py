"""Voided uploads in a sequential round (the core's rule, ``pwscup.submissions.voids``, which
the kind declares): a voided release is never the one its step freezes (the team's previous
valid one is), a voided guess file no longer supplies its cell of the attack matrix nor the
target's safety, either frees the team's limit, and a restore brings it back; a frozen
release stays; only the organizers void; the team's pages say so in its language."""

import datetime as dt
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.api.services import api_token_create
from pwscup.sequential import engine, selectors
from pwscup.sequential.models import Release, SeqAttack, SeqTarget
from pwscup.submissions.selectors import quota_day_of, uploads_quota_usage
from tests.kinds.sequential.player import ALL_RIGHT, THREE_RIGHT
from tests.pwscup.races import at_once, slow_down
from tests.pwscup.seq_web_world import (
    attack,
    attack_phase_world,
    fixture,
    fixture_config,
    freeze,
    publish,
    seq_world,
    tab,
)

pytestmark = pytest.mark.django_db


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def used(world, uploads) -> int:
    """What ``uploads`` (one team's, of one window) use of its total limit."""
    day = quota_day_of(world.round)
    return uploads_quota_usage(uploads, day=day, now=timezone.now()).used_total


def batch_world():
    """Batch mode (tests/pwscup/test_seq_web_services.py): team A's release 2 (with ``last``)
    fits its first release 1 only, and A then uploaded a renumbered release 1, which the
    freeze would take (newest): A's sequence would be incomplete. Team B plays straight."""
    config = {**fixture_config("small_config_last.json"), "mode": "batch"}
    world = seq_world(slug="seqvoid", config=config, master=fixture("small_master.csv"))
    first = publish(world, "a", 1, fixture("small_release_1.csv"))
    publish(world, "a", 2, fixture("small_release_2_last.csv"))
    renumbered = fixture("small_release_1.csv").replace(b"\n1,", b"\n7,").replace(b"\n2,", b"\n8,")
    newest = publish(world, "a", 1, renumbered)
    for step, name in ((1, "small_release_1.csv"), (2, "small_release_2_last.csv")):
        publish(world, "b", step, fixture(name))
    assert first.status == newest.status == Release.Status.FINISHED
    return world, first, newest


def latest_release_1(world) -> Release:
    team = world.teams["a"]
    return selectors.latest_valid_releases(sequential=world.sequential, team=team, steps=[1])[1]


def test_a_voided_release_gives_its_place_to_the_previous_valid_one_until_restored():
    world, first, newest = batch_world()
    team_a_step_1 = Release.objects.filter(sequential=world.sequential, team=world.teams["a"])
    team_a_step_1 = team_a_step_1.filter(step=1)
    assert latest_release_1(world) == newest and used(world, team_a_step_1) == 2
    client = Client()

    answer = client.post(
        address(world, "seq-releases-void"),
        {"upload": newest.pk, "reason": "Renumbered by mistake"},
        **bearer(world.organizer),
    )

    assert answer.status_code == 200, answer.content
    assert answer.json() == {"voided": 1}
    assert latest_release_1(world) == first
    assert used(world, team_a_step_1) == 1  # the team may upload release 1 again
    kept = Release.objects.get(pk=newest.pk)
    assert (kept.status, kept.results) == (Release.Status.FINISHED, newest.results)
    mine = client.get(address(world, "seq-releases"), **bearer(world.users["a"])).json()
    voided = {upload["id"]: upload["voided"] for upload in mine}
    assert voided[first.pk] is None
    assert voided[newest.pk]["by_organizers"] is True
    assert voided[newest.pk]["reason"] == "Renumbered by mistake"
    assert "withdraw_url" not in mine[0]  # organizers void; a team withdraws nothing here

    restored = client.post(
        address(world, "seq-release-restore", newest.pk), **bearer(world.organizer)
    )

    assert restored.status_code == 200
    assert latest_release_1(world) == newest and used(world, team_a_step_1) == 2


def test_the_freeze_takes_the_previous_valid_release_and_the_ranking_follows():
    """Without the void, A's newest release 1 is frozen and its release 2 no longer fits:
    A is unranked. With it, A's first release 1 is frozen, then its release 2: A ranks."""
    world, first, newest = batch_world()
    answer = Client().post(
        address(world, "seq-releases-void"),
        {"upload": newest.pk, "reason": "Renumbered by mistake"},
        **bearer(world.organizer),
    )
    assert answer.status_code == 200, answer.content

    freeze(world)
    freeze(world)

    assert Release.objects.get(pk=first.pk).is_frozen
    assert not Release.objects.get(pk=newest.pk).is_frozen
    rows = {row.team.slug: row for row in selectors.leaderboard_rows(sequential=world.sequential)}
    assert rows["teamA"].complete and rows["teamA"].rank == 1
    assert rows["teamA"].results == rows["teamB"].results


def test_a_frozen_release_is_not_voided():
    world, _first, _newest = batch_world()
    freeze(world)
    frozen = Release.objects.get(sequential=world.sequential, team=world.teams["b"], is_frozen=True)
    client = Client()

    answer = client.post(
        address(world, "seq-releases-void"),
        {"upload": frozen.pk, "reason": "late"},
        **bearer(world.organizer),
    )

    assert answer.status_code == 409, answer.content
    assert "frozen" in answer.json()["message"]
    # Every upload of release 1 at once: refused whole, as one of them is frozen.
    every = client.post(
        address(world, "seq-releases-void"),
        {"before": timezone.now().isoformat(), "reason": "late"},
        **bearer(world.organizer),
    )
    assert every.status_code == 409
    assert not Release.objects.filter(voided_at__isnull=False).exists()


def test_a_voided_attack_hands_its_cell_to_the_next_best_and_a_restore_brings_it_back():
    world = attack_phase_world(slug="seqvoidatk")
    target = SeqTarget.objects.get(sequential=world.sequential, team=world.teams["a"])
    best = attack(world, "b", target, ALL_RIGHT)
    attack(world, "b", target, THREE_RIGHT)
    team_b = SeqAttack.objects.filter(team=world.teams["b"])

    def cell_and_safety():
        matrix = selectors.attack_matrix(sequential=world.sequential)
        row = next(row for row in matrix.rows if row.team == world.teams["b"])
        column = [t.team_id for t in matrix.targets].index(world.teams["a"].pk)
        board = selectors.leaderboard_rows(sequential=world.sequential)
        safety = next(r.safety for r in board if r.team == world.teams["a"])
        mean = next(r["mean"] for r in selectors.attack_ranking(sequential=world.sequential))
        return row.cells[column], safety, mean

    assert cell_and_safety() == (pytest.approx(1.0), pytest.approx(1.0), pytest.approx(1.0))
    assert used(world, team_b) == 2
    client = Client()

    answer = client.post(
        address(world, "seq-attacks-void"),
        {"upload": best.pk, "reason": "Guessed from the leaked truth"},
        **bearer(world.organizer),
    )

    assert answer.status_code == 200, answer.content
    # B's next best (three of five) takes the cell; A's safety is the built-in MAP_N's.
    assert cell_and_safety() == (pytest.approx(0.6), pytest.approx(0.7), pytest.approx(0.6))
    assert used(world, team_b) == 1
    kept = SeqAttack.objects.get(pk=best.pk)
    assert (kept.status, kept.accuracy) == (SeqAttack.Status.FINISHED, pytest.approx(1.0))
    mine = client.get(address(world, "seq-attack", best.pk), **bearer(world.users["b"])).json()
    assert mine["voided"]["reason"] == "Guessed from the leaked truth"

    restored = client.post(address(world, "seq-attack-restore", best.pk), **bearer(world.organizer))

    assert restored.status_code == 200
    assert cell_and_safety() == (pytest.approx(1.0), pytest.approx(1.0), pytest.approx(1.0))


def test_a_team_neither_voids_nor_restores():
    world = attack_phase_world(slug="seqvoidteam")
    target = SeqTarget.objects.get(sequential=world.sequential, team=world.teams["a"])
    guesses = attack(world, "b", target, ALL_RIGHT)
    client = Client()
    for user in (world.users["b"], world.users["a"]):
        voided = client.post(
            address(world, "seq-attacks-void"),
            {"upload": guesses.pk, "reason": "mine"},
            **bearer(user),
        )
        assert voided.status_code == 403
        assert "organizers" in voided.json()["message"]
    SeqAttack.objects.filter(pk=guesses.pk).update(voided_at=timezone.now(), void_reason="x")
    restored = client.post(
        address(world, "seq-attack-restore", guesses.pk), **bearer(world.users["b"])
    )
    assert restored.status_code == 403
    assert SeqAttack.objects.get(pk=guesses.pk).voided_at is not None
    withdraw = address(world, "seq-attack", guesses.pk) + "withdraw/"
    assert client.post(withdraw, **bearer(world.users["b"])).status_code == 404


def test_the_console_lists_the_kind_s_types_and_the_team_s_pages_say_so_in_its_language():
    world = seq_world(slug="seqvoidpage")
    publish(world, "a", 1, fixture("zhang_release_1.csv"))
    twice = publish(world, "a", 1, fixture("zhang_release_1.csv"))
    console = Client()
    console.force_login(world.organizer)
    round_page = reverse("console:round", args=[world.competition.slug, world.round.slug])
    assert 'data-testid="round-voids-open"' in console.get(round_page).content.decode()
    page = reverse("console:round_voids", args=[world.competition.slug, world.round.slug])
    form = console.get(page).content.decode()
    assert '<option value="release">Release</option>' in form
    assert '<option value="attack">Attack</option>' in form

    posted = console.post(
        page, {"type": "release", "upload": str(twice.pk), "reason": "Sent twice"}
    )

    assert posted.status_code == 302
    assert f'data-testid="voided-{twice.pk}"' in console.get(page).content.decode()
    team = Client()
    team.force_login(world.users["a"])
    english = team.get(tab(world, "submit"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Voided by the organizers: Sent twice" in english
    assert '<tr class="voided">' in english
    team.cookies["django_language"] = "ja"
    assert "運営者が無効化: Sent twice" in team.get(tab(world, "submit")).content.decode()
    other = Client()
    other.force_login(world.users["b"])
    assert "Sent twice" not in other.get(tab(world, "submit")).content.decode()
    assert other.get(page).status_code == 404
    assert 'data-testid="latest"' in team.get(tab(world, "results")).content.decode()

    # Every release A sent so far: A has no valid release 1 left to freeze.
    before = timezone.localtime() + dt.timedelta(minutes=1)
    every = {"type": "release", "team": "teamA", "reason": "Old rules"}
    console.post(page, {**every, "before": before.strftime("%Y-%m-%dT%H:%M")})

    assert not Release.objects.filter(team=world.teams["a"], voided_at__isnull=True).exists()
    preview = selectors.freeze_preview(sequential=world.sequential)
    assert world.teams["a"] in preview["without"] and preview["ready"] == 0
    assert 'data-testid="no-release"' in team.get(tab(world, "results")).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_void_during_a_freeze_waits_for_it_and_is_refused(monkeypatch):
    """The freeze holds the round's row while it checks each team's release; a void of that
    release sent meanwhile waits for it, finds it frozen and is refused, rather than leaving
    a frozen release voided (real PostgreSQL transactions in threads)."""
    world = seq_world(slug="seqvoidrace", letters="a")
    release = publish(world, "a", 1, fixture("zhang_release_1.csv"))
    headers = bearer(world.organizer)
    slow_down(monkeypatch, engine, "sequence_check", 0.5)

    def void_meanwhile():
        time.sleep(0.1)  # the freeze has the round's row by then
        form = {"upload": release.pk, "reason": "late"}
        return Client().post(address(world, "seq-releases-void"), form, **headers).status_code

    answers, errors = at_once([lambda: freeze(world), void_meanwhile])

    assert errors == []
    assert sorted(answers) == [1, 409]  # release 1 frozen; the void refused
    release.refresh_from_db()
    assert release.is_frozen and release.voided_at is None
