"""The pages read a constant number of SQL queries, whatever the number of teams and
submissions, and the rankings are computed once per change, then read from the cache.

Query counts are deterministic, so they are compared exactly (5 teams against 50, 2
submissions against 20); timings are never asserted (see benchmarks/bench_rush.py).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import scoring
from pwscup.accounts.models import Team
from pwscup.core.templatetags.pwscup_tags import score
from pwscup.kinds.tabs import DATA, RESULTS, RULES, SUBMIT, tab_url
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
    Pwscup2015Round,
    Target,
)
from pwscup.submissions.models import Status
from tests.pwscup.factories import freeze, scored, upload
from tests.pwscup.live_support import live_box

pytestmark = pytest.mark.django_db


def scores_for(i: int) -> dict:
    """A distinct finished score row (no file is scored: only the numbers matter here)."""
    values = {m: round(0.01 * ((i * 7 + k) % 50), 4) for k, m in enumerate(scoring.METRICS)}
    values["U6"] = i % 9
    return values


def grow(world, *, teams: int, per_team: int) -> list[Team]:
    """Add teams to the world, each with ``per_team`` finished submissions, as plain rows."""
    added = Team.objects.bulk_create(
        Team(competition=world.competition, name=f"Extra {i:03d}", slug=f"extra{i:03d}")
        for i in range(teams - len(world.teams))
    )
    every = list(world.teams.values()) + added
    rows = []
    for t, team in enumerate(every):
        for n in range(per_team):
            rows.append(
                AnonymizationSubmission(
                    phase=world.anonymization,
                    team=team,
                    file="private/uploads/rows.csv",
                    original_filename="rows.csv",
                    sha256="0" * 64,
                    size=1,
                    status=Status.FINISHED,
                    scores=scores_for(t * 31 + n),
                    scorer_version=scoring.SCORER_VERSION,
                    number=n + 1,
                    is_selected=(n == 0 and t % 3 == 0),
                )
            )
    AnonymizationSubmission.objects.bulk_create(rows)
    return every


def freeze_rows(world, teams: list[Team]) -> None:
    """Targets with built-in rates for every team and a few attacks each, as plain rows."""
    chosen = {s.team_id: s for s in AnonymizationSubmission.objects.filter(number=1)}
    targets = Target.objects.bulk_create(
        Target(
            round=world.round,
            team=team,
            submission=chosen[team.pk],
            published_file="private/generated/p.csv",
            truth_file="private/generated/t.csv",
            rows=10,
            reference_rows=10,
        )
        for team in teams
    )
    BuiltinAttack.objects.bulk_create(
        BuiltinAttack(
            target=target,
            status=Status.FINISHED,
            rates={m: 0.1 + 0.01 * (i % 7) for m in scoring.ATTACK_METRICS},
            scorer_version=scoring.SCORER_VERSION,
        )
        for i, target in enumerate(targets)
    )
    attacks = []
    for i, team in enumerate(teams):
        for k in (1, 2, 3):
            target = targets[(i + k) % len(targets)]
            attacks.append(
                AttackSubmission(
                    phase=world.attack,
                    team=team,
                    target=target,
                    target_version=1,
                    file="private/uploads/a.csv",
                    original_filename="a.csv",
                    sha256="0" * 64,
                    size=1,
                    status=Status.FINISHED,
                    rate=0.05 * k,
                    correct=k,
                    rows=10,
                    number=k,
                )
            )
    AttackSubmission.objects.bulk_create(attacks)
    Pwscup2015Round.objects.filter(round=world.round).update(frozen_at=timezone.now())


def queries(client, url: str, **headers) -> tuple[int, list[str], object]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    assert response.status_code in (200, 304), (url, response.status_code)
    return len(captured), [q["sql"] for q in captured.captured_queries], response


def world_of(make_world, slug: str, *, teams: int, per_team: int, frozen: bool, **options):
    world = make_world(slug=slug, leaderboard_public=True, **options)
    every = grow(world, teams=teams, per_team=per_team)
    if frozen:
        freeze_rows(world, every)
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    return world


def page_urls(world) -> dict[str, str]:
    args = [world.competition.slug, world.round.slug]
    return {
        "leaderboard": reverse("leaderboard", args=args),
        "round": reverse("round_detail", args=args),
        **{tab: tab_url(world.round, tab) for tab in (DATA, RULES, SUBMIT, RESULTS)},
        "fragment": tab_url(world.round, SUBMIT) + "?fragment=1",
        "results_fragment": tab_url(world.round, RESULTS) + "?fragment=1",
        "matrix": reverse("matrix", args=args),
        "final": reverse("final_ranking", args=args),
    }


@pytest.mark.parametrize("frozen", [False, True], ids=["open", "frozen"])
@pytest.mark.parametrize(
    "rule", [Pwscup2015Round.SelectionRule.SELECTED_OR_LAST, Pwscup2015Round.SelectionRule.BEST]
)
@pytest.mark.parametrize("who", ["a", "org", "anon"])
def test_every_page_reads_as_many_queries_at_5_and_at_50_teams(
    make_world, client, frozen, rule, who
):
    counts = {}
    for size, per_team in ((5, 2), (50, 20)):
        world = world_of(
            make_world,
            f"q{size}",
            teams=size,
            per_team=per_team,
            frozen=frozen,
            selection_rule=rule,
        )
        client.logout()
        if who != "anon":
            client.force_login(world.organizer if who == "org" else world.users[who])
        for name, url in page_urls(world).items():
            if name.endswith("fragment") and who != "a":
                continue
            if name in ("matrix", "final") and not frozen:
                continue
            counts[(name, size)] = queries(client, url)[0]
    for name in {name for name, _size in counts}:
        assert counts[(name, 5)] == counts[(name, 50)], (name, counts)


def test_a_cached_ranking_reads_no_score_until_a_service_changes_it(make_world, client):
    world = world_of(make_world, "cached", teams=5, per_team=2, frozen=False)
    url = page_urls(world)["leaderboard"]
    first, _sql, response = queries(client, url)
    assert b"Extra 000" in response.content
    again, sql, _response = queries(client, url)
    assert again < first
    assert not any("pwscup2015_anonymizationsubmission" in q for q in sql), sql
    # A new score, through the scoring service, is on the next page at once: the job that
    # wrote it ranked the phase for the new version, so the page reads no score either.
    fresh = scored(world, "b", seed=3)
    _count, sql, response = queries(client, url)
    assert not any("pwscup2015_anonymizationsubmission" in q for q in sql), sql
    row = response.content.decode().split('data-testid="row-teamB"')[1].split("</tr>")[0]
    assert f'data-metric="U1">{score(fresh.scores["U1"])}<' in row


def _leaderboard_row(client, url: str, slug: str) -> str:
    html = client.get(url).content.decode()
    return html.split(f'data-testid="row-{slug}"')[1].split("</tr>")[0]


def test_the_cached_leaderboard_follows_a_selection_and_a_change_of_gates(make_world, client):
    world = make_world(slug="sel", leaderboard_public=True)
    first = scored(world, "a", seed=1)
    second = scored(world, "a", seed=2, delete=3)
    url = page_urls(world)["leaderboard"]
    assert first.scores["U6"] != second.scores["U6"]
    assert f'data-metric="U6">{score(second.scores["U6"])}<' in _leaderboard_row(
        client, url, "teamA"
    )
    services.anonymization_submission_select(submission=first, team=world.teams["a"])
    assert f'data-metric="U6">{score(first.scores["U6"])}<' in _leaderboard_row(
        client, url, "teamA"
    )
    # The round's settings are part of the cache key: a gate the team fails shows at once.
    Pwscup2015Round.objects.filter(round=world.round).update(utility_gates={"U1": {"max": -1}})
    assert "fails a utility gate" in _leaderboard_row(client, url, "teamA")


def test_the_cached_matrix_follows_the_built_in_attacks(make_world, client):
    world = make_world(slug="mx")
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    world.round.refresh_from_db()
    services.round_freeze(round=world.round)
    client.force_login(world.organizer)
    url = page_urls(world)["matrix"]
    builtin_row = 'data-attacker="built-in E1"'
    before = client.get(url).content.decode().split(builtin_row)[1].split("</tr>")[0]
    assert "0." not in before  # not scored yet: every cell is "–"
    for target in Target.objects.filter(round=world.round):
        services.target_builtin_score(target_id=target.pk)
    rate = Target.objects.get(team=world.teams["a"]).builtin.rates["E1"]
    after = client.get(url).content.decode().split(builtin_row)[1].split("</tr>")[0]
    assert f"{rate:.4f}" in after


def test_an_unchanged_jobs_poll_is_answered_304_and_every_change_is_seen(make_world, client):
    world = make_world(slug="frag")
    client.force_login(world.users["a"])
    pending = upload(world, "a", world.original)
    _full, _sql, response = queries(client, tab_url(world.round, SUBMIT))
    url, etag = live_box(response.content.decode())
    # The ETag is the team's version: an unchanged scope is an empty 304 whose cost does not
    # grow with the teams or the uploads (the session, its user, one read).
    count, sql, unchanged = queries(client, url, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert count == 3, sql
    # Scored: the same tag no longer matches, and the fragment the script then fetches shows
    # the scores.
    services.anonymization_submission_score(submission_id=pending.pk)
    _count, _sql, changed = queries(client, url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    _count, _sql, fragment = queries(client, page_urls(world)["fragment"])
    assert f'data-testid="submission-{pending.pk}" data-status="finished"' in (
        fragment.content.decode()
    )
    # The version is the same whatever the reader's language (the fragment is not).
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304
    japanese = client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"], HTTP_ACCEPT_LANGUAGE="ja")
    assert japanese.status_code == 304


def test_a_freeze_of_the_cached_round_shows_the_published_targets(make_world, client):
    world = make_world(slug="fr", leaderboard_public=True)
    first = scored(world, "a", seed=1)
    late = scored(world, "a", seed=2, delete=2)
    url = page_urls(world)["leaderboard"]
    assert f'data-metric="U6">{score(late.scores["U6"])}<' in _leaderboard_row(client, url, "teamA")
    services.anonymization_submission_select(submission=first, team=world.teams["a"])
    freeze(world)
    # The published target (the selected one) stands for the team; not the cached last one.
    assert f'data-metric="U6">{score(first.scores["U6"])}<' in _leaderboard_row(
        client, url, "teamA"
    )
