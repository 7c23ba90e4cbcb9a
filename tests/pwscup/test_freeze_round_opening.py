"""``manage.py freeze_round`` keeps the console's rule of a freeze before the anonymization
phase opens (``freeze_opening_check``): refused, nothing queued, unless ``--before-opening``
says so, as the confirmation page's box does."""

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone, translation

from pwscup.competitions.models import Phase
from pwscup.pwscup2015.models import RoundOperation

pytestmark = pytest.mark.django_db


@pytest.fixture
def unopened(world):
    """The world's round with its anonymization phase opening tomorrow."""
    phase = world.round.phases.get(kind=Phase.Kind.ANONYMIZATION)
    phase.opens_at = timezone.now() + dt.timedelta(days=1)
    phase.closes_at = phase.opens_at + dt.timedelta(days=7)
    phase.save()
    return world


def test_a_freeze_before_the_opening_is_refused_and_queues_nothing(unopened):
    with pytest.raises(CommandError) as refused:
        call_command("freeze_round", unopened.competition.slug, unopened.round.slug)
    assert "opens at" in str(refused.value) and "--before-opening" in str(refused.value)
    assert not RoundOperation.objects.filter(round=unopened.round).exists()
    with translation.override("ja"), pytest.raises(CommandError) as refused_ja:
        call_command("freeze_round", unopened.competition.slug, unopened.round.slug)
    assert "コマンドラインでは --before-opening" in str(refused_ja.value)


def test_before_opening_freezes_as_the_box_does(unopened):
    out = io.StringIO()
    call_command(
        "freeze_round",
        unopened.competition.slug,
        unopened.round.slug,
        "--before-opening",
        stdout=out,
    )
    (operation,) = RoundOperation.objects.filter(round=unopened.round)
    assert (
        operation.kind == RoundOperation.Kind.FREEZE
        and f"operation {operation.pk}" in out.getvalue()
    )


def test_an_open_phase_needs_no_flag(world):
    call_command("freeze_round", world.competition.slug, world.round.slug, stdout=io.StringIO())
    assert (
        RoundOperation.objects.filter(round=world.round, kind=RoundOperation.Kind.FREEZE).count()
        == 1
    )
