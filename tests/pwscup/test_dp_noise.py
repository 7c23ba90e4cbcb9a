"""The answers the platform releases (spec §3.7, issue 11): Laplace noise drawn by OpenDP
from OS randomness, checked statistically (mean 0, variance 2λ², tail Pr(|noise| > tλ) =
e^{−t}), independent between identical queries, and never from a stored seed."""

import math

import numpy as np
import pytest

from pwscup.dp import engine
from pwscup.dp.models import Charge
from pwscup.dp.services import dp_query_answer
from tests.pwscup.dp_world import TOY_Z, build_dp_world

BIG = {
    "attributes": {"gender": ["F", "M"], "age": ["<=17", "18-24", "25-34"]},
    "workload": [{"id": "gender_age", "attributes": ["gender", "age"]}],
    "levels": [{"id": "big", "epsilon": "100"}],
    "max_charges_per_level": 100000,
}


def test_platform_noise_statistics():
    """200,000 draws at λ = 2 through the platform's sampler: mean, variance, tails within
    5 standard errors (fixed tolerances; no seed: the draws are fresh every run)."""
    scale, n = 2.0, 200_000
    noise = np.asarray(engine.laplace_answer(np.zeros(n), scale))
    assert abs(noise.mean()) < 5 * math.sqrt(2) * scale / math.sqrt(n)
    variance = noise.var()
    # Var of the sample variance of a Laplace: (E X^4 − σ^4)/n = (24λ⁴ − 4λ⁴)/n.
    assert abs(variance - 2 * scale**2) < 5 * math.sqrt(20 * scale**4 / n)
    for t in (0.5, 1.0, 2.0, 3.0):
        p = math.exp(-t)
        observed = float(np.mean(np.abs(noise) > t * scale))
        assert abs(observed - p) < 5 * math.sqrt(p * (1 - p) / n), t


def test_the_answer_is_centred_on_the_truth(db):
    """500 histogram queries at ε = 1/5 (λ = 10) on the toy table: the mean answer of each
    cell is the true count within 5 standard errors, the variance 2λ² within 5 standard errors
    of the sample variance (a Laplace has kurtosis 6: SE of s²/σ² = √(5/n) = 0.1 at n = 500,
    so a λ off by 1.5× fails; 2.5 SE, as before, failed one run in about 15)."""
    world = build_dp_world(config=BIG)
    answers = []
    for _ in range(500):
        result = dp_query_answer(
            dp_round=world.dp_round,
            team=world.teams["a"],
            user=world.users["a"],
            level="big",
            payload={"type": "histogram", "attributes": ["gender", "age"], "epsilon": "1/5"},
        )
        answers.append(result.charge.reply["answer"])
        assert result.charge.reply["lambda"] == 10.0 and result.charge.reply["sensitivity"] == 2
    answers = np.asarray(answers)
    se = math.sqrt(2) * 10 / math.sqrt(500)
    assert np.all(np.abs(answers.mean(axis=0) - TOY_Z) < 5 * se)
    assert np.all(np.abs(answers.var(axis=0) / 200 - 1) < 5 * math.sqrt(5 / 500))
    assert Charge.objects.count() == 500


def test_identical_queries_get_independent_noise(db):
    world = build_dp_world(config=BIG)

    def ask():
        return dp_query_answer(
            dp_round=world.dp_round,
            team=world.teams["a"],
            user=world.users["a"],
            level="big",
            payload={"type": "histogram", "attributes": ["gender", "age"], "epsilon": "1/4"},
        ).charge.reply["answer"]

    pairs = np.asarray([(ask(), ask()) for _ in range(150)])  # 150 × 2 × 6
    first, second = (
        pairs[:, 0, :].ravel() - np.tile(TOY_Z, 150),
        pairs[:, 1, :].ravel() - np.tile(TOY_Z, 150),
    )
    assert not np.array_equal(first, second)
    # Independent: correlation near 0 (900 pairs; 5/√900 ≈ 0.17).
    assert abs(np.corrcoef(first, second)[0, 1]) < 0.17


def test_a_count_query_has_sensitivity_one(db):
    world = build_dp_world(config=BIG)
    result = dp_query_answer(
        dp_round=world.dp_round,
        team=world.teams["a"],
        user=world.users["a"],
        level="big",
        payload={"type": "count", "where": {"gender": "M", "age": "25-34"}, "epsilon": "0.5"},
    )
    reply = result.charge.reply
    assert reply["sensitivity"] == 1 and reply["lambda"] == 2.0
    assert reply["cells"] == [["M", "25-34"]] and len(reply["answer"]) == 1


def test_no_seed_is_stored_or_derived():
    """Nothing in the DP models holds a seed, and the sampler is OpenDP's (not numpy's)."""
    from pwscup.dp import models

    names = {
        field.name for model in (models.DPRound, models.Ledger, models.Charge, models.Estimate)
        for field in model._meta.get_fields()
    }  # fmt: skip
    assert not {n for n in names if "seed" in n or "secret" in n}
    import inspect

    from scoring.dp import laplace

    assert "opendp" in inspect.getsource(laplace.opendp_laplace_answer)
    assert engine.laplace_answer.__module__ == "pwscup.dp.engine"
    assert "opendp_laplace_answer" in inspect.getsource(engine.laplace_answer)


@pytest.mark.parametrize("t", [1.0, 3.0])
def test_tail_values_match_the_spec_example(t):
    # EX5: Pr(|noise| > 3λ) = 0.049787
    assert round(math.exp(-t), 6) == {1.0: 0.367879, 3.0: 0.049787}[t]


def test_a_level_without_baselines_says_why_in_the_reader_s_language(db, monkeypatch):
    """A level whose baselines cannot be computed (the library refuses its ρ) has none; the
    leaderboard says why in its reader's language (the reason is kept with its code, not as
    English text)."""
    from django.utils import timezone, translation

    import scoring.dp.baselines
    from pwscup.dp.estimation import round_baselines
    from pwscup.dp.ranking import level_boards
    from scoring.dp.errors import DPError

    def refused(*args, **kwargs):
        raise DPError("dp.release.rho_too_large", rho="1.0")

    monkeypatch.setattr(scoring.dp.baselines, "run_baselines", refused)
    world = build_dp_world(config=BIG)
    world.dp_round.baselines = round_baselines(world.dp_round.round)
    world.dp_round.scored_at = timezone.now()  # as the close's scoring leaves it
    world.dp_round.save(update_fields=["baselines", "scored_at"])
    with translation.override("en"):
        english = level_boards(dp_round=world.dp_round)[0].baselines["error"]
    with translation.override("ja"):
        japanese = level_boards(dp_round=world.dp_round)[0].baselines["error"]
    assert "rho 1.0" in english
    assert japanese != english and any("\u3040" <= c <= "\u9fff" for c in japanese), japanese
