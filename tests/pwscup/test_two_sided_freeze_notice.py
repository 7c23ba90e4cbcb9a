"""The teams are told of a freeze once, and again only when a freeze republishes a target:
*Open the attack phase now* after *Freeze the releases* republishes nothing, so it sends no
second "frozen, targets published" notice (the core's ``two_sided_freeze``, which the
scorer and synthetic kinds both use)."""

import pytest

from pwscup.notifications.models import Notification
from pwscup.synthetic.services import attack_phase_open_now
from tests.pwscup import scorer_world as sco
from tests.pwscup import syn_world as syn

pytestmark = pytest.mark.django_db


def told(world) -> int:
    return Notification.objects.filter(
        kind=Notification.Kind.ROUND_FROZEN, params__round=world.round.name
    ).count()


def test_scorer_open_now_after_a_freeze_tells_the_teams_nothing_new():
    world = sco.scorer_world(slug="frn", letters="ab")
    sco.release(world, "a", sco.release_bytes(1))
    assert list(sco.freeze(world)) == ["teama"]
    assert told(world) == len(world.users)
    assert sco.attack_phase(world) and told(world) == len(world.users)


def test_synthetic_open_now_after_a_freeze_tells_the_teams_nothing_new():
    world = syn.syn_world(slug="frs", letters="ab")
    syn.release(world, "a", syn.baseline_release(world, "a"))
    assert len(syn.freeze(world)) == 1
    assert told(world) == len(world.users)
    world.synthetic.refresh_from_db()
    attack_phase_open_now(synthetic=world.synthetic, user=world.organizer)
    assert told(world) == len(world.users)


def test_a_first_freeze_publishing_nothing_is_told_once():
    world = sco.scorer_world(slug="fre", letters="ab")
    assert sco.freeze(world) == {}
    assert told(world) == len(world.users)
    assert sco.attack_phase(world) == {} and told(world) == len(world.users)
