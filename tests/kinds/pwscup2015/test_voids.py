"""Voided uploads in a PWSCup 2015 round (the core's rule, ``pwscup.submissions.voids``,
declared by the kind): an organizer voids a team's anonymized table or attack through the
core's API or console page; it is kept as uploaded and counts nowhere (the final table, the
leaderboard, what a freeze would publish, the attack matrix and the final ranking, the
quota) until restored; a table published as a target is refused; a team voids nothing;
its pages say why, in its language."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.api.services import api_token_create
from pwscup.competitions.models import Round
from pwscup.pwscup2015.leaderboards import selectors as boards
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission, Pwscup2015Round
from pwscup.pwscup2015.selectors import representative_submissions
from pwscup.pwscup2015.services.freeze import freeze_plan
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import quota_day_of, uploads_quota_usage
from tests.kinds.pwscup2015.player import part_of, shuffled_copy
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of
from tests.support import build_world, flush_database

pytestmark = pytest.mark.django_db

REASON = "Sent against rule 3"


@pytest.fixture(scope="module")
def worlds(django_db_setup, django_db_blocker):
    """``open``: A's tables #1 and #2 scored (#2 its final one), B's and C's #1, nothing
    frozen.
    ``frozen``: the same uploads frozen as targets (A's #2 published), then C attacks A's
    target twice (every row right, then half of them) and B once (three quarters)."""
    with django_db_blocker.unblock():
        made = {}
        for name in ("open", "frozen"):
            world = build_world(slug=f"void{name}", leaderboard_public=True)
            world.tables = [
                scored(world, letter, content=shuffled_copy(world.original, seed=seed))
                for seed, letter in enumerate("aabc", start=1)
            ]
            made[name] = world
        frozen = made["frozen"]
        frozen.targets = freeze(frozen)
        on_a = frozen.targets["a"]
        frozen.attacks = [
            scored_attack(frozen, "c", on_a, truth_of(on_a)),
            scored_attack(frozen, "c", on_a, part_of(truth_of(on_a), 0.5)),
            scored_attack(frozen, "b", on_a, part_of(truth_of(on_a), 0.75)),
        ]
        assert {a.status for a in frozen.attacks} == {Status.FINISHED}
    yield made
    with django_db_blocker.unblock():
        flush_database()


@pytest.fixture(autouse=True)
def rankings_forgotten():
    """Each test's writes are rolled back, and so is the round's ranking version: a ranking
    one test cached under a version the next test reaches again is not that test's."""
    cache.clear()
    yield
    cache.clear()


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def fresh(world) -> Round:
    """The round as a new request reads it (its ranking version not kept on the object)."""
    return Round.objects.get(pk=world.round.pk)


def leaderboard_tables(world) -> dict:
    """Each team's table on the (cached) leaderboard, by team letter."""
    phase = world.anonymization
    phase.round = fresh(world)
    letters = {team.pk: letter for letter, team in world.teams.items()}
    rows = boards.anonymization_leaderboard_cached(phase=phase)
    return {letters[row.team.pk]: row.submission.pk for row in rows}


def a_used(world) -> int:
    uploads = AnonymizationSubmission.objects.filter(team=world.teams["a"])
    day = quota_day_of(world.round)
    return uploads_quota_usage(uploads, day=day, now=timezone.now()).used_total


def test_a_voided_final_table_hands_its_place_to_the_previous_valid_one(worlds):
    world = worlds["open"]
    first, second, *others = world.tables
    theirs = {"b": others[0].pk, "c": others[1].pk}
    assert leaderboard_tables(world) == {"a": second.pk, **theirs}
    assert a_used(world) == 2
    client = Client()

    answer = client.post(
        address(world, "submissions-void"),
        {"upload": second.pk, "reason": REASON},
        **bearer(world.organizer),
    )

    assert answer.status_code == 200, answer.content
    assert answer.json() == {"voided": 1}
    kept = AnonymizationSubmission.objects.get(pk=second.pk)
    assert (kept.status, kept.scores, bool(kept.file)) == (Status.FINISHED, second.scores, True)
    assert leaderboard_tables(world) == {"a": first.pk, **theirs}
    assert representative_submissions(phase=world.anonymization)[world.teams["a"].pk] == first
    assert dict(freeze_plan(round=fresh(world)))[world.teams["a"]] == first
    assert a_used(world) == 1
    mine = client.get(address(world, "submissions"), **bearer(world.users["a"])).json()
    listed = {upload["id"]: upload for upload in mine}
    assert listed[second.pk]["voided"]["reason"] == REASON
    assert listed[second.pk]["voided"]["by_organizers"] is True
    assert (listed[second.pk]["final"], listed[first.pk]["final"]) == (False, True)
    assert listed[first.pk]["voided"] is None
    assert "withdraw_url" not in listed[second.pk]
    chosen = client.post(address(world, "submission-select", second.pk), **bearer(world.users["a"]))
    assert chosen.status_code == 409
    assert not AnonymizationSubmission.objects.get(pk=second.pk).is_selected

    restored = client.post(
        address(world, "submission-restore", second.pk), **bearer(world.organizer)
    )

    assert restored.status_code == 200, restored.content
    assert leaderboard_tables(world) == {"a": second.pk, **theirs}
    assert a_used(world) == 2


def matrix_cell(world, attacker: str, target: str):
    matrix = boards.attack_matrix_cached(round=fresh(world))
    target_pk = world.targets[target].pk
    return matrix.cell(f"team:{world.teams[attacker].pk}", target_pk)


def attack_means(world) -> dict:
    letters = {team.pk: letter for letter, team in world.teams.items()}
    _anonymization, attack = boards.final_ranking_cached(round=fresh(world))
    return {letters[row.team.pk]: (row.rank, row.mean_rate) for row in attack}


def test_a_voided_attack_hands_its_cell_to_the_team_s_previous_counted_attack(worlds):
    world = worlds["frozen"]
    full, half, _three_quarters = world.attacks
    cell = matrix_cell(world, "c", "a")
    assert (cell.best, cell.count) == (1.0, 2)
    before = attack_means(world)
    assert [before[letter][0] for letter in "cb"] == [1, 2]
    client = Client()

    answer = client.post(
        address(world, "attacks-void"),
        {"upload": full.pk, "reason": REASON},
        **bearer(world.organizer),
    )

    assert answer.status_code == 200, answer.content
    cell = matrix_cell(world, "c", "a")
    assert (cell.best, cell.latest, cell.count) == (half.rate, half.rate, 1)
    after = attack_means(world)
    assert after["c"][1] == pytest.approx(before["c"][1] * half.rate)
    assert after["b"][1] == before["b"][1]
    assert [after[letter][0] for letter in "bc"] == [1, 2]  # B's attack is the best now
    assert AttackSubmission.objects.get(pk=full.pk).rate == 1.0
    theirs = client.get(address(world, "attacks"), **bearer(world.users["c"])).json()
    assert {upload["id"]: upload["voided"] is not None for upload in theirs} == {
        full.pk: True,
        half.pk: False,
    }

    client.post(address(world, "attack-restore", full.pk), **bearer(world.organizer))

    assert matrix_cell(world, "c", "a").best == 1.0
    assert attack_means(world) == before


def test_a_table_published_as_a_target_is_refused_an_older_one_is_not(worlds):
    world = worlds["frozen"]
    older, published, *_others = world.tables
    assert world.targets["a"].submission_id == published.pk
    client = Client()

    refused = client.post(
        address(world, "submissions-void"),
        {"upload": published.pk, "reason": REASON},
        **bearer(world.organizer),
    )

    assert refused.status_code == 409
    assert "target" in refused.json()["message"]
    assert AnonymizationSubmission.objects.get(pk=published.pk).voided_at is None
    voided = client.post(
        address(world, "submissions-void"),
        {"upload": older.pk, "reason": REASON},
        **bearer(world.organizer),
    )
    assert voided.json() == {"voided": 1}
    assert leaderboard_tables(world)["a"] == published.pk


def test_a_team_neither_voids_nor_restores(worlds):
    world = worlds["frozen"]
    full = world.attacks[0]
    client = Client()
    for name, args, data in (
        ("attacks-void", (), {"upload": full.pk, "reason": "mine now"}),
        ("submissions-void", (), {"upload": world.tables[2].pk, "reason": "mine now"}),
        ("attack-restore", (full.pk,), {}),
    ):
        answer = client.post(address(world, name, *args), data, **bearer(world.users["c"]))
        assert answer.status_code == 403, name
        assert "organizers" in answer.json()["message"]
    assert not AttackSubmission.objects.filter(voided_at__isnull=False).exists()
    assert not AnonymizationSubmission.objects.filter(voided_at__isnull=False).exists()


def test_the_console_lists_the_kind_s_uploads_and_the_team_s_tabs_say_why(worlds):
    world = worlds["frozen"]
    older = world.tables[0]
    full = world.attacks[0]
    console = Client()
    console.force_login(world.organizer)
    args = [world.competition.slug, world.round.slug]
    page = reverse("console:round_voids", args=args)
    assert (
        'data-testid="round-voids-open"'
        in console.get(reverse("console:round", args=args)).content.decode()
    )
    form = console.get(page).content.decode()
    assert '<option value="anonymized">Anonymized table</option>' in form
    assert '<option value="attack">Attack</option>' in form

    for kind, upload in (("anonymized", older), ("attack", full)):
        posted = console.post(page, {"type": kind, "upload": str(upload.pk), "reason": REASON})
        assert posted.status_code == 302

    listed = console.get(page).content.decode()
    assert f'data-testid="voided-{older.pk}"' in listed
    assert f'data-testid="voided-{full.pk}"' in listed
    submit = reverse("round_tab", args=[*args, "submit"])
    results = reverse("round_tab", args=[*args, "results"])
    team_a = Client()
    team_a.force_login(world.users["a"])
    english = team_a.get(submit, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert english.count(f"Voided by the organizers: {REASON}") == 1
    page_json = team_a.get(reverse("status_json", args=args)).json()["submissions"]
    assert {row["id"]: row["voided"] is not None for row in page_json}[older.pk] is True
    team_a.cookies["django_language"] = "ja"
    assert f"運営者が無効化: {REASON}" in team_a.get(results).content.decode()
    team_c = Client()
    team_c.force_login(world.users["c"])
    theirs = team_c.get(results, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert theirs.count(f"Voided by the organizers: {REASON}") == 1  # C's attack, not A's table
    assert 'class="voided"' in theirs


def test_the_gates_table_of_the_submit_tab_lists_no_voided_table(worlds):
    world = worlds["open"]
    first, second, *_others = world.tables
    Pwscup2015Round.objects.filter(round=world.round).update(utility_gates={"U1": 10**6})
    voided = Client().post(
        address(world, "submissions-void"),
        {"upload": second.pk, "reason": REASON},
        **bearer(world.organizer),
    )
    assert voided.status_code == 200, voided.content
    team_a = Client()
    team_a.force_login(world.users["a"])
    submit = reverse("round_tab", args=[world.competition.slug, world.round.slug, "submit"])

    html = team_a.get(submit, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    gates = html[html.index('data-testid="upload-gates"') :]
    gates = gates[: gates.index("</table>")]
    assert re.findall(r'<th scope="row" class="nowrap">([^<]*)</th>', gates) == [first.label]
