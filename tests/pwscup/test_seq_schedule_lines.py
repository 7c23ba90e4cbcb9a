"""A sequential round's schedule (``RoundKind.schedule_lines``): one line per release and,
with an attack phase, the attack phase's, every line of the one shape of the core's
``pwscup.competitions.windows.plan_line`` (the competition page, the Overview and the API's
``schedule`` read them alike)."""

import datetime as dt

import pytest
from django.utils import timezone

from pwscup.kinds import get_kind
from pwscup.sequential import services
from pwscup.sequential.models import SequentialRound
from tests.pwscup.seq_web_world import attack_phase_world, seq_world

pytestmark = pytest.mark.django_db

KEYS = {"label", "opens_at", "closes_at", "planned_closes_at", "state", "held"}


def lines_of(world) -> list[dict]:
    round_ = type(world.round).objects.get(pk=world.round.pk)  # the stored settings
    return get_kind("sequential").schedule_lines(round_)


def test_each_release_has_a_line_with_its_close_and_state_and_no_plan_apart():
    world = seq_world(slug="seqlines")
    first = timezone.now().replace(microsecond=0) + dt.timedelta(days=1)
    services.schedule_set(
        sequential=world.sequential, first_close=first, step_length=dt.timedelta(days=1)
    )
    assert lines_of(world) == [
        {
            "label": "Release 1",
            "opens_at": None,
            "closes_at": first,
            "planned_closes_at": None,
            "state": "open",
            "held": "",
        },
        {
            "label": "Release 2",
            "opens_at": None,
            "closes_at": first + dt.timedelta(days=1),
            "planned_closes_at": None,
            "state": "upcoming",
            "held": "",
        },
    ]
    services.schedule_set(sequential=world.sequential)  # no deadlines
    assert [(line["closes_at"], line["planned_closes_at"]) for line in lines_of(world)] == [
        (None, None),
        (None, None),
    ]


def test_the_release_lines_and_the_attack_line_have_one_shape():
    world = attack_phase_world(slug="seqlines2", pool=None)
    close = timezone.now().replace(microsecond=0) + dt.timedelta(days=3)
    SequentialRound.objects.filter(pk=world.sequential.pk).update(attack_closes_at=close)
    lines = lines_of(world)
    assert [line["label"] for line in lines] == ["Release 1", "Release 2", "Attack phase"]
    assert all(set(line) == KEYS for line in lines), lines
    assert [line["state"] for line in lines] == ["frozen", "frozen", "open"]
    assert lines[-1]["closes_at"] == close and lines[-1]["planned_closes_at"] is None
