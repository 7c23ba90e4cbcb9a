"""The round scored by the organizer's program, through its services (the jobs run here as the
worker runs them; the sandbox is the real bubblewrap): a release scored to the last digit, the
freeze, attacks per target, the matrix and the rankings."""

import pytest

from pwscup.scorer import score_text, selectors
from pwscup.scorer.models import Release
from tests.pwscup.scorer_world import (
    CONFIG,
    attack,
    attack_phase,
    guess_bytes,
    program_version,
    release,
    release_bytes,
    scorer_world,
    zipped,
)

pytestmark = pytest.mark.django_db

UTILITY_LINE = "utility = round(100 * (1 - sum(errors) / len(errors)), 4)"


def zipped_program(data: bytes, old: str, new: str) -> bytes:
    """The program's ZIP with one line of its score.py changed."""
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    source = files["score.py"].decode()
    assert old in source
    files["score.py"] = source.replace(old, new).encode()
    return zipped(files)


def test_a_release_is_scored_by_the_program_and_an_attack_fills_the_matrix():
    world = scorer_world()
    assert world.program.status == "finished", world.program.message
    clean = release(world, "a", release_bytes(noise=0))
    noisy = release(world, "b", release_bytes(noise=20, seed=1))
    assert clean.status == Release.Status.FINISHED, clean.message
    assert clean.scores["utility"] == 100.0
    assert 0 < noisy.scores["utility"] < 100.0
    assert clean.program_id == world.program.pk
    assert clean.public_names == ["release.csv"]
    targets = attack_phase(world)
    assert set(targets) == {"teama", "teamb"}
    hit = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    assert hit.status == "finished", hit.message
    assert hit.scores["reidentified"] == 1.0
    miss = attack(world, "a", guess_bytes(targets["teamb"]), target=targets["teamb"])
    assert miss.scores["reidentified"] < 1.0
    board = selectors.standings(scorer=world.scorer)
    assert board.matrix == {
        "teama": {"teamb": 1.0},
        "teamb": {"teama": miss.scores["reidentified"]},
    }
    ranks = {row.team.slug: row.rank for row in board.releases}
    assert ranks == {"teama": 1, "teamb": 2}
    powers = {row.team.slug: row.power for row in board.attackers}
    assert powers == {"teamb": 1.0, "teama": miss.scores["reidentified"]}


def test_a_refused_release_keeps_the_programs_message():
    world = scorer_world(slug="sco2", letters="a")
    bad = release(world, "a", b"id,age\np0001,3\n")
    assert bad.status == Release.Status.FAILED
    assert "the header is 'id,age'" in bad.message, bad.message
    assert "refused" in bad.tail


def test_one_upload_covers_every_target_and_fills_each_cell():
    world = scorer_world(slug="sco3", config={**CONFIG, "attack_mode": "all_targets"})
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=30, seed=2))
    release(world, "c", release_bytes(noise=0, seed=5))
    targets = attack_phase(world)
    guesses = zipped({f"{slug}.csv": guess_bytes(targets[slug]) for slug in ("teamb", "teamc")})
    covering = attack(world, "a", guesses, name="guesses.zip")
    assert covering.status == "finished", covering.message
    assert covering.target_id is None
    assert set(covering.targets) == {"teamb", "teamc"}
    assert covering.targets["teamc"]["reidentified"] == 1.0
    matrix = selectors.attack_matrix(scorer=world.scorer)
    assert matrix["teamc"] == {"teama": 1.0}
    assert matrix["teamb"] == {"teama": covering.targets["teamb"]["reidentified"]}
    assert matrix["teama"] == {}


# A program that scores each target by the slot context.json gives it (PWSCup 2024's answer is
# laid out by team number: columns 2i-1 and 2i for the team in slot i).
SLOT_PROBE = b"""import json, os, sys
input_dir, output_dir = sys.argv[1], sys.argv[2]
with open(os.path.join(input_dir, "context.json"), encoding="utf-8") as file:
    context = json.load(file)
scores = {"utility": 1.0} if context["phase"] == "release" else {"reidentified": 0.0}
if context["phase"] == "attack":
    slots = context["target_slots"]
    scores["targets"] = {t: {"reidentified": float(slots[t])} for t in context["targets"]}
with open(os.path.join(output_dir, "scores.json"), "w", encoding="utf-8") as file:
    json.dump(scores, file)
"""


def test_an_upload_covering_every_target_is_told_each_target_s_slot():
    world = scorer_world(slug="sco3s", config={**CONFIG, "attack_mode": "all_targets"}, build=False)
    metadata = b"command: python3 $program/score.py $input $output\n"
    program_version(world, zipped({"metadata": metadata, "score.py": SLOT_PROBE}))
    for letter in "abc":
        release(world, letter, b"x\n1\n")
    attack_phase(world)
    covering = attack(world, "b", b"guess\n", name="answer.csv")
    assert covering.status == "finished", covering.message
    slots = {
        slug: selectors.slot_of(scorer=world.scorer, team=world.teams[slug[-1]]).slot
        for slug in ("teama", "teamc")
    }
    assert covering.targets == {slug: {"reidentified": float(n)} for slug, n in slots.items()}


def test_an_upload_covering_every_target_is_limited_per_upload_by_the_phase_total():
    """PWSCup 2025: 8 uploads, each against all 23 targets. An upload covering every target
    counts once against the attack phase's total, whatever the limit per target says (it
    names no target); the next one is refused (429) and nothing more is kept."""
    from pwscup.competitions.models import Phase
    from pwscup.core.errors import Refused
    from pwscup.scorer import services
    from pwscup.scorer.models import Attack
    from tests.pwscup.scorer_world import upload_file

    world = scorer_world(
        slug="sco8", config={**CONFIG, "attack_mode": "all_targets"}, attack_limits=(None, 2)
    )
    for n, letter in enumerate("abc", start=1):
        release(world, letter, release_bytes(noise=20, seed=n))
    targets = attack_phase(world)
    world.round.phases.filter(kind=Phase.Kind.ATTACK).update(target_limit=1)
    guesses = zipped({f"{slug}.csv": guess_bytes(targets[slug]) for slug in ("teamb", "teamc")})

    def covering():
        return services.attack_upload(
            scorer=world.scorer,
            team=world.teams["a"],
            user=world.users["a"],
            uploaded_file=upload_file(guesses, "guesses.zip"),
        )

    assert [covering().number for _ in range(2)] == [1, 2]
    with pytest.raises(Refused) as refused:
        covering()
    assert (refused.value.status, refused.value.code) == (429, "quota_exhausted")
    assert Attack.objects.filter(scorer=world.scorer, team=world.teams["a"]).count() == 2


def test_a_per_target_round_refuses_an_upload_without_a_target():
    from pwscup.core.errors import Refused

    world = scorer_world(slug="sco4", letters="ab")
    release(world, "a", release_bytes(noise=0))
    attack_phase(world)
    with pytest.raises(Refused):
        attack(world, "b", b"row,id\n")


def test_band_visibility_hides_the_value_until_publication():
    from pwscup.scorer import services

    world = scorer_world(slug="sco5", letters="ab", config={**CONFIG, "visibility": "band"})
    release(world, "a", release_bytes(noise=0))
    targets = attack_phase(world)
    hit = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    config = selectors.round_config(world.round)
    seen = selectors.attack_visibility(scorer=world.scorer, is_organizer=False)
    shown = selectors.attack_scores_for(hit, visibility=seen, config=config)
    assert shown["reidentified"] == {"value": None, "text": "≥ 0.75"}
    organizer = selectors.attack_visibility(scorer=world.scorer, is_organizer=True)
    assert selectors.attack_scores_for(hit, visibility=organizer, config=config)[
        "reidentified"
    ] == {"value": 1.0, "text": "1.0000"}
    services.results_publish(scorer=world.scorer, user=world.organizer)
    world.scorer.refresh_from_db()
    after = selectors.attack_visibility(scorer=world.scorer, is_organizer=False)
    assert (
        selectors.attack_scores_for(hit, visibility=after, config=config)["reidentified"]["value"]
        == 1.0
    )


def test_a_new_program_version_rescoring_every_kept_upload():
    from pwscup.scorer import services
    from scoring.scorer.demo import demo_program_zip

    world = scorer_world(slug="sco6", letters="ab")
    first = release(world, "a", release_bytes(noise=10))
    refused = release(world, "b", b"id,age\nnobody,1\n")
    assert first.program_id == world.program.pk
    # The same program, changed: its utility is now rounded to whole numbers.
    changed = zipped_program(demo_program_zip(), UTILITY_LINE, UTILITY_LINE.replace(", 4)", ")"))
    second = program_version(world, changed)
    assert second.version == 2 and second.status == "finished", second.message
    assert set(services.outdated_uploads(scorer=world.scorer)[Release]) == {first.pk, refused.pk}
    assert services.rescore_outdated(scorer=world.scorer, user=world.organizer) == 2
    assert Release.objects.get(pk=first.pk).status == Release.Status.QUEUED
    services.release_score(release_id=first.pk)
    again = Release.objects.get(pk=first.pk)
    assert again.program_id == second.pk
    assert again.scores["utility"] == round(first.scores["utility"])
    services.release_score(release_id=refused.pk)
    still = Release.objects.get(pk=refused.pk)
    assert still.status == Release.Status.FAILED and still.program_id == second.pk
    assert services.outdated_uploads(scorer=world.scorer)[Release] == []


def test_a_release_failing_a_gate_ranks_after_every_passing_one():
    gated = {**CONFIG, "gates": [{"key": "utility", "min": 99}]}
    world = scorer_world(slug="sco7", config=gated)
    release(world, "a", release_bytes(noise=40, seed=1))
    release(world, "b", release_bytes(noise=0))
    release(world, "c", release_bytes(noise=1, seed=3))
    attack_phase(world)
    board = selectors.standings(scorer=world.scorer)
    ranks = {row.team.slug: row.rank for row in board.releases}
    assert ranks["teama"] == 3
    failed = next(row for row in board.releases if row.team.slug == "teama").failed_gates
    assert [gate["key"] for gate in failed] == ["utility"]
    assert {ranks["teamb"], ranks["teamc"]} == {1, 2}


def test_a_disqualified_attacker_still_counts_in_the_matrix_but_has_no_rank():
    from pwscup.console.services import console_team_disqualify

    world = scorer_world(slug="sco8")
    for letter, noise in (("a", 0), ("b", 5), ("c", 0)):
        release(world, letter, release_bytes(noise=noise, seed=ord(letter)))
    targets = attack_phase(world)
    attack(world, "c", guess_bytes(targets["teama"]), target=targets["teama"])
    attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    before = selectors.standings(scorer=world.scorer)
    console_team_disqualify(user=world.organizer, team=world.teams["c"], reason="test")
    after = selectors.standings(scorer=world.scorer)
    assert after.matrix == before.matrix
    protection = {row.team.slug: row.protection for row in after.releases}
    assert protection["teama"] == 1.0
    rows = {row.team.slug: row for row in after.attackers}
    assert rows["teamc"].disqualified and rows["teamc"].rank is None
    assert rows["teamb"].rank == 1


def test_a_round_ranked_by_the_organizers_ranking_program():
    from pwscup.core.errors import Refused
    from pwscup.scorer import services
    from pwscup.scorer.models import RankingRun

    world = scorer_world(slug="sco9", config={**CONFIG, "ranking": "program"})
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=25, seed=2))
    release(world, "c", release_bytes(noise=40, seed=3))
    with pytest.raises(Refused):
        services.ranking_request(scorer=world.scorer)  # nothing frozen yet
    targets = attack_phase(world)
    attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    attack(world, "a", guess_bytes(targets["teamc"]), target=targets["teamc"])
    # Before any run of the program, nobody has a rank.
    assert {row.rank for row in selectors.standings(scorer=world.scorer).releases} == {None}
    run = services.ranking_request(scorer=world.scorer, user=world.organizer)
    from pwscup.competitions.models import AuditEntry

    logged = AuditEntry.objects.filter(round=world.round).order_by("-pk").first()
    assert logged.get_action_display() == "Ran the ranking program"
    assert logged.detail == {"ranking_run": run.pk}
    services.ranking_score(run_id=run.pk)
    run = RankingRun.objects.get(pk=run.pk)
    assert run.status == RankingRun.Status.FINISHED, run.message
    utility = {slug: target.release.scores["utility"] for slug, target in targets.items()}
    matrix = selectors.attack_matrix(scorer=world.scorer)
    expected = {
        slug: round(utility[slug] * (1 - max(matrix[slug].values(), default=0.0)), 4)
        for slug in utility
    }
    assert {slug: values["release"] for slug, values in run.teams.items()} == expected
    board = selectors.standings(scorer=world.scorer)
    assert board.ranking.pk == run.pk
    order = sorted(expected, key=lambda slug: -expected[slug])
    assert [row.team.slug for row in board.releases] == order
    assert [row.rank for row in board.releases] == [1, 2, 3]
    assert {row.team.slug: row.rank for row in board.attackers} == {"teamb": 1, "teama": 2}


def test_an_upload_before_any_program_is_refused_then_rescored_once_one_is_ready():
    from pwscup.scorer import services
    from scoring.scorer.demo import demo_program_zip

    world = scorer_world(slug="sco10", letters="a", build=False)
    early = release(world, "a", release_bytes(noise=2))
    assert early.status == Release.Status.FAILED
    assert early.message_code == "job.no_program" and early.program_id is None
    version = program_version(world, demo_program_zip())
    assert set(services.outdated_uploads(scorer=world.scorer)[Release]) == {early.pk}
    assert services.rescore_outdated(scorer=world.scorer, user=world.organizer) == 1
    services.release_score(release_id=early.pk)
    again = Release.objects.get(pk=early.pk)
    assert again.status == Release.Status.FINISHED and again.program_id == version.pk


def test_a_score_the_program_wrote_as_an_integer_is_shown_as_one():
    # A count the program wrote as a JSON integer keeps its form; any other number takes the
    # tables' 4 decimals (a float 1.0 is a rate: 1.0000 beside 0.5000).
    assert [score_text.format_score(v) for v in (12, 1.0, 0.5, 2.25e-05)] == [
        "12",
        "1.0000",
        "0.5000",
        "0.000023",
    ]
    assert score_text.format_score(True) == "1.0000"
