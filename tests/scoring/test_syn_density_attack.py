"""The built-in density attack with the round's fixed bandwidth (spec synthetic-round.md §2,
rev. 2), and the ``density_bandwidth`` setting.

Rev. 1 fitted the kernel densities with Scott's rule: in a wide embedding its factor is
close to 1, wider than a categorical mismatch (0.71), and the attack stayed at chance even
against a release that copies its members. The generated case below has that shape (rows
of a few latent classes, 68 dimensions, Scott's factor ≈ 0.92); it runs in well under a
second.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.neighbors import KernelDensity

from scoring.synthetic.attack import attack_scores, density_attack
from scoring.synthetic.config import DEFAULTS, parse_config
from scoring.synthetic.errors import SynthError
from scoring.synthetic.population import Population, population_from_frame

MEMBERS, CHALLENGE_HALF = 300, 100


def clustered_population(*, seed: int = 0, **settings) -> Population:
    """Two numeric and eight categorical columns (eight values each) and a label, the rows
    drawn from four latent classes, each cell its class's value four times in five: many
    near neighbours, few exact duplicates (as in Adult)."""
    rng = np.random.default_rng(seed)
    size = 2 * MEMBERS + CHALLENGE_HALF
    latent = rng.integers(4, size=size)
    columns = {f"x{j}": np.round(rng.normal(latent * 10, 5, size), 1).astype(str) for j in range(2)}
    for j in range(8):
        prototype = rng.integers(8, size=4)[latent]
        noise = rng.integers(8, size=size)
        cells = np.where(rng.random(size) < 0.8, prototype, noise)
        columns[f"c{j}"] = np.array([f"v{v}" for v in cells])
    columns["y"] = np.where(rng.random(size) < 0.8, latent % 2, 1 - latent % 2).astype(str)
    table = pd.DataFrame(columns)
    roles = {c: "numeric" if c.startswith("x") else "categorical" for c in table.columns}
    return population_from_frame(table, parse_config({"columns": roles, "label": "y", **settings}))


def verbatim_copy_case(population: Population):
    """Members (released verbatim), the auxiliary table, a challenge set of 100 members and
    100 non-members, and its labels."""
    members = population.rows(np.arange(MEMBERS))
    aux = population.rows(np.arange(MEMBERS, 2 * MEMBERS))
    outsiders = population.rows(np.arange(2 * MEMBERS, 2 * MEMBERS + CHALLENGE_HALF))
    challenge = pd.concat([members.iloc[:CHALLENGE_HALF], outsiders], ignore_index=True)
    labels = np.r_[np.ones(CHALLENGE_HALF, int), np.zeros(CHALLENGE_HALF, int)]
    return members, aux, challenge, labels


def scott_attack(release, aux, challenge, population: Population) -> np.ndarray:
    """Rev. 1's attack, read literally: the same likelihood ratio with Scott's rule."""
    points = population.embed(challenge)
    fitted = [
        KernelDensity(kernel="gaussian", bandwidth="scott").fit(population.embed(table))
        for table in (release, aux)
    ]
    return fitted[0].score_samples(points) - fitted[1].score_samples(points)


def auc(labels, scores) -> float:
    return attack_scores(labels, scores, fpr_levels=(0.1,))["auc"]


def test_the_fixed_bandwidth_separates_a_verbatim_copy_where_scott_stays_at_chance():
    population = clustered_population()
    assert population.config.density_bandwidth == 0.1
    members, aux, challenge, labels = verbatim_copy_case(population)
    scott = KernelDensity(bandwidth="scott").fit(population.embed(members)).bandwidth_
    assert scott > 0.9  # wider than a categorical mismatch (√0.5 ≈ 0.71)

    assert auc(labels, density_attack(members, aux, challenge, population)) > 0.8
    assert abs(auc(labels, scott_attack(members, aux, challenge, population)) - 0.5) < 0.1


def test_the_attack_uses_the_rounds_bandwidth():
    wide = clustered_population(density_bandwidth=1.0)
    members, aux, challenge, labels = verbatim_copy_case(wide)
    scores = density_attack(members, aux, challenge, wide)
    points = wide.embed(challenge)
    fitted = [
        KernelDensity(kernel="gaussian", bandwidth=1.0).fit(wide.embed(table))
        for table in (members, aux)
    ]
    expected = fitted[0].score_samples(points) - fitted[1].score_samples(points)
    np.testing.assert_allclose(scores, expected)
    assert auc(labels, scores) < auc(
        labels, density_attack(members, aux, challenge, clustered_population())
    )


SETTINGS = {"columns": {"x": "numeric", "y": "categorical"}, "label": "y"}


def test_density_bandwidth_defaults_to_a_tenth_and_round_trips():
    config = parse_config(SETTINGS)
    assert DEFAULTS["density_bandwidth"] == config.density_bandwidth == 0.1
    assert config.as_dict()["density_bandwidth"] == 0.1
    assert parse_config(config.as_dict()) == config
    assert parse_config({**SETTINGS, "density_bandwidth": 0.05}).density_bandwidth == 0.05
    assert parse_config({**SETTINGS, "density_bandwidth": 1}).density_bandwidth == 1.0


@pytest.mark.parametrize("value", [0, -0.1, "scott", True, None, float("inf"), [0.1]])
def test_a_bandwidth_that_is_no_positive_number_is_refused_naming_the_key(value):
    with pytest.raises(SynthError) as caught:
        parse_config({**SETTINGS, "density_bandwidth": value})
    assert caught.value.code == "syn.config.bad_value"
    message = str(caught.value)
    assert message.startswith("'density_bandwidth' must be a")
    assert "number" in message
