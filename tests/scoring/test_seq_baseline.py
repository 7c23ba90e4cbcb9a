"""Spec §16 and W0: the starter kit's baseline publisher makes valid m-invariant releases."""

import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.kit.sequential import baseline_buckets, baseline_release
from scoring.sequential import (
    evaluate_sequence,
    parse_config,
    read_master,
    read_release,
    structure,
)
from scoring.tables import read_table

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sequential"


def zhang():
    config = parse_config(json.loads((FIXTURES / "zhang_config.json").read_text()))
    return config, read_master(FIXTURES / "zhang_master.csv", config)


def test_w0_phases_on_the_paper_example():
    config, master = zhang()
    table3 = read_table(FIXTURES / "zhang_release_1.csv")
    buckets = baseline_buckets(master.table(2).astype(str), table3, config)
    by_signature = {b.signature: b.slots for b in buckets}
    # phase 1 (図 1) + phase 2 (図 2: c1 bronchitis, Emily into BUC3, c2 dyspepsia)
    # + phase 3 (図 3: Mary, Ray into BUC4; Tom, Vince into BUC2)
    assert by_signature[("bronchitis", "dyspepsia")] == {"dyspepsia": ["Bob"], "bronchitis": [""]}
    assert by_signature[("flu", "gastritis")] == {
        "flu": ["Gary", "Vince"],
        "gastritis": ["David", "Tom"],
    }
    assert by_signature[("dyspepsia", "flu", "gastritis")] == {
        "dyspepsia": ["Jane"],
        "flu": ["Emily"],
        "gastritis": ["Linda"],
    }
    assert by_signature[("dyspepsia", "gastritis")] == {
        "gastritis": ["Steve", "Mary"],
        "dyspepsia": ["", "Ray"],
    }
    assert len(buckets) == 4


def test_the_baseline_continues_table3_validly_and_2_invariantly():
    config, master = zhang()
    table3 = read_table(FIXTURES / "zhang_release_1.csv")
    first = read_release(table3, release=1, master=master)
    second_file = baseline_release(master.table(2), table3, config, release=2)
    second = read_release(second_file, release=2, master=master, previous=first)
    result = evaluate_sequence(master, [first, second])
    assert result.summary["MINV"] == 2
    assert result.summary["RA_max"] <= 0.5 + 1e-12
    assert second.counterfeits == 2  # c1 and c2, as in Z
    assert len(second.groups) == 6  # BUC1 1, BUC2 2, BUC3 1, BUC4 2 (表 9 has six too)


def test_the_baseline_makes_both_releases_of_the_paper():
    config, master = zhang()
    one = baseline_release(master.table(1), None, config, release=1)
    first = read_release(one, release=1, master=master)
    two = baseline_release(master.table(2), one, config, release=2)
    second = read_release(two, release=2, master=master, previous=first)
    assert structure([first, second]).minv >= 2


def test_the_baseline_writes_a_truthful_last_and_a_tampered_column():
    config = parse_config(
        {
            **json.loads((FIXTURES / "zhang_config.json").read_text()),
            "last_disclosure": True,
            "allow_tampering": True,
        }
    )
    master = read_master(FIXTURES / "zhang_master.csv", config)
    one = baseline_release(master.table(1), None, config, release=1)
    assert list(one.columns) == ["gid", "pid", "Age", "Zip", "Disease", "tampered"]
    first = read_release(one, release=1, master=master)
    two = baseline_release(master.table(2), one, config, release=2)
    assert list(two.columns)[-1] == "last"
    read_release(two, release=2, master=master, previous=first)  # rule 11 holds


@st.composite
def masters(draw):
    n = draw(st.integers(1, 4))
    size = draw(st.integers(4, 30))
    rows = []
    for i in range(size):
        lsf = draw(st.integers(1, n))
        rows.append(
            [
                f"p{i}",
                str(draw(st.integers(0, 50))),
                draw(st.sampled_from("ABC")),
                draw(st.sampled_from(["a", "b", "c", "d"])),
                str(lsf),
                str(draw(st.integers(lsf, n))),
            ]
        )
    frame = pd.DataFrame(rows, columns=["pid", "Age", "Town", "s", "lsf", "lsb"])
    m = draw(st.integers(2, 3))
    config = parse_config(
        {
            "n_releases": n,
            "m": m,
            "qi": {"Age": "num", "Town": "cat"},
            "sa": "s",
            "require_m_eligible": False,
            "sa_domain": ["a", "b", "c", "d"],
        }
    )
    return config, frame


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(masters())
def test_the_baseline_is_valid_and_m_invariant_on_generated_masters(case):
    config, frame = case
    lsf, lsb = frame["lsf"].astype(int), frame["lsb"].astype(int)
    for j in range(1, config.n_releases + 1):
        if not ((lsf <= j) & (j <= lsb)).any():
            return  # an empty T(j): not a valid master
    master = read_master(frame, config)
    files, releases = [], []
    for j in range(1, config.n_releases + 1):
        made = baseline_release(master.table(j), files[-1] if files else None, config, release=j)
        files.append(made)
        releases.append(
            read_release(
                made, release=j, master=master, previous=releases[-1] if releases else None
            )
        )
    checks = structure(releases)
    assert checks.minv >= config.m, checks.violation_texts()


def test_too_few_sensitive_values_is_a_clear_error():
    config = parse_config({"n_releases": 1, "m": 2, "qi": {"Age": "num"}, "sa": "s"})
    table = pd.DataFrame({"pid": ["a", "b"], "Age": ["1", "2"], "s": ["x", "x"]})
    with pytest.raises(Exception, match="fewer than 2 sensitive values"):
        baseline_release(table, None, config, release=1)


def test_padded_buckets_keep_a_real_tuple_in_every_group():
    # T(1) holds one value only (padded with counterfeits); at T(2) the new persons fall
    # into the same bucket, padded the other way: no group may end up all counterfeit
    rows = [["p0", "0", "a", "1", "2"]] + [[f"q{i}", "0", "a", "1", "1"] for i in range(8)]
    rows += [["n1", "0", "b", "2", "2"], ["n2", "0", "b", "2", "2"]]
    frame = pd.DataFrame(rows, columns=["pid", "Age", "s", "lsf", "lsb"])
    config = parse_config(
        {
            "n_releases": 2,
            "m": 2,
            "qi": {"Age": "num"},
            "sa": "s",
            "require_m_eligible": False,
            "sa_domain": ["a", "b"],
        }
    )
    master = read_master(frame, config)
    one = baseline_release(master.table(1), None, config, release=1)
    first = read_release(one, release=1, master=master)
    two = baseline_release(master.table(2), one, config, release=2)
    second = read_release(two, release=2, master=master, previous=first)
    assert (second.groups["real"] >= 1).all()
    assert structure([first, second]).minv >= 2
