"""Attack phase of the sequential round (spec §10) on per-team masters, and its secrets:
masters, truths, releases and risk tables never reach another team."""

import io

import pandas as pd
import pytest

from pwscup.core.errors import Refused
from pwscup.sequential import selectors, services
from pwscup.sequential.models import SeqAttack, SeqTarget, SequentialRound
from tests.pwscup.seq_web_world import (
    attack as seq_attack,
)
from tests.pwscup.seq_web_world import (
    attack_phase_world,
    fixture_config,
    seq_world,
    tab,
    upload_file,
)

pytestmark = pytest.mark.django_db

W6_GUESSES = b"pid,guess\nBob,dyspepsia\nAlice,dyspepsia\nAndy,dyspepsia\nDavid,\nEmily,dyspepsia\n"


def attack_world():
    """Teams A and B each get the W3 master (uploaded per team) and publish 表 12 + 表 13."""
    world = attack_phase_world(slug="seqatk", pool=None)
    return world


def test_targets_are_published_without_pids_and_the_map_attackers_fill_their_rows():
    world = attack_world()
    target = SeqTarget.objects.get(sequential=world.sequential, team=world.teams["a"])
    names = sorted(target.files)
    assert names == sorted(
        [
            "teamA_release_1.csv",
            "teamA_release_2.csv",
            "teamA_background.csv",
            "teamA_counterfeits.csv",
        ]
    )
    release = pd.read_csv(io.StringIO(target.files["teamA_release_2.csv"]))
    assert "pid" not in release.columns and list(release.columns[:1]) == ["gid"]
    background = pd.read_csv(io.StringIO(target.files["teamA_background.csv"]))
    assert list(background.columns) == ["pid", "Age", "Zip", "lsf", "lsb"]  # no Disease
    assert target.map_n == pytest.approx(7 / 10) and target.map_a == pytest.approx(3 / 5)
    matrix = selectors.attack_matrix(sequential=world.sequential)
    assert [row.name for row in matrix.rows[:2]] == ["MAP_N", "MAP_A"]


def test_w6_guesses_score_three_fifths_and_bad_lines_are_named():
    world = attack_world()
    target = SeqTarget.objects.get(sequential=world.sequential, team=world.teams["a"])
    queued = services.attack_upload(
        target=target,
        team=world.teams["b"],
        user=world.users["b"],
        uploaded_file=upload_file(W6_GUESSES, "teamB_attack_teamA.csv"),
    )
    # Kept as uploaded and QUEUED: the worker scores it, never the request.
    assert queued.status == SeqAttack.Status.QUEUED and queued.accuracy is None
    assert queued.size == len(W6_GUESSES) and queued.number == 1
    services.attack_score(attack_id=queued.pk)
    attack = SeqAttack.objects.get(pk=queued.pk)
    assert attack.status == SeqAttack.Status.FINISHED and attack.accuracy == pytest.approx(0.6)
    bad = seq_attack(world, "b", target, b"pid,guess\nZoe,flu\n")
    assert bad.status == SeqAttack.Status.FAILED and bad.number == 2
    assert "line 2: pid 'Zoe' is not a target of this sequence" in bad.message
    # A message about the file itself names it as the team uploaded it.
    ragged = seq_attack(world, "b", target, b"pid,guess\nBob,flu,x\n", name="my_guesses.csv")
    assert ragged.status == SeqAttack.Status.FAILED
    assert ragged.original_filename == "my_guesses.csv"
    assert "my_guesses.csv" in ragged.message and "guesses:" not in ragged.message
    with pytest.raises(Refused):
        services.attack_upload(
            target=target,
            team=world.teams["a"],
            user=world.users["a"],
            uploaded_file=upload_file(W6_GUESSES, "own.csv"),
        )
    # Safety of A is now the highest accuracy reached on it: MAP_N's 7/10.
    rows = {row.team.slug: row for row in selectors.leaderboard_rows(sequential=world.sequential)}
    assert rows["teamA"].safety == pytest.approx(0.7)


def _get(client, user, url):
    client.force_login(user)
    return client.get(url)


def test_the_attack_phases_daily_and_total_limits_refuse_with_429():
    """The attack phase's limits count a team's guess files over every target (a rejected
    one is free); the refusal keeps nothing."""
    world = attack_phase_world(slug="seqlim", letters="abc", pool=None)
    sequential = world.sequential

    def limits_set(**limits):
        """The round's attack limits set, and targets A and C read again with them."""
        SequentialRound.objects.filter(pk=sequential.pk).update(**limits)
        return (SeqTarget.objects.get(sequential=sequential, team=world.teams[x]) for x in "ac")

    a, c = limits_set(attack_daily_limit=None, attack_total_limit=2)
    assert seq_attack(world, "b", a, W6_GUESSES).status == SeqAttack.Status.FINISHED
    assert seq_attack(world, "b", a, b"pid,guess\nZoe,flu\n").status == SeqAttack.Status.FAILED
    assert seq_attack(world, "b", c, W6_GUESSES).number == 3  # the failed one is free
    with pytest.raises(Refused) as refused:
        seq_attack(world, "b", c, W6_GUESSES)
    assert (refused.value.status, refused.value.code) == (429, "quota_exhausted")
    assert SeqAttack.objects.filter(team=world.teams["b"]).count() == 3
    a, c = limits_set(attack_daily_limit=1, attack_total_limit=None)
    assert seq_attack(world, "c", a, W6_GUESSES).number == 1  # another team
    with pytest.raises(Refused) as refused:
        seq_attack(world, "c", a, W6_GUESSES)
    assert (refused.value.status, refused.value.code) == (429, "quota_exceeded")


def test_secrets_never_reach_another_team(client):
    from django.urls import reverse

    world = attack_world()
    comp, rnd = world.competition.slug, world.round.slug
    release_a = world.sequential.releases.filter(team=world.teams["a"]).first()
    private = [
        reverse("sequential:release_file", args=[comp, rnd, release_a.pk]),
        reverse("sequential:release", args=[comp, rnd, release_a.pk]),
        reverse("sequential:release_risk", args=[comp, rnd, release_a.pk]),
        reverse("sequential:master", args=[comp, rnd]) + "?team=teamA",
    ]
    for url in private:
        assert _get(client, world.users["b"], url).status_code == 404, url
        assert _get(client, world.users["a"], url).status_code in (200, 404)
    assert _get(client, world.users["a"], private[0]).status_code == 200
    assert _get(client, world.organizer, private[3]).status_code == 200
    # What B sees of A: the published files only, and none holds A's truth.
    seen = b""
    for name in SeqTarget.objects.get(team=world.teams["a"]).files:
        url = reverse("sequential:target_file", args=[comp, rnd, "teamA", name])
        response = _get(client, world.users["b"], url)
        assert response.status_code == 200
        seen += response.content
    assert b"Bob,dyspepsia" not in seen and b"Emily,21,12000,dyspepsia" not in seen
    release_b = world.sequential.releases.filter(team=world.teams["b"]).first()
    own = _get(
        client, world.users["b"], reverse("sequential:release", args=[comp, rnd, release_b.pk])
    )
    assert b"P_N_true" in own.content  # its own risk table
    client.logout()
    anonymous = client.get(reverse("sequential:target_file", args=[comp, rnd, "teamA", name]))
    assert anonymous.status_code in (302, 404)


def test_a_team_cannot_run_the_organizer_actions(client):
    from django.urls import reverse

    world = seq_world(slug="seqact")
    client.force_login(world.users["a"])
    url = reverse("sequential:action", args=[world.competition.slug, world.round.slug, "freeze"])
    assert client.post(url).status_code == 403
    world.sequential.refresh_from_db()
    assert world.sequential.frozen_steps == 0


def test_pool_draw_gives_disjoint_seeded_masters_and_the_draw_is_repeatable(client):
    import numpy as np

    rng = np.random.default_rng(0)
    values = ["flu", "gastritis", "dyspepsia", "bronchitis"]
    rows = [
        f"P{i},{rng.integers(20, 70)},{rng.integers(10, 50) * 1000},{values[i % 4]}"
        for i in range(400)
    ]
    pool = ("pid,Age,Zip,Disease\n" + "\n".join(rows) + "\n").encode()
    config = {
        **fixture_config("zhang_config.json"),
        "n_releases": 3,
        "attack_phase": True,
        "per_team": {"pool": "pool.csv", "size": 40, "turnover": 0.25, "seed": 7},
    }
    world = seq_world(slug="seqpool", config=config, master=None, pool=pool)
    masters = {m.team.slug: services.master_frame(master=m) for m in world.sequential.masters.all()}
    assert sorted(masters) == ["teamA", "teamB", "teamC"]
    pids = [set(m.frame["pid"]) for m in masters.values()]
    assert not (pids[0] & pids[1]) and not (pids[1] & pids[2]) and not (pids[0] & pids[2])
    assert all(m.sizes() == [40, 40, 40] for m in masters.values())
    before = {slug: m.frame.copy() for slug, m in masters.items()}
    services.masters_draw(sequential=world.sequential)
    again = {m.team.slug: services.master_frame(master=m) for m in world.sequential.masters.all()}
    for slug, frame in before.items():
        pd.testing.assert_frame_equal(frame, again[slug].frame)
    # The pool and its seed stay with the organizers: a team's config.json has neither.
    from django.urls import reverse

    client.force_login(world.users["a"])
    config_url = reverse("sequential:config", args=[world.competition.slug, world.round.slug])
    team_config = client.get(config_url).json()
    assert team_config["per_team"] is None and team_config["m"] == 2
    client.force_login(world.organizer)
    assert client.get(config_url).json()["per_team"]["seed"] == 7


def test_participants_are_told_when_the_targets_and_the_results_are_published():
    from pwscup.notifications.models import Notification

    world = attack_world()
    frozen = Notification.objects.filter(kind=Notification.Kind.ROUND_FROZEN)
    assert {n.user for n in frozen} == set(world.users.values())
    assert {n.url for n in frozen} == {tab(world, "submit") + "#attack"}
    services.results_publish(sequential=world.sequential)
    services.results_publish(sequential=world.sequential)  # told once
    published = Notification.objects.filter(kind=Notification.Kind.RESULTS_PUBLISHED)
    assert published.count() == 2 and all("/seq/leaderboard/" in n.url for n in published)
