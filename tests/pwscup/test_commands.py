"""Management commands: the round operations (``load_demo``: test_load_demo*.py)."""

import pytest
from django.core.management import CommandError, call_command

from pwscup.pwscup2015.models import AnonymizationSubmission, Target
from pwscup.submissions.models import Status
from tests.pwscup.factories import run_operations, scored

pytestmark = pytest.mark.django_db


def test_freeze_and_rescore_commands(world, capsys):
    submission = scored(world, "a", seed=3)
    call_command("freeze_round", world.competition.slug, world.round.slug)
    out = capsys.readouterr().out
    assert f"{world.round}: freeze started. (operation " in out
    assert "follow it on the round's admin page, or wait for it with --wait" in out
    assert not Target.objects.exists()  # returned at once: a worker runs the freeze
    call_command("freeze_round", world.competition.slug, world.round.slug)
    assert f"{world.round}: Freeze is already under way (0 of 0 done)." in (capsys.readouterr().out)
    (freeze,) = run_operations()
    assert freeze.result == {"targets": 1, "published": 1, "unchanged": 0}
    assert Target.objects.get(round=world.round).submission == submission
    call_command("rescore_round", world.competition.slug, world.round.slug)
    assert f"{world.round}: rescoring of everything started." in capsys.readouterr().out
    (rescore,) = run_operations()
    assert rescore.result == {"anonymizations": 1, "targets": 1, "attacks": 0}
    assert AnonymizationSubmission.objects.get(pk=submission.pk).status == Status.QUEUED
    with pytest.raises(CommandError, match="No round"):
        call_command("freeze_round", world.competition.slug, "missing")
