"""``load_demo`` on its own data: ``scripts/demo`` runs it at every start, so a second run
after a class used the demo adds what the demo lacks and keeps everything else.

The first run is the module's (``demo_loaded``, tests/conftest.py: loaded once and committed,
4 s of CPU a time); each test runs the command again in its own rolled-back transaction. A run
on a database that is not the demo's is in test_load_demo.py."""

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from pwscup.accounts.models import Team
from pwscup.accounts.services import team_create
from pwscup.competitions.models import Competition, Phase
from pwscup.presentations.models import PresentationWindow
from pwscup.pwscup2015 import services as y2015
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round, TeamDataset
from pwscup.submissions.models import Status
from tests.pwscup.factories import read_field
from tests.support import csv_upload, noisy_copy, site_kinds

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_loaded")]


def _demo_rows(competition) -> dict:
    """What the demo is made of, counted (the same after a second run)."""
    return {
        "rounds": sorted(competition.rounds.values_list("slug", flat=True)),
        "phases": Phase.objects.filter(round__competition=competition).count(),
        "teams": sorted(competition.teams.values_list("slug", flat=True)),
        "windows": PresentationWindow.objects.filter(competition=competition).count(),
        "samples": TeamDataset.objects.filter(round__competition=competition).count(),
        "competitions": Competition.objects.count(),
    }


def _a_class_plays(django_user_model, competition):
    """A student signs up, registers a team, uploads to the per-team round and is scored;
    the lecturer renames the demo and a demo team changes its password."""
    student = django_user_model.objects.create_user("student-1", password="student-pw")
    team = team_create(competition=competition, name="Les Anonymes", captain=student)
    per_team = competition.rounds.get(slug="round-2")
    sample = read_field(per_team.team_datasets.get(team=team).file)
    submission = y2015.anonymization_submission_create(
        phase=per_team.phases.get(kind=Phase.Kind.ANONYMIZATION),
        team=team,
        user=student,
        uploaded_file=csv_upload(noisy_copy(sample, seed=1)),
    )
    y2015.anonymization_submission_score(submission_id=submission.pk)
    Competition.objects.filter(pk=competition.pk).update(name="Privacy class, Monday")
    member = django_user_model.objects.get(username="team-a")
    member.set_password("changed-on-monday")
    member.save()
    return student, team, AnonymizationSubmission.objects.get(pk=submission.pk)


def test_a_second_run_after_a_class_played_keeps_its_data_and_adds_nothing_twice(
    django_user_model, capsys
):
    competition = Competition.objects.get(slug="demo")
    student, team, submission = _a_class_plays(django_user_model, competition)
    assert submission.status == Status.FINISHED
    before = _demo_rows(competition)
    accounts = set(django_user_model.objects.values_list("username", "password"))

    call_command("load_demo")  # refused on a database holding another account, before

    assert "Demo competition 'demo' already exists" in capsys.readouterr().out
    assert _demo_rows(competition) == before
    assert before["teams"] == ["les-anonymes", "teamA", "teamB", "teamC"]
    assert set(django_user_model.objects.values_list("username", "password")) == accounts
    student.refresh_from_db()
    assert student.check_password("student-pw")
    assert django_user_model.objects.get(username="team-a").check_password("changed-on-monday")
    assert list(Team.objects.get(pk=team.pk).members.all()) == [student]
    kept = AnonymizationSubmission.objects.get(pk=submission.pk)
    assert (kept.status, kept.file.name, read_field(kept.file)) == (
        Status.FINISHED,
        submission.file.name,
        read_field(submission.file),
    )
    assert kept.scores == submission.scores and kept.scores
    assert Competition.objects.get(pk=competition.pk).name == "Privacy class, Monday"


def test_a_second_run_makes_again_what_the_demo_lacks(django_user_model):
    """A demo team, a demo round and the presentation window deleted: made again, the new
    team with its sample of the per-team round; what is there is not touched."""
    competition = Competition.objects.get(slug="demo")
    competition.teams.get(slug="teamC").delete()
    competition.rounds.get(slug="seq-paper").delete()
    competition.presentation_windows.all().delete()
    kept_round = competition.rounds.get(slug="round-1")

    call_command("load_demo")

    team_c = competition.teams.get(slug="teamC")
    assert [m.username for m in team_c.members.all()] == ["team-c"]
    assert TeamDataset.objects.filter(round__slug="round-2", team=team_c).count() == 1
    assert competition.rounds.filter(slug="seq-paper").count() == 1
    assert competition.rounds.count() == 8
    assert competition.presentation_windows.count() == 1
    assert competition.rounds.get(slug="round-1").pk == kept_round.pk


def test_a_demo_made_before_the_marker_is_taken_as_the_demo(django_user_model):
    """A laptop's demo from before ``is_demo``: nothing but the demo's rows, so it is the
    demo; from then on a student's account does not stop the next run."""
    Competition.objects.filter(slug="demo").update(is_demo=False)
    call_command("load_demo")
    assert Competition.objects.get(slug="demo").is_demo
    django_user_model.objects.create_user("student-1", password="student-pw")
    call_command("load_demo")
    assert Competition.objects.get(slug="demo").rounds.count() == 8


def test_load_demo_creates_the_playable_demo_once(capsys):
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
