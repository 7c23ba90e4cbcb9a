"""Spec §9 (NCP with categorical QIs, tampered hull, SUP) and §11 (gates and ranking keys)."""

import dataclasses

import pytest

from scoring.sequential import (
    evaluate_sequence,
    parse_config,
    passes_gates,
    ranking_key,
    read_master,
    read_release,
    safety_key,
)

MASTER = b"""pid,Town,Age,s,lsf,lsb
p1,A,10,x,1,2
p2,B,20,y,1,2
p3,C,30,x,1,1
p4,D,40,y,1,1
"""


def config(**options):
    return parse_config(
        {
            "n_releases": 2,
            "m": 2,
            "qi": {"Town": "cat", "Age": "num"},
            "sa": "s",
            "require_m_eligible": False,
            **options,
        }
    )


def test_categorical_ncp_and_the_tampered_hull():
    master = read_master(MASTER, config(allow_tampering=True, allow_suppression=True))
    release = read_release(
        b"gid,pid,Town,Age,s,tampered\n"
        b'1,p1,{A|B},"[10,20]",x,0\n1,p2,{A|B},"[10,20]",y,0\n'
        b'2,p3,{C|D},"[30,30]",x,0\n2,p4,{C|D},"[30,30]",y,1\n',
        release=1,
        master=master,
    )
    result = evaluate_sequence(master, [release]).summary
    # R_Age = 30, |D_Town| = 4. p1, p2: ((2-1)/3 + 10/30)/2 = 1/3; p3: (1/3 + 0)/2 = 1/6;
    # p4 is tampered: its true Age 40 widens the hull to [30,40]: (1/3 + 10/30)/2 = 1/3
    assert result["IL_per_release"][0] == pytest.approx((1 / 3 + 1 / 3 + 1 / 6 + 1 / 3) / 4)
    assert result["TMP"] == 1
    second = read_release(
        b"gid,pid,Town,Age,s,tampered\n1,p1,*,*,x,0\n1,p2,*,*,y,0\n",
        release=2,
        master=master,
        previous=release,
    )
    summary = evaluate_sequence(master, [release, second]).summary
    assert summary["IL_per_release"][1] == pytest.approx(1.0)  # '*' on every QI
    assert summary["SUP"] == 0
    master3 = read_master(
        MASTER.replace(b"p3,C,30,x,1,1", b"p3,C,30,x,1,2"), config(allow_suppression=True)
    )
    first = read_release(
        b'gid,pid,Town,Age,s\n1,p1,{A|B},"[10,20]",x\n1,p2,{A|B},"[10,20]",y\n'
        b'2,p3,{C|D},"[30,40]",x\n2,p4,{C|D},"[30,40]",y\n',
        release=1,
        master=master3,
    )
    second = read_release(
        b'gid,pid,Town,Age,s\n1,p1,{A|B},"[10,20]",x\n1,p2,{A|B},"[10,20]",y\n',
        release=2,
        master=master3,
        previous=first,
    )
    summary = evaluate_sequence(master3, [first, second]).summary
    assert summary["SUP"] == 1  # p3 absent from release 2
    assert summary["MINV"] == 2  # signatures compared where published only


SUMMARY = {
    "MINV": 2,
    "MU_min": 2,
    "RN_max": 0.6,
    "RN_mean": 0.4,
    "IL": 0.2,
    "MAP_N": 0.5,
    "MAP_A": 0.45,
    "CF_ratio": 0.1,
    "SUP": 0,
    "TMP": 0,
}


@pytest.mark.parametrize(
    ("require", "change", "passes"),
    [
        ("m-invariant", {}, True),
        ("m-invariant", {"MINV": 0}, False),
        ("m-unique", {"MINV": 0}, True),
        ("m-unique", {"MU_min": 1}, False),
        ("none", {"MINV": 0, "MU_min": 0}, True),
    ],
)
def test_the_require_gate(require, change, passes):
    assert passes_gates({**SUMMARY, **change}, config(require=require)) is passes


def test_utility_gates_and_completeness():
    gated = config(utility_gates={"IL": 0.3, "CF_ratio": 0.05})
    assert not passes_gates(SUMMARY, gated)  # CF_ratio 0.1 > 0.05
    assert passes_gates({**SUMMARY, "CF_ratio": 0.05}, gated)  # at the bound passes
    assert not passes_gates(SUMMARY, config(), complete=False)


def test_safety_and_ranking_keys():
    plain = config()
    assert safety_key(SUMMARY, plain) == (0.6, 0.4, 0.2)
    attack = dataclasses.replace(plain, attack_phase=True)
    assert safety_key(SUMMARY, attack) == (0.5, 0.4, 0.2)  # MAP_N
    assert safety_key(SUMMARY, attack, attack_best=0.9)[0] == 0.9
    rows = {
        "gated": ranking_key({**SUMMARY, "MINV": 0, "RN_max": 0.1}, plain),
        "incomplete": ranking_key({**SUMMARY, "RN_max": 0.1}, plain, complete=False),
        "safe": ranking_key({**SUMMARY, "RN_max": 0.5}, plain),
        "tie_better_mean": ranking_key({**SUMMARY, "RN_max": 0.6, "RN_mean": 0.3}, plain),
        "tie_worse_il": ranking_key({**SUMMARY, "RN_max": 0.6, "IL": 0.3}, plain),
        "base": ranking_key(SUMMARY, plain),
    }
    order = sorted(rows, key=rows.get)
    assert order[:4] == ["safe", "tie_better_mean", "base", "tie_worse_il"]
    assert set(order[4:]) == {"gated", "incomplete"}
