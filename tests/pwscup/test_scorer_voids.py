"""Voided and withdrawn uploads in a scorer round (PWSCup 2016's "logically deleted" uploads,
2017's withdrawn re-identification files): a voided attack no longer supplies its cell of the
matrix, frees the team's quota, is kept in the audit log and told to its team; a team
withdraws only its own attacks, only where and while the round lets it."""

import datetime as dt
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.api.services import api_token_create
from pwscup.competitions.models import AuditEntry
from pwscup.notifications.models import Notification
from pwscup.scorer import selectors
from pwscup.scorer.models import Attack, Release, Target
from pwscup.scorer.services.freeze import round_freeze
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import quota_day_of, uploads_quota_usage
from tests.pwscup.races import at_once
from tests.pwscup.scorer_world import CONFIG, scorer_world

pytestmark = pytest.mark.django_db


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def played(*, withdrawal: str = "off"):
    """Teams A and B are targets; C attacks A twice (0.9 then 0.6), B attacks A once (0.7),
    A attacks B once (0.2). The round is frozen."""
    world = scorer_world(
        slug=f"void{withdrawal[:3]}",
        build=False,
        config={**CONFIG, "attack_withdrawal": withdrawal},
    )
    world.scorer.frozen_at = timezone.now()
    world.scorer.save(update_fields=["frozen_at"])
    targets = {}
    for letter, utility in (("a", 90.0), ("b", 80.0)):
        release = Release.objects.create(
            scorer=world.scorer,
            team=world.teams[letter],
            number=1,
            status=Status.FINISHED,
            scores={"utility": utility},
        )
        targets[letter] = Target.objects.create(
            scorer=world.scorer, team=world.teams[letter], release=release
        )
    attacks = {}
    for name, letter, target, number, value in (
        ("c1", "c", "a", 1, 0.9),
        ("c2", "c", "a", 2, 0.6),
        ("b1", "b", "a", 1, 0.7),
        ("a1", "a", "b", 1, 0.2),
    ):
        attacks[name] = Attack.objects.create(
            scorer=world.scorer,
            team=world.teams[letter],
            target=targets[target],
            number=number,
            status=Status.FINISHED,
            scores={"reidentified": value},
        )
    return world, attacks


def attacker_order(world) -> list[str]:
    return [row.team.slug for row in selectors.standings(scorer=world.scorer).attackers]


def test_a_voided_best_attack_hands_its_cell_to_the_next_best_and_a_restore_brings_it_back():
    world, attacks = played()
    assert selectors.attack_matrix(scorer=world.scorer)["teama"] == {"teamc": 0.9, "teamb": 0.7}
    assert attacker_order(world)[0] == "teamc"
    client = Client()

    answer = client.post(
        address(world, "scorer-attacks-void"),
        {"upload": attacks["c1"].pk, "reason": "The rules changed on 9/7"},
        **bearer(world.organizer),
    )

    assert answer.status_code == 200, answer.content
    assert answer.json() == {"voided": 1}
    assert selectors.attack_matrix(scorer=world.scorer)["teama"] == {"teamc": 0.6, "teamb": 0.7}
    assert attacker_order(world)[0] == "teamb"
    kept = Attack.objects.get(pk=attacks["c1"].pk)
    assert (kept.status, kept.scores, kept.withdrawn) == (
        Status.FINISHED,
        {"reidentified": 0.9},
        False,
    )
    entry = AuditEntry.objects.get(action=AuditEntry.Action.UPLOADS_VOIDED)
    assert (entry.user, entry.detail["reason"]) == (world.organizer, "The rules changed on 9/7")
    told = Notification.objects.get(user=world.users["c"], kind=Notification.Kind.UPLOAD_VOIDED)
    assert "The rules changed on 9/7" in told.params["reason"]
    mine = client.get(address(world, "scorer-attacks"), **bearer(world.users["c"])).json()
    voided = {upload["id"]: upload["voided"] for upload in mine}
    assert voided[attacks["c2"].pk] is None
    assert voided[attacks["c1"].pk]["by_organizers"] is True
    assert voided[attacks["c1"].pk]["reason"] == "The rules changed on 9/7"

    restored = client.post(
        address(world, "scorer-attack-restore", attacks["c1"].pk), **bearer(world.organizer)
    )

    assert restored.status_code == 200
    assert selectors.attack_matrix(scorer=world.scorer)["teama"]["teamc"] == 0.9
    assert AuditEntry.objects.filter(action=AuditEntry.Action.UPLOAD_RESTORED).count() == 1


def test_every_upload_before_a_time_is_voided_and_frees_the_quota():
    world, attacks = played()
    Attack.objects.filter(pk=attacks["c1"].pk).update(
        created_at=timezone.now() - dt.timedelta(hours=3)
    )
    team_c = Attack.objects.filter(scorer=world.scorer, team=world.teams["c"])
    day = quota_day_of(world.round)
    assert uploads_quota_usage(team_c, day=day, now=timezone.now()).used_total == 2

    answer = Client().post(
        address(world, "scorer-attacks-void"),
        {"before": (timezone.now() - dt.timedelta(hours=1)).isoformat(), "reason": "Old rule"},
        **bearer(world.organizer),
    )

    assert answer.json() == {"voided": 1}
    assert uploads_quota_usage(team_c, day=day, now=timezone.now()).used_total == 1
    assert Attack.objects.get(pk=attacks["c2"].pk).voided_at is None


def test_a_team_neither_voids_nor_restores_and_the_reason_is_required():
    world, attacks = played()
    client = Client()
    as_team = client.post(
        address(world, "scorer-attacks-void"),
        {"upload": attacks["b1"].pk, "reason": "mine now"},
        **bearer(world.users["c"]),
    )
    assert as_team.status_code == 403
    assert "organizers" in as_team.json()["message"]
    no_reason = client.post(
        address(world, "scorer-attacks-void"),
        {"upload": attacks["b1"].pk, "reason": " "},
        **bearer(world.organizer),
    )
    assert no_reason.status_code == 400
    assert Attack.objects.filter(voided_at__isnull=False).count() == 0


def test_a_frozen_target_release_is_not_voided():
    world, _attacks = played()
    release = Target.objects.get(scorer=world.scorer, team=world.teams["a"]).release
    answer = Client().post(
        address(world, "scorer-releases-void"),
        {"upload": release.pk, "reason": "late"},
        **bearer(world.organizer),
    )
    assert answer.status_code == 409
    assert "target" in answer.json()["message"]
    assert Release.objects.get(pk=release.pk).voided_at is None


def test_a_team_withdraws_its_own_attack_only_where_and_while_the_round_allows_it():
    world, attacks = played(withdrawal="until_published")
    client = Client()
    others = client.post(
        address(world, "scorer-attack-withdraw", attacks["b1"].pk), **bearer(world.users["c"])
    )
    assert others.status_code == 404

    mine = client.post(
        address(world, "scorer-attack-withdraw", attacks["c1"].pk),
        {"reason": "a wrong file"},
        **bearer(world.users["c"]),
    )

    assert mine.status_code == 200, mine.content
    assert mine.json()["voided"]["by_organizers"] is False
    assert selectors.attack_matrix(scorer=world.scorer)["teama"]["teamc"] == 0.6
    assert AuditEntry.objects.filter(action=AuditEntry.Action.UPLOAD_WITHDRAWN).count() == 1
    world.scorer.results_published = True
    world.scorer.save(update_fields=["results_published"])
    late = client.post(
        address(world, "scorer-attack-withdraw", attacks["c2"].pk), **bearer(world.users["c"])
    )
    assert late.status_code == 403
    assert "withdraw" in late.json()["message"]


def test_a_round_without_the_setting_refuses_a_withdrawal():
    world, attacks = played()
    answer = Client().post(
        address(world, "scorer-attack-withdraw", attacks["c1"].pk), **bearer(world.users["c"])
    )
    assert answer.status_code == 403
    assert Attack.objects.get(pk=attacks["c1"].pk).voided_at is None


def test_the_console_voids_and_the_team_s_pages_say_so_in_its_language():
    world, attacks = played(withdrawal="until_published")
    console = Client()
    console.force_login(world.organizer)
    page = reverse("console:round_voids", args=[world.competition.slug, world.round.slug])
    posted = console.post(
        page, {"type": "attack", "upload": str(attacks["b1"].pk), "reason": "Sent twice"}
    )
    assert posted.status_code == 302
    listed = console.get(page).content.decode()
    assert f'data-testid="voided-{attacks["b1"].pk}"' in listed
    assert "Sent twice" in listed
    team = Client()
    team.force_login(world.users["b"])
    submit = reverse("round_tab", args=[world.competition.slug, world.round.slug, "submit"])
    english = team.get(submit, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Voided by the organizers: Sent twice" in english
    team.cookies["django_language"] = "ja"
    assert "運営者が無効化: Sent twice" in team.get(submit).content.decode()
    other = Client()
    other.force_login(world.users["c"])
    theirs = other.get(submit).content.decode()
    assert "Sent twice" not in theirs  # another team's void is not shown to C
    assert 'data-testid="withdraw-1"' in theirs
    withdraw = reverse(
        "scorer:scorer-attack-withdraw",
        args=[world.competition.slug, world.round.slug, attacks["c1"].pk],
    )
    assert other.post(withdraw).status_code == 302
    assert Attack.objects.get(pk=attacks["c1"].pk).withdrawn is True
    assert console.get(page).status_code == 200
    assert team.get(page).status_code == 404


def test_the_console_refuses_an_unknown_team_or_time_and_voids_nothing():
    """A team slug naming no team is refused, not read as "every team" (the console voided
    every team's uploads for one), and a time that is none is refused, beside its field."""
    world, _attacks = played()
    console = Client()
    console.force_login(world.organizer)
    page = reverse("console:round_voids", args=[world.competition.slug, world.round.slug])
    soon = (timezone.localtime() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    for posted, refusal in (
        ({"team": "nobody", "before": soon}, "Select a valid choice."),
        ({"team": "", "before": "soon"}, "Enter a valid date/time."),
    ):
        answer = console.post(page, {"type": "attack", "reason": "Rules changed", **posted})
        assert answer.status_code == 200
        assert refusal in answer.content.decode()
        assert not Attack.objects.filter(voided_at__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_a_void_during_a_freeze_waits_for_it_and_is_refused(monkeypatch):
    """The freeze reads each team's final release, then publishes it; a void of that release
    sent in between waits for the freeze (the kind's lock, ``VoidableUploads.void_lock``),
    finds it published and is refused, rather than leaving a published target voided (real
    PostgreSQL transactions in threads)."""
    world = scorer_world(slug="voidrace", letters="ab", build=False)
    release = Release.objects.create(
        scorer=world.scorer,
        team=world.teams["a"],
        number=1,
        status=Status.FINISHED,
        scores={"utility": 90.0},
    )
    read = selectors.final_release

    def read_then_wait(**kwargs):
        found = read(**kwargs)
        time.sleep(0.5)  # the release is read; its target is not written yet
        return found

    monkeypatch.setattr(selectors, "final_release", read_then_wait)
    headers = bearer(world.organizer)

    def void_meanwhile():
        time.sleep(0.15)  # the freeze has read team A's release by then
        form = {"upload": release.pk, "reason": "late"}
        return Client().post(address(world, "scorer-releases-void"), form, **headers).status_code

    answers, errors = at_once([lambda: len(round_freeze(scorer=world.scorer)), void_meanwhile])

    assert errors == []
    assert 409 in answers
    release.refresh_from_db()
    assert release.voided_at is None
    assert Target.objects.filter(release=release).exists()
