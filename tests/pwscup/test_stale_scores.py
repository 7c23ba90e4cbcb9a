"""Scores computed by an older scorer version are marked for the organizers until rescored."""

import pytest
from django.urls import reverse

import scoring
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission, BuiltinAttack, Target
from pwscup.pwscup2015.selectors import round_stale_scores
from tests.pwscup.factories import freeze, score, scored

pytestmark = pytest.mark.django_db

OLD = "2015.1"  # the version before E3 split its ties (metrics.md, E3 revision 2)
MARK = f"scored with {OLD} — rescore"


def test_the_e3_revision_bumped_the_scorer_version():
    assert scoring.SCORER_VERSION != OLD


@pytest.fixture
def stale_world(world):
    """Team A scored and frozen, then its scores made to look computed by the old scorer."""
    submission = scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    freeze(world)
    AnonymizationSubmission.objects.filter(pk=submission.pk).update(scorer_version=OLD)
    BuiltinAttack.objects.filter(target__submission=submission).update(scorer_version=OLD)
    return world, submission


def test_round_stale_scores_counts_what_an_older_scorer_computed(stale_world):
    world, _ = stale_world
    stale = round_stale_scores(round=world.round)
    assert (stale.anonymizations, stale.targets, stale.attacks) == (1, 1, 0)
    assert stale.versions == (OLD,) and stale.current == scoring.SCORER_VERSION


def banner(count: int) -> str:
    return (
        f"{count} scores of this round were computed with an older scorer version "
        f"({OLD}; the current one is {scoring.SCORER_VERSION})."
    )


def test_organizer_pages_mark_stale_scores(client, stale_world):
    world, _ = stale_world
    client.force_login(world.organizer)
    leaderboard = client.get(reverse("leaderboard", args=[world.competition.slug, "r1"]))
    page = leaderboard.content.decode()
    assert banner(2) in page
    assert f'data-testid="stale-teamA">{MARK}</small>' in page
    assert 'data-testid="stale-teamB"' not in page  # scored by the current version
    for name in ("round_detail", "matrix", "final_ranking"):
        page = client.get(reverse(name, args=[world.competition.slug, "r1"])).content.decode()
        assert banner(2) in page, name


def test_teams_do_not_see_the_organizer_notice(client, stale_world):
    world, _ = stale_world
    world.anonymization.leaderboard_public = True
    world.anonymization.save()
    client.force_login(world.users["b"])
    for name in ("round_detail", "leaderboard"):
        page = client.get(reverse(name, args=[world.competition.slug, "r1"])).content.decode()
        assert "older scorer version" not in page and MARK not in page, name


def test_admin_lists_mark_stale_scores(client, django_user_model, stale_world):
    admin = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(admin)
    for model in ("anonymizationsubmission", "target"):
        page = client.get(reverse(f"admin:pwscup2015_{model}_changelist")).content.decode()
        assert f"<strong>{MARK}</strong>" in page, model
        assert page.count(MARK) == 1, model  # team B's row is current


def test_rescoring_the_round_clears_the_mark(client, stale_world):
    world, _ = stale_world
    services.round_rescore_all(round=world.round)  # "Rescore everything"; run its jobs here
    for submission in AnonymizationSubmission.objects.filter(phase__round=world.round):
        score(submission)
    for target in Target.objects.filter(round=world.round):
        services.target_builtin_score(target_id=target.pk)
    assert round_stale_scores(round=world.round).count == 0
    client.force_login(world.organizer)
    page = client.get(reverse("leaderboard", args=[world.competition.slug, "r1"])).content.decode()
    assert MARK not in page and "older scorer version" not in page


def test_the_marks_are_in_japanese_too(client, stale_world):
    world, _ = stale_world
    client.force_login(world.organizer)
    client.cookies["django_language"] = "ja"
    page = client.get(reverse("leaderboard", args=[world.competition.slug, "r1"])).content.decode()
    assert f"{OLD} で採点 — 再採点が必要" in page
    assert f"このラウンドの 2 件のスコアは古いバージョンの採点プログラム（{OLD}、" in page
