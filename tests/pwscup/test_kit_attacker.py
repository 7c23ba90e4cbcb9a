"""The built-in kit attacker: the lecture's pipeline run on each published target."""

import pytest

import scoring
from pwscup.pwscup2015.leaderboards.selectors import attack_matrix
from pwscup.submissions.models import Status
from scoring import kit
from tests.pwscup.factories import attack, freeze, read_field, score_attack, scored

pytestmark = pytest.mark.django_db


def test_kit_attacker_rate_is_what_a_team_running_the_kit_on_the_published_file_scores(world):
    scored(world, "a", seed=1, delete=5)
    submission_b = scored(world, "b", seed=2)
    target = freeze(world)["a"]
    assert target.builtin.status == Status.FINISHED
    assert kit.BUILTIN_ATTACKER in target.builtin.rates

    # Team C downloads the published file and the reference, runs the kit, uploads.
    published = scoring.read_table(read_field(target.published_file))
    reference = scoring.read_table(world.original)
    config = scoring.load_config(world.round.config, reference)
    guesses = kit.lecture_answer(published, reference, config)
    answer = kit.correspondence_lines(guesses).encode()
    uploaded = score_attack(attack(world, "c", target, answer))
    assert uploaded.status == Status.FINISHED, uploaded.message
    assert uploaded.correct > 0, "noisy copies are largely re-identified"
    assert target.builtin.rates[kit.BUILTIN_ATTACKER] == pytest.approx(uploaded.rate, abs=1e-12)

    # It is a row of the attack matrix (counted in the target's worst case) ...
    matrix = attack_matrix(round=world.round)
    key = f"builtin:{kit.BUILTIN_ATTACKER}"
    assert key in dict(matrix.attackers)
    assert matrix.cell(key, target.pk).best == pytest.approx(uploaded.rate)
    assert matrix.worst_case(target.pk) >= uploaded.rate
    # ... and not one of the anonymization-phase scores.
    submission_b.refresh_from_db()
    assert kit.BUILTIN_ATTACKER not in submission_b.scores
    assert set(scoring.ATTACK_METRICS) <= set(submission_b.scores)
