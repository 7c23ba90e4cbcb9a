"""Management commands: the demo loader and the round operations."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.test import RequestFactory

from pwscup.accounts.models import Team
from pwscup.competitions.models import Competition
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round, Target, TeamDataset
from pwscup.submissions.models import Status
from tests.pwscup.factories import run_operations, scored
from tests.support import site_kinds

pytestmark = pytest.mark.django_db


def test_load_demo_creates_the_playable_demo_once(capsys):
    call_command("load_demo")
    competition = Competition.objects.get(slug="demo")
    # Every kind's demo_load ran: every kind the site registers has its demo rounds.
    kinds = {kind.key for kind in site_kinds()}
    assert len(kinds) >= 5
    played = {r.kind for r in competition.rounds.all()}
    assert not kinds - played, (
        f"kinds without a demo round (pwscup/<kind>/demo.py): {kinds - played}"
    )
    assert played <= kinds
    # The first kind's two rounds (the other kinds' demo rounds are tested with their kinds).
    rounds = {r.slug: r for r in competition.rounds.filter(kind="pwscup2015")}
    assert set(rounds) == {"round-1", "round-2"}
    assert rounds["round-1"].original_rows == 32561
    assert rounds["round-2"].pwscup2015.data_mode == Pwscup2015Round.DataMode.PER_TEAM
    assert all(r.phases.count() == 2 for r in rounds.values())
    assert {t.slug for t in Team.objects.filter(competition=competition)} == {
        "teamA",
        "teamB",
        "teamC",
    }
    for username in ("organizer", "team-a", "team-b", "team-c"):
        # django-axes keys its lock-outs on the request: authenticate as the login view does.
        request = RequestFactory().post("/accounts/login/")
        assert authenticate(request, username=username, password="pwscup-demo") is not None
    samples = TeamDataset.objects.filter(round=rounds["round-2"])
    assert samples.count() == 3 and {d.rows for d in samples} == {100}
    assert len({tuple(d.sample_index) for d in samples}) == 3  # each team its own sample
    call_command("load_demo")
    assert "already exists" in capsys.readouterr().out
    assert Competition.objects.filter(slug="demo").count() == 1


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
