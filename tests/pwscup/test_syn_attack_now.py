"""*Open the attack phase now*: a lecturer takes a class from the release phase to the attack
phase in one sitting, from the console, without a shell — the release phase closes, the
releases are frozen and the attack phase opens; after *Close now* collapsed the attack phase
it gets a length again (the core's ``round_phase_open_now``)."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import AuditEntry, Phase
from pwscup.competitions.services import round_phase_open_now, round_phases_close
from pwscup.core.errors import Refused
from pwscup.kinds.bundles import EMPTY_PHASE_LENGTH
from pwscup.synthetic import services
from pwscup.synthetic.models import SynTarget
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    dcr_answer_bytes,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db

ACTION = "attack_now"


def phase(world, kind) -> Phase:
    return Phase.objects.get(round=world.round, kind=kind)


def console(world, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.organizer)
    return client


def action_url(world) -> str:
    return reverse("console:round_action", args=[world.competition.slug, world.round.slug, ACTION])


def test_the_console_freezes_and_opens_the_attack_phase_and_a_team_attacks_at_once():
    world = syn_world(letters="ab")
    release(world, "a", baseline_release(world, "a"))
    release(world, "b", baseline_release(world, "b"))
    planned_close = phase(world, Phase.Kind.ATTACK).closes_at
    client = console(world)
    control = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    assert action_url(world) in control.content.decode()
    confirm = client.get(action_url(world))
    assert confirm.status_code == 200
    assert "the release phase closes now" in confirm.content.decode()
    assert not SynTarget.objects.filter(synthetic=world.synthetic).exists()  # GET asks only

    before = timezone.now()
    done = client.post(action_url(world), follow=True)
    assert done.status_code == 200
    assert "The attack phase is open until" in done.content.decode()
    release_phase, attack_phase = phase(world, "release"), phase(world, Phase.Kind.ATTACK)
    assert before <= release_phase.closes_at <= timezone.now()
    assert before <= attack_phase.opens_at <= timezone.now()
    assert attack_phase.closes_at == planned_close  # still ahead: kept
    world.synthetic.refresh_from_db()
    assert world.synthetic.frozen_at is not None
    targets = {t.team.slug: t for t in SynTarget.objects.filter(synthetic=world.synthetic)}
    assert set(targets) == {"teamA", "teamB"}
    assert AuditEntry.objects.filter(
        round=world.round, action=AuditEntry.Action.ROUND_EDITED
    ).exists()
    # The built-in attacks (the worker's job), then a team attacks another at once.
    for target in targets.values():
        services.target_score(target_id=target.pk)
    target = SynTarget.objects.get(pk=targets["teamB"].pk)
    hit = attack(world, "a", target, dcr_answer_bytes(world, target))
    assert hit.status == "finished", hit.message
    with pytest.raises(Refused):
        release(world, "a", baseline_release(world, "a"))  # releases are frozen


@pytest.mark.parametrize("plan_kept", [True, False])
def test_after_close_now_collapsed_the_attack_phase_it_runs_its_planned_length(plan_kept):
    """The phase Close now collapsed runs for its planned length; a phase collapsed before
    plans were kept (no plan recorded: ``plan_kept`` False) for the bundles' seven days."""
    world = syn_world(letters="ab")
    release(world, "a", baseline_release(world, "a"))
    planned = phase(world, Phase.Kind.ATTACK)
    planned_length = planned.closes_at - planned.opens_at
    assert planned_length != EMPTY_PHASE_LENGTH  # else the two cases could not be told apart
    assert services.synthetic_round_close(synthetic=world.synthetic) == 2
    collapsed = phase(world, Phase.Kind.ATTACK)
    assert collapsed.opens_at == collapsed.closes_at  # what Close now leaves
    if not plan_kept:
        Phase.objects.filter(pk=collapsed.pk).update(planned_opens_at=None, planned_closes_at=None)
    client = console(world, "ja")
    assert (
        action_url(world)
        in client.get(
            reverse("console:round", args=[world.competition.slug, world.round.slug])
        ).content.decode()
    )
    before = timezone.now()
    page = client.post(action_url(world), follow=True).content.decode()
    assert "攻撃フェーズ" in page
    attack_phase = phase(world, Phase.Kind.ATTACK)
    expected = planned_length if plan_kept else EMPTY_PHASE_LENGTH
    assert attack_phase.closes_at - attack_phase.opens_at == expected
    assert attack_phase.opens_at >= before


def test_a_phase_past_its_close_opens_now_for_its_planned_length():
    world = syn_world(letters="a")
    now = timezone.now()
    day = dt.timedelta(days=1)
    Phase.objects.filter(round=world.round, kind="release").update(
        opens_at=now - 5 * day, closes_at=now - 3 * day
    )
    Phase.objects.filter(round=world.round, kind=Phase.Kind.ATTACK).update(
        opens_at=now - 3 * day, closes_at=now - day
    )
    opened = round_phase_open_now(round=world.round, kind=Phase.Kind.ATTACK, now=now)
    assert (opened.opens_at, opened.closes_at) == (now, now + 2 * day)
    release_phase = phase(world, "release")  # closed already: left as it was
    assert (release_phase.opens_at, release_phase.closes_at) == (now - 5 * day, now - 3 * day)
    # Open already: nothing moves.
    again = round_phase_open_now(round=world.round, kind=Phase.Kind.ATTACK, now=now + day)
    assert (again.opens_at, again.closes_at) == (now, now + 2 * day)


def test_not_offered_while_the_attack_phase_is_open_and_refused_once_published():
    world = syn_world(letters="a")
    client = console(world)
    services.attack_phase_open_now(synthetic=world.synthetic, user=world.organizer)
    control = client.get(
        reverse("console:round", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    assert action_url(world) not in control
    round_phases_close(round=world.round)
    services.results_publish(synthetic=world.synthetic, user=world.organizer)
    world.synthetic.refresh_from_db()
    with pytest.raises(Refused):
        services.attack_phase_open_now(synthetic=world.synthetic, user=world.organizer)
    assert phase(world, Phase.Kind.ATTACK).closes_at <= timezone.now()


def test_only_an_organizer_of_the_competition_may_do_it():
    world = syn_world(letters="a")
    client = Client()
    client.force_login(world.users["a"])
    answer = client.post(action_url(world))
    assert answer.status_code in (403, 404)
    assert phase(world, "release").closes_at > timezone.now()
    assert world.synthetic.frozen_at is None


def test_after_a_freeze_it_says_the_round_was_frozen_and_how_many_targets_it_has():
    """Re-run after a freeze (and *Close now*): no release changed, so none is republished,
    and the message says the targets the round has, not "0 targets published"."""
    world = syn_world(letters="ab")
    release(world, "a", baseline_release(world, "a"))
    release(world, "b", baseline_release(world, "b"))
    client = console(world)
    freeze_url = reverse(
        "console:round_action", args=[world.competition.slug, world.round.slug, "freeze"]
    )
    assert (
        "Froze the round: 2 targets published."
        in client.post(freeze_url, follow=True).content.decode()
    )
    assert services.synthetic_round_close(synthetic=world.synthetic) == 2
    page = client.post(action_url(world), follow=True).content.decode()
    assert "The round was already frozen: 2 targets published, 0 of them republished now." in page
    assert "0 targets published" not in page
    again = client.post(freeze_url, follow=True).content.decode()
    assert "Froze the round again: 2 targets published, 0 of them republished now" in again
