"""Freeze, published targets, built-in and team attacks, re-freeze, rescoring."""

import numpy as np
import pandas as pd
import pytest

import scoring
from pwscup.core.errors import Refused
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
    Pwscup2015Round,
    Target,
)
from pwscup.submissions.models import Status
from scoring import kit
from tests.pwscup.factories import (
    answer_bytes,
    attack,
    freeze,
    read_csv_text,
    read_field,
    score,
    score_attack,
    scored,
    scored_attack,
    truth_of,
    upload,
)
from tests.support import tasks_sent

pytestmark = pytest.mark.django_db


def rows_as_tuples(table: pd.DataFrame) -> list[tuple]:
    return sorted(map(tuple, table.to_numpy().tolist()))


def test_freeze_publishes_one_shuffled_target_per_team_with_a_finished_submission(world):
    sub_a = scored(world, "a", seed=1, delete=5)
    scored(world, "b", seed=2)
    failed = score(upload(world, "c", world.original.replace(b"Male", b"Robot", 1)))
    assert failed.status == Status.FAILED
    targets = freeze(world)
    assert set(targets) == {"a", "b"}, "team C has no finished submission: no target"
    world.round.refresh_from_db()
    assert world.round.pwscup2015.frozen_at is not None
    target = targets["a"]
    assert (target.version, target.submission_id) == (1, sub_a.pk)
    assert (target.rows, target.reference_rows) == (195, 200)
    anonymized = read_csv_text(read_field(sub_a.file))
    kept = anonymized[(anonymized != "").any(axis=1)].reset_index(drop=True)
    published = read_csv_text(read_field(target.published_file))
    # Same header (no row numbers), deleted rows removed, same multiset of rows, new order.
    assert list(published.columns) == list(anonymized.columns)
    assert len(published) == 195
    assert not (published == "").all(axis=1).any()
    assert rows_as_tuples(published) == rows_as_tuples(kept)
    assert not published.equals(kept)
    # The truth maps each published row to its row in the submission (= the original).
    truth = truth_of(target)
    assert truth.dtype == np.int64 and len(truth) == 195
    assert len(set(truth.tolist())) == 195
    pd.testing.assert_frame_equal(
        anonymized.iloc[truth - 1].reset_index(drop=True), published, check_dtype=False
    )
    # The two targets are shuffled by different secret permutations.
    assert not np.array_equal(truth_of(targets["b"])[:195], truth)


def test_builtin_rates_equal_the_anonymization_phase_attack_metrics(world):
    submission = scored(world, "a", seed=3, delete=6)
    target = freeze(world)["a"]
    assert target.builtin.status == Status.FINISHED, target.builtin.message
    assert target.builtin.attempts == 1
    # The six attacks of the anonymization phase, the kit attacker (tests/pwscup/test_kit_attacker.py)
    # and the reference attack (tests/pwscup/test_reference_attack.py).
    assert set(target.builtin.rates) == {
        *scoring.ATTACK_METRICS,
        kit.BUILTIN_ATTACKER,
        scoring.REFERENCE_ATTACK,
    }
    # The published rows are shuffled; every rate, E3 included (ties split uniformly), must
    # still equal the anonymization phase's value exactly.
    for metric in scoring.ATTACK_METRICS:
        assert target.builtin.rates[metric] == pytest.approx(submission.scores[metric]), metric
    # A second delivery of the built-in job changes nothing.
    services.target_builtin_score(target_id=target.pk)
    again = Target.objects.get(pk=target.pk)
    assert (again.builtin.rates, again.builtin.attempts) == (target.builtin.rates, 1)


def test_attack_scores_exact_half_and_malformed_answers(world):
    scored(world, "a", seed=1, delete=4)
    scored(world, "b", seed=2)
    target = freeze(world)["a"]
    truth = truth_of(target)
    assert len(truth) == 196
    right = scored_attack(world, "b", target, truth)
    assert right.status == Status.FINISHED, right.message
    assert (right.rate, right.correct, right.rows) == (1.0, 196, 196)
    assert right.target_version == 1
    half = truth.copy()
    half[::2] = 0  # no guess on every other line
    halfway = scored_attack(world, "b", target, half)
    assert (halfway.rate, halfway.correct) == (0.5, 98)
    wrong = truth.copy()
    wrong[:49] = np.where(truth[:49] == 1, 2, 1)  # 49 wrong guesses
    assert scored_attack(world, "b", target, wrong).rate == pytest.approx(147 / 196)
    lines = answer_bytes(truth).split(b"\n")
    lines[3] = b"abc"  # file line 4
    lines[8] = b"7.5"  # file line 9
    malformed = score_attack(attack(world, "b", target, b"\n".join(lines)))
    assert malformed.status == Status.FAILED
    assert malformed.rate is None
    assert "line 4 ('abc'), line 9 ('7.5')" in malformed.message, malformed.message
    beyond = truth.copy()
    beyond[10] = 201  # file line 12: past the 200 reference rows
    out_of_range = scored_attack(world, "b", target, beyond)
    assert out_of_range.status == Status.FAILED
    assert "line 12 ('201')" in out_of_range.message, out_of_range.message
    assert read_field(malformed.file) == b"\n".join(lines)
    short = score_attack(attack(world, "b", target, answer_bytes(truth[:-1])))
    assert short.status == Status.FAILED, short.message
    assert "195 answer lines after the header line; expected 196" in short.message, short.message
    # A second delivery does not rescore.
    services.attack_submission_score(submission_id=right.pk)
    assert AttackSubmission.objects.get(pk=right.pk).attempts == 1


def test_a_team_cannot_attack_itself(world):
    scored(world, "a", seed=1)
    target = freeze(world)["a"]
    with pytest.raises(Refused) as refusal:
        attack(world, "a", target, answer_bytes(truth_of(target)))
    assert refusal.value.status == 403
    assert AttackSubmission.objects.count() == 0


def test_refreeze_publishes_version_2_and_rescores_existing_attacks(world):
    first = scored(world, "a", seed=1, delete=4)
    second = scored(world, "a", seed=2, delete=4)  # the last valid one: frozen first
    scored(world, "b", seed=3)
    targets = freeze(world)
    target_a, target_b = targets["a"], targets["b"]
    assert target_a.submission_id == second.pk
    old_truth = truth_of(target_a)
    old_files = (target_a.published_file.name, target_a.truth_file.name)
    hit = scored_attack(world, "b", target_a, old_truth)
    assert hit.rate == 1.0
    on_b = scored_attack(world, "a", target_b, truth_of(target_b))
    # The organizer corrects team A's final choice (admin) and freezes again.
    AnonymizationSubmission.objects.filter(pk=first.pk).update(is_selected=True)
    targets = freeze(world)
    new_a = targets["a"]
    assert (new_a.pk, new_a.version, new_a.submission_id) == (target_a.pk, 2, first.pk)
    assert (new_a.published_file.name, new_a.truth_file.name) != old_files
    new_truth = truth_of(new_a)
    published = read_csv_text(read_field(new_a.published_file))
    anonymized = read_csv_text(read_field(first.file))
    pd.testing.assert_frame_equal(
        anonymized.iloc[new_truth - 1].reset_index(drop=True), published, check_dtype=False
    )
    # B's attack on A was re-queued with a fresh attempt budget ...
    requeued = AttackSubmission.objects.get(pk=hit.pk)
    assert (requeued.status, requeued.attempts) == (Status.QUEUED, 0)
    # ... and is scored against the new truth, for version 2.
    rescored = score_attack(requeued)
    expected = scoring.score_correspondence(old_truth, new_truth)
    assert rescored.status == Status.FINISHED
    assert (rescored.rate, rescored.correct, rescored.target_version) == (
        pytest.approx(expected.rate),
        expected.correct,
        2,
    )
    assert rescored.rate < 1.0
    # Team B's target did not change: same version, same files, its attack untouched.
    assert targets["b"].version == 1
    assert targets["b"].published_file.name == target_b.published_file.name
    untouched = AttackSubmission.objects.get(pk=on_b.pk)
    assert (untouched.status, untouched.attempts, untouched.rate) == (Status.FINISHED, 1, 1.0)
    # Freezing again with nothing changed republishes nothing.
    assert freeze(world)["a"].version == 2


def test_round_rescore_all_requeues_everything_and_reproduces_the_scores(
    world, django_capture_on_commit_callbacks
):
    sub_a = scored(world, "a", seed=1, delete=2)
    sub_b = scored(world, "b", seed=2)
    targets = freeze(world)
    hit = scored_attack(world, "b", targets["a"], truth_of(targets["a"]))
    with django_capture_on_commit_callbacks() as callbacks:
        counts = services.round_rescore_all(round=world.round)
    assert counts == {"anonymizations": 2, "targets": 2, "attacks": 1}
    assert len(tasks_sent(callbacks)) == 5, "one task sent per job"
    for model in (AnonymizationSubmission, AttackSubmission):
        assert set(model.objects.values_list("status", "attempts")) == {(Status.QUEUED, 0)}
    assert set(Target.objects.values_list("builtin__status", "builtin__attempts")) == {
        (Status.QUEUED, 0)
    }
    # Running the jobs again gives the same results.
    for submission in (sub_a, sub_b):
        again = score(submission)
        assert again.status == Status.FINISHED and again.scores == submission.scores
    for target in targets.values():
        services.target_builtin_score(target_id=target.pk)
        assert Target.objects.get(pk=target.pk).builtin.rates == target.builtin.rates
    assert score_attack(hit).rate == 1.0


def set_builtin(target: Target, rate: float) -> None:
    BuiltinAttack.objects.filter(pk=target.pk).update(
        status=Status.FINISHED, rates=dict.fromkeys(scoring.ATTACK_METRICS, rate)
    )


def answer_with_rate(target: Target, correct: int) -> np.ndarray:
    answer = truth_of(target).copy()
    answer[correct:] = 0
    return answer


def test_matrix_keeps_best_and_latest_per_cell_and_the_builtin_rows(world):
    from pwscup.pwscup2015.leaderboards.selectors import attack_matrix

    scored(world, "a", seed=1)  # 200 rows, no deletion
    scored(world, "b", seed=2)
    targets = freeze(world)
    target_a = targets["a"]
    scored_attack(world, "b", target_a, answer_with_rate(target_a, 160))  # 0.8
    scored_attack(world, "b", target_a, answer_with_rate(target_a, 50))  # 0.25, latest
    broken = score_attack(attack(world, "b", target_a, b"nonsense\nx\n"))
    assert broken.status == Status.FAILED
    matrix = attack_matrix(round=world.round)
    cell = matrix.cell(f"team:{world.teams['b'].pk}", target_a.pk)
    assert (cell.best, cell.latest, cell.count) == (0.8, 0.25, 2)
    assert matrix.cell(f"team:{world.teams['c'].pk}", target_a.pk).best is None
    for metric in scoring.ATTACK_METRICS:
        builtin = matrix.cell(f"builtin:{metric}", target_a.pk)
        assert builtin.best == pytest.approx(target_a.builtin.rates[metric])
    expected_worst = max(0.8, *target_a.builtin.rates.values())
    assert matrix.worst_case(target_a.pk) == pytest.approx(expected_worst)


def test_final_ranking_gates_last_then_worst_case_then_tie_break(world):
    from pwscup.pwscup2015.leaderboards.selectors import final_ranking

    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    scored(world, "c", seed=3, delete=10)
    targets = freeze(world)
    Pwscup2015Round.objects.filter(round=world.round).update(utility_gates={"U6": 5})
    world.round.refresh_from_db()
    a, b, c = (targets[x] for x in "abc")
    set_builtin(a, 0.2)
    set_builtin(b, 0.3)
    set_builtin(c, 0.0)  # the safest, but it deleted 10 rows: fails the gate
    scored_attack(world, "b", a, answer_with_rate(a, 80))  # 0.4: A's worst case
    scored_attack(world, "b", a, answer_with_rate(a, 20))  # 0.1 later: best stays 0.4
    scored_attack(world, "a", b, answer_with_rate(b, 40))  # 0.2 < B's built-in 0.3
    scored_attack(world, "a", c, answer_with_rate(c, 171))  # 0.9 on 190 rows
    scored_attack(world, "b", c, answer_with_rate(c, 95))  # 0.5
    anonymization, attacks = final_ranking(round=world.round)
    got = [(r.team.slug, r.rank, r.passes_gates, r.safety) for r in anonymization]
    assert got == [
        ("teamB", 1, True, pytest.approx(0.3)),
        ("teamA", 2, True, pytest.approx(0.4)),
        ("teamC", None, False, pytest.approx(0.9)),
    ]
    # Attack ranking: mean over the other teams' targets (a target not attacked counts 0);
    # C attacked nothing, so it has no attack rank.
    got = [(r.team.slug, r.rank, r.mean_rate, r.targets_attacked) for r in attacks]
    assert got == [
        ("teamA", 1, pytest.approx((0.2 + 0.9) / 2), 2),
        ("teamB", 2, pytest.approx((0.4 + 0.5) / 2), 2),
        ("teamC", None, 0.0, 0),
    ]


def test_final_ranking_breaks_equal_worst_cases_by_the_utility_metric(world):
    from pwscup.pwscup2015.leaderboards.selectors import final_ranking

    exact = scored(world, "a", content=world.original)
    noisy = scored(world, "b", seed=2)
    assert exact.scores["U1"] < noisy.scores["U1"]
    targets = freeze(world)
    set_builtin(targets["a"], 0.5)
    set_builtin(targets["b"], 0.5)
    anonymization, _ = final_ranking(round=world.round)
    assert [(r.team.slug, r.rank) for r in anonymization] == [("teamA", 1), ("teamB", 2)]
    # An attack that beats the built-in worst case on A moves A behind B.
    scored_attack(world, "c", targets["a"], answer_with_rate(targets["a"], 120))  # 0.6
    anonymization, _ = final_ranking(round=world.round)
    assert [(r.team.slug, r.rank) for r in anonymization] == [("teamB", 1), ("teamA", 2)]


def test_per_team_mode_end_to_end(make_world):

    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    master = read_csv_text(world.original)
    datasets = {d.team.slug: d for d in world.round.team_datasets.select_related("team")}
    assert set(datasets) == {"teamA", "teamB", "teamC"}
    for dataset in datasets.values():
        index = np.asarray(dataset.sample_index)
        assert len(index) == dataset.rows == 60 and len(set(index.tolist())) == 60
        sample = read_csv_text(read_field(dataset.file))
        pd.testing.assert_frame_equal(sample, master.iloc[index].reset_index(drop=True))
    assert datasets["teamA"].sample_index != datasets["teamB"].sample_index
    # Team A anonymizes its own sample: a copy with 5 rows deleted, scored against its sample.
    sample_a = read_csv_text(read_field(datasets["teamA"].file))
    anonymized = sample_a.copy()
    anonymized.iloc[[3, 10, 20, 33, 59], :] = ""
    content = anonymized.to_csv(index=False, lineterminator="\n").encode()
    submission = scored(world, "a", content=content)
    assert submission.status == Status.FINISHED, submission.message
    assert submission.scores["U6"] == 5
    scored(world, "b", seed=1)
    target = freeze(world)["a"]
    assert (target.rows, target.reference_rows) == (55, 100)
    candidates = read_csv_text(read_field(target.candidate_file))
    assert len(candidates) == 100
    # The candidate table = A's sample + 40 master rows outside it, shuffled.
    assert set(map(tuple, candidates.to_numpy().tolist())) <= set(
        map(tuple, master.to_numpy().tolist())
    )
    sample_rows = set(map(tuple, sample_a.to_numpy().tolist()))
    in_sample = [tuple(r) in sample_rows for r in candidates.to_numpy().tolist()]
    assert sum(in_sample) == 60
    assert not candidates.iloc[:60].equals(sample_a)
    # The truth points into the candidate table: each published row is its candidate row.
    truth = truth_of(target)
    published = read_csv_text(read_field(target.published_file))
    pd.testing.assert_frame_equal(
        candidates.iloc[truth - 1].reset_index(drop=True), published, check_dtype=False
    )
    # Built-in attacks ran against the candidate table, not the sample.
    assert target.builtin.status == Status.FINISHED, target.builtin.message
    config = scoring.load_config(world.round.config, candidates)
    expected = scoring.builtin_attack_rates(candidates, published, truth, config)
    for metric in scoring.ATTACK_METRICS:
        assert target.builtin.rates[metric] == pytest.approx(expected[metric])
    # Team B attacks A: the right answer scores 1.0; a guess past the candidates is invalid.
    assert scored_attack(world, "b", target, truth).rate == 1.0
    beyond = truth.copy()
    beyond[0] = 101
    failed = scored_attack(world, "b", target, beyond)
    assert failed.status == Status.FAILED, failed.message
    assert "between 1 and 100" in failed.message and "line 2 ('101')" in failed.message, (
        failed.message
    )


def test_an_attack_in_another_encoding_is_named_by_its_uploaded_file(world):
    """As every other upload's encoding refusal (docs/participants.md, *Text encodings*): the
    file by the name the team uploaded it under, not "The correspondence table" (whose
    Japanese, "対応表 は", read as a file name with a stray space)."""
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    target = freeze(world)["a"]
    utf16 = answer_bytes(truth_of(target)).decode().encode("utf-16")
    failed = score_attack(attack(world, "b", target, utf16))
    assert failed.status == Status.FAILED
    assert failed.message.startswith("attack_teamA.csv is not UTF-8 (it looks like UTF-16)"), (
        failed.message
    )
