"""The release scores of spec synthetic-round.md §2 on tiny hand-made tables, exactly."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from scoring.synthetic.attack import dcr_attack, density_attack, null_attack
from scoring.synthetic.config import parse_config
from scoring.synthetic.population import read_population
from scoring.synthetic.utility import (
    dcr_5,
    model_auc,
    nearest_distances,
    r_copy,
    release_scores,
    u_1,
    u_2,
)
from tests.scoring.synth_support import small_population


def test_numeric_bins_are_p_deciles_with_ties_merged():
    config = parse_config({"columns": {"x": "numeric", "y": "categorical"}, "label": "y"})
    # Seven zeros of ten: the deciles 0.1 … 0.6 are all 0, so they merge into one edge.
    p = read_population(
        b"x,y\n" + b"".join(f"{v},{'ab'[v % 2]}\n".encode() for v in [0] * 7 + [1, 2, 3]), config
    )
    assert p.edges["x"].tolist()[0] == 0.0
    assert len(p.edges["x"]) < 9
    codes = p.codes(pd.DataFrame({"x": [0.0, 0.5, 3.0], "y": ["a", "a", "a"]}))[:, 0]
    # side="right": a value equal to an edge falls in the bin above it.
    assert codes.tolist() == [
        1,
        int(np.searchsorted(p.edges["x"], 0.5, side="right")),
        len(p.edges["x"]),
    ]


def test_u1_is_the_mean_total_variation_over_columns():
    p = small_population()
    members = p.rows([0, 1, 2, 3])  # x 0,10,20,30; c p,q,r,p; y n,n,y,y
    release = p.rows([0, 0, 0, 0])  # x 0 ×4; c p ×4; y n ×4
    # x: bins of 0,10,20,30 differ (edges 4,8,…,36) → TVD ½(¾ + ¼ + ¼ + ¼) = 0.75;
    # c: p ½→1, q ¼→0, r ¼→0 → 0.5; y: n ½→1, y ½→0 → 0.5.
    assert u_1(release, members, p) == pytest.approx((0.75 + 0.5 + 0.5) / 3)
    assert u_1(members, members, p) == 0.0


def test_u2_is_the_mean_total_variation_over_column_pairs():
    p = small_population()
    members = p.rows([0, 1, 2, 3])
    release = p.rows([0, 1, 0, 1])  # (x, c, y): (0,p,n), (10,q,n) twice each
    # (x,c): members' four cells ¼ each; release (0,p) ½ and (10,q) ½ → ½(¼+¼+¼+¼) = 0.5.
    # (x,y): same four distinct cells against two → 0.5. (c,y): members (p,n) (q,n) (r,y)
    # (p,y) ¼ each; release (p,n) ½ (q,n) ½ → 0.5.
    assert u_2(release, members, p) == pytest.approx(0.5)
    assert u_2(members, members, p) == 0.0


def test_r_copy_compares_numbers_by_value():
    p = small_population()
    members = p.rows([0, 1])
    release = pd.DataFrame({"x": [0.0, 10.0, 10.0], "c": ["p", "q", "p"], "y": ["n", "n", "n"]})
    assert r_copy(release, members, p) == pytest.approx(2 / 3)


def test_dcr_embedding_distances():
    p = small_population()
    a = pd.DataFrame({"x": [0.0], "c": ["p"], "y": ["n"]})
    b = pd.DataFrame({"x": [10.0], "c": ["q"], "y": ["n"]})
    # numeric: 10 / range 40 = 0.25; one categorical mismatch costs 1 (½ + ½).
    assert nearest_distances(a, b, p).tolist() == [1.25]


def test_a_constant_column_contributes_nothing():
    config = parse_config(
        {"columns": {"k": "numeric", "x": "numeric", "y": "categorical"}, "label": "y"}
    )
    p = read_population(b"k,x,y\n5,0,a\n5,4,b\n", config)
    a = pd.DataFrame({"k": [5.0], "x": [0.0], "y": ["a"]})
    b = pd.DataFrame({"k": [5.0], "x": [1.0], "y": ["a"]})
    assert nearest_distances(a, b, p).tolist() == [0.25]


def test_dcr_5_is_the_linear_5th_percentile_of_nearest_distances():
    p = small_population()
    release = p.rows([0])  # (0, p, n)
    reference = p.rows([0, 1, 2, 3, 4])
    d = np.array([0.0, 1.25, 2.5, 1.75, 2.0])  # by hand: x/40 plus 1 per categorical mismatch
    assert nearest_distances(reference, release, p) == pytest.approx(d)
    assert dcr_5(reference, release, p) == pytest.approx(np.percentile(d, 5))


def test_u_ml_is_zero_for_one_label_value():
    p = small_population()
    one_label = p.rows([0, 1, 4])  # y = n only
    assert model_auc(one_label, p.frame, p) == 0.0


def _multi_class_population(rows=300, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=rows)
    y = np.where(x < -0.5, "a", np.where(x < 0.5, "b", "c"))
    text = "x,y\n" + "".join(f"{float(v)!r},{c}\n" for v, c in zip(x, y, strict=True))
    config = parse_config({"columns": {"x": "numeric", "y": "categorical"}, "label": "y"})
    return read_population(text.encode(), config)


def test_multi_class_u_ml_auc_is_sklearns_macro_one_vs_rest():
    p = _multi_class_population()
    train, test = p.rows(np.arange(0, 200)), p.rows(np.arange(200, 300))
    # The reference: sklearn's own macro one-vs-rest on the full probability matrix.
    from scoring.synthetic.utility import utility_model

    model = utility_model(p).fit(train[["x"]], train["y"])
    expected = roc_auc_score(test["y"], model.predict_proba(test[["x"]]), multi_class="ovr")
    assert model_auc(train, test, p) == pytest.approx(expected, abs=1e-12)


def test_a_label_value_absent_from_the_release_gets_probability_zero():
    p = _multi_class_population()
    train = p.frame[p.frame["y"] != "c"].reset_index(drop=True)
    test = p.rows(np.arange(200, 300))
    # Class c is never predicted: its one-vs-rest AUC is ½ (all scores 0), so the mean is
    # below the same model's two other classes.
    auc = model_auc(train, test, p)
    assert 0.5 < auc < 1.0


def test_built_in_attacks():
    p = small_population()
    release = p.rows([0, 1])
    aux = p.rows([3, 4])
    challenge = p.rows([0, 2])
    dcr = dcr_attack(release, challenge, p)
    # (20, r, y) is 0.25 + 1 + 1 from (10, q, n) and 0.5 + 1 + 1 from (0, p, n).
    assert dcr.tolist() == [0.0, -2.25]
    density = density_attack(release, aux, challenge, p)
    assert density[0] > density[1]  # the release's own row is denser under S than under A
    assert np.array_equal(null_attack(4, seed=3, target="A"), null_attack(4, seed=3, target="A"))
    assert not np.array_equal(
        null_attack(4, seed=3, target="A"), null_attack(4, seed=3, target="B")
    )


def test_the_members_released_as_they_are_score_as_the_real_data():
    p = _multi_class_population()
    members, holdout = p.rows(np.arange(0, 200)), p.rows(np.arange(200, 300))
    scores = release_scores(members, members, holdout, p)
    assert (scores.u_ml, scores.u_1, scores.u_2, scores.r_copy, scores.dcr_5_train) == (
        1.0,
        0.0,
        0.0,
        1.0,
        0.0,
    )
    assert scores.dcr_5_holdout > 0.0
    assert scores.passes(u_ml_min=0.8, u_1_max=0.1, r_copy_excess_max=1.0)
    assert not scores.passes(u_ml_min=1.01, u_1_max=0.1, r_copy_excess_max=1.0)
    assert not scores.passes(u_ml_min=0.8, u_1_max=0.1, r_copy_excess_max=0.1)  # a verbatim copy
