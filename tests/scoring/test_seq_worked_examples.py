"""Spec ``sequential-round.md`` §13: worked examples W1–W7, exactly (rational, to 1e-9).

The tables are Z's (seed 001) as corrected by spec §15, in ``fixtures/sequential/``.
"""

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from scoring.errors import ValidationError
from scoring.sequential import (
    evaluate_sequence,
    largest_eligible_m,
    parse_config,
    read_guesses,
    read_master,
    read_sequence,
    risk,
    score_guesses,
)

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sequential"


def load(master, config, *releases):
    config = parse_config(json.loads((FIXTURES / config).read_text()))
    return read_sequence(FIXTURES / master, [FIXTURES / r for r in releases], config)


def W1():
    return load(
        "zhang_master.csv", "zhang_config.json", "zhang_release_1.csv", "zhang_release_2_table9.csv"
    )


def W2():
    return load(
        "zhang_master.csv", "zhang_config.json", "zhang_release_1.csv", "zhang_release_2_table4.csv"
    )


def W3():
    return load(
        "small_master.csv", "small_config.json", "small_release_1.csv", "small_release_2.csv"
    )


def W4():
    return load(
        "small_master.csv",
        "small_config_last.json",
        "small_release_1.csv",
        "small_release_2_last.csv",
    )


def W5():
    return load(
        "small_master.csv",
        "small_config_tampering.json",
        "small_release_1.csv",
        "small_release_2_tampered.csv",
    )


def W7():
    return load("w7_master.csv", "w7_config.json", "w7_release_1.csv", "w7_release_2.csv")


def close(value, exact):
    assert value == pytest.approx(float(exact), rel=1e-9, abs=1e-12), (value, exact)


def risks(result, column):
    frame = result.per_person.set_index("pid")[column]
    return {pid: frame[pid] for pid in frame.index}


def test_w0_eligibility_of_the_paper_tables():
    master, _ = W1()
    t1 = master.table(1)["Disease"].value_counts().to_dict()
    t2 = master.table(2)["Disease"].value_counts().to_dict()
    assert t1 == {"gastritis": 4, "dyspepsia": 3, "flu": 3, "bronchitis": 1}
    assert t2 == {"gastritis": 5, "dyspepsia": 3, "flu": 3}
    assert largest_eligible_m(master.table(1)["Disease"]) == 2
    assert largest_eligible_m(master.table(2)["Disease"]) == 2
    new = master.frame.loc[master.alive(2) & ~master.alive(1)]
    kept = master.frame.loc[master.alive(2) & master.alive(1)]
    assert sorted(kept["pid"]) == ["Bob", "David", "Gary", "Jane", "Linda", "Steve"]  # S_2n
    assert sorted(new["pid"]) == ["Emily", "Mary", "Ray", "Tom", "Vince"]  # S_2
    assert largest_eligible_m(new["Disease"]) == 2  # "割合が 2/5 で 2-エリジブル"


def test_w1_table3_and_table9_are_2_invariant():
    master, releases = W1()
    result = evaluate_sequence(master, releases)
    s = result.summary
    assert s["MU"] == [2, 2] and s["MINV"] == 2 and s["violations"] == []
    expected = {
        **dict.fromkeys(["Bob", "David", "Gary", "Steve"], F(1, 2)),
        **dict.fromkeys(["Jane", "Linda"], F(1, 3)),
        **dict.fromkeys(["Alice", "Andy", "Helen", "Paul"], F(1, 2)),
        "Ken": F(1, 3),
        "Emily": F(2, 5),
        **dict.fromkeys(["Mary", "Ray", "Tom", "Vince"], F(1, 2)),
    }
    for column in ("P_N_true", "P_A_true"):
        got = risks(result, column)
        assert set(got) == set(expected)
        for pid, value in expected.items():
            close(got[pid], value)
    emily = result.risk.posterior("Emily", "N")
    for value, p in {"flu": F(2, 5), "gastritis": F(2, 5), "dyspepsia": F(1, 5)}.items():
        close(emily[value], p)
    close(s["RN_max"], F(1, 2))
    close(s["RA_max"], F(1, 2))
    close(s["RN_mean"], F(37, 80))
    close(s["RA_mean"], F(37, 80))
    assert s["RN_over"] == 0
    close(s["MAP_N"], F(15, 32))
    close(s["MAP_A"], F(15, 32))
    assert s["IL_per_release"][0] == pytest.approx(0.127970, abs=5e-7)
    assert s["IL_per_release"][1] == pytest.approx(0.227531, abs=5e-7)
    assert s["IL"] == pytest.approx(0.177751, abs=5e-7)
    assert s["CF"] == 2
    close(s["CF_ratio"], F(1, 11))


def test_w1_hand_check_of_il1():
    master, releases = W1()
    hand = (
        2 * (F(1, 44) + F(2, 32)) / 2
        + 2 * (F(1, 44) + F(7, 32)) / 2
        + 2 * (F(5, 44) + F(7, 32)) / 2
        + 3 * (F(6, 44) + F(9, 32)) / 2
        + 2 * (F(4, 44) + F(1, 32)) / 2
    ) / 11
    close(evaluate_sequence(master, releases[:1]).summary["IL"], hand)


def test_w1b_table9_as_printed_is_rejected():
    with pytest.raises(ValidationError) as error:
        load(
            "zhang_master.csv",
            "zhang_config.json",
            "zhang_release_1.csv",
            "zhang_release_2_table9_as_printed.csv",
        )
    assert str(error.value) == (
        "release 2, row 1: pid 'Bob' must carry its true Disease 'dyspepsia', got 'gastritis' "
        "(Def. 2(2))"
    )


def test_w2_the_intersection_attack():
    master, releases = W2()
    result = evaluate_sequence(master, releases)
    s = result.summary
    assert s["MU"] == [2, 2] and s["MINV"] == 0
    assert s["violations"] == [
        "person 'Bob': signature {bronchitis, dyspepsia} at release 1 but "
        "{dyspepsia, gastritis} at release 2",
        "person 'David': signature {flu, gastritis} at release 1 but "
        "{dyspepsia, gastritis} at release 2",
    ]
    rn, ra = risks(result, "P_N_true"), risks(result, "P_A_true")
    close(rn["Bob"], 1)
    close(rn["David"], 1)
    close(rn["Linda"], F(2, 5))
    close(ra["Linda"], F(1, 3))
    close(rn["Emily"], F(1, 3))
    close(ra["Emily"], F(1, 3))
    close(s["RN_max"], 1)
    close(s["RA_max"], 1)
    close(s["RN_mean"], F(21, 40))
    close(s["RA_mean"], F(25, 48))
    assert s["RN_over"] == 2
    close(s["MAP_N"], F(17, 32))
    close(s["MAP_A"], F(25, 48))
    assert s["IL_per_release"][1] == pytest.approx(0.232438, abs=5e-7)
    assert s["IL"] == pytest.approx(0.180204, abs=5e-7)


def test_w3_the_headline_bob_at_two_thirds():
    master, releases = W3()
    result = evaluate_sequence(master, releases)
    s = result.summary
    assert s["MINV"] == 2
    rn, ra = risks(result, "P_N_true"), risks(result, "P_A_true")
    close(rn["Bob"], F(2, 3))
    close(ra["Bob"], F(1, 2))
    for pid in ("Alice", "Andy", "David", "Emily"):
        close(rn[pid], F(1, 2))
        close(ra[pid], F(1, 2))
    bob = result.risk.posterior("Bob", "N")
    assert set(bob) == {"dyspepsia", "bronchitis"}
    close(bob["dyspepsia"], F(2, 3))
    close(bob["bronchitis"], F(1, 3))
    emily = result.risk.posterior("Emily", "N")
    close(emily["dyspepsia"], F(1, 2))
    close(emily["bronchitis"], F(1, 4))
    close(emily["gastritis"], F(1, 4))
    close(s["RN_max"], F(2, 3))
    close(s["RN_mean"], F(8, 15))
    close(s["RA_max"], F(1, 2))
    close(s["RA_mean"], F(1, 2))
    assert s["RN_over"] == 1
    close(s["MAP_N"], F(7, 10))
    close(s["MAP_A"], F(3, 5))
    assert s["IL_per_release"] == pytest.approx([0.339744, 0.636752], abs=5e-7)
    assert s["IL"] == pytest.approx(0.467033, abs=5e-7)
    assert s["CF"] == 1
    close(s["CF_ratio"], F(1, 7))


def test_w4_last_disclosure_brings_bob_back_to_one_half():
    master, releases = W4()
    result = evaluate_sequence(master, releases)
    s = result.summary
    for column in ("P_N_true", "P_A_true"):
        for value in risks(result, column).values():
            close(value, F(1, 2))
    assert s["RN_over"] == 0
    close(s["MAP_N"], F(3, 5))
    close(s["MAP_A"], F(3, 5))
    # Bob's candidates at release 2: the successor of group 1 only
    assert result.per_person.set_index("pid").loc["Bob", "groups_per_release"] == "1;1"


def test_w5_tampering_at_face_value():
    master, releases = W5()
    result = evaluate_sequence(master, releases)
    s = result.summary
    for column in ("P_N_true", "P_A_true"):
        for value in risks(result, column).values():
            close(value, F(1, 2))
    emily = result.risk.posterior("Emily", "N")
    assert set(emily) == {"bronchitis", "dyspepsia"}
    close(emily["bronchitis"], F(1, 2))
    close(s["MAP_N"], F(1, 2))
    close(s["MAP_A"], F(1, 2))
    assert s["IL_per_release"][1] == pytest.approx(0.611111, abs=5e-7)
    assert s["IL"] == pytest.approx(0.456044, abs=5e-7)
    assert s["TMP"] == 1


def test_w5_limitation_reading_the_flagged_group_as_covering_everyone():
    master, releases = W5()
    widened = releases[1].groups.copy()
    widened.loc[widened["tampered"], ["Zip.lo"]] = 12000.0  # the flag read as "covers all"
    from scoring.sequential.release import Release

    as_read = Release(2, releases[1].rows, widened)
    close(risk(master, [releases[0], as_read]).posterior("Bob", "N")["dyspepsia"], F(2, 3))


def test_w5_table16_in_a_round_without_tampering_is_rejected():
    with pytest.raises(ValidationError) as error:
        load(
            "small_master.csv",
            "small_config.json",
            "small_release_1.csv",
            "small_release_2_tampered.csv",
        )
    assert str(error.value) == "release 2: column 'tampered' is not allowed in this round"


def test_w6_attack_scoring_on_w3():
    master, _ = W3()
    guesses = read_guesses(
        b"pid,guess\nBob,dyspepsia\nAlice,dyspepsia\nAndy,dyspepsia\nDavid,\nEmily,dyspepsia\n",
        master=master,
    )
    close(score_guesses(guesses, master), F(3, 5))
    missing_david = read_guesses(b"pid,guess\nBob,dyspepsia\n", master=master)
    close(score_guesses(missing_david, master), F(1, 5))
    cases = {
        b"pid,guess\nZoe,flu\n": "line 2: pid 'Zoe' is not a target of this sequence",
        b"pid,guess\nBob,flu\nBob,dyspepsia\n": "line 3: pid 'Bob' is guessed twice "
        "(first at line 2)",
        b"pid,guess\nBob,cold\n": "line 2: guess 'cold' for pid 'Bob' is not a sensitive "
        "value of this round",
    }
    for body, message in cases.items():
        with pytest.raises(ValidationError) as error:
            read_guesses(body, master=master)
        assert str(error.value) == message


def test_w7_product_rule_not_last_release_counting():
    master, releases = W7()
    result = evaluate_sequence(master, releases)
    assert result.summary["MINV"] == 2
    rn, ra = risks(result, "P_N_true"), risks(result, "P_A_true")
    close(rn["P"], F(2, 5))
    close(ra["P"], F(1, 2))
    assert abs(rn["P"] - 0.25) > 0.1  # counting the last release only would give 1/4
    assert result.per_person.set_index("pid").loc["P", "groups_per_release"] == "2;2"


def test_the_paper_small_master_is_not_2_eligible_at_t2():
    config = parse_config(json.loads((FIXTURES / "zhang_config.json").read_text()))
    with pytest.raises(ValidationError) as error:
        read_master(FIXTURES / "small_master.csv", config)
    assert str(error.value) == (
        "T(2) is not 2-eligible: 'dyspepsia' holds 2 of 3 tuples (at most 1 allowed)"
    )


def _matchings(persons, rows, value_of, covers):
    """Injective placements of ``persons`` on ``rows`` (row value = person's value, covering)."""
    if not persons:
        return 1
    first, rest = persons[0], persons[1:]
    total = 0
    for k, (gid, value) in enumerate(rows):
        if value == value_of[first] and gid in covers[first]:
            total += _matchings(rest, rows[:k] + rows[k + 1 :], value_of, covers)
    return total


def possible_worlds_posterior(master, releases, pid):
    """Exact joint reasoning of spec §7.6 (exponential; for the paper's five persons only)."""
    import itertools

    frame = master.frame
    domain = master.sa_domain
    people = list(frame["pid"])
    weights = dict.fromkeys(domain, 0)
    for values in itertools.product(domain, repeat=len(people)):
        value_of = dict(zip(people, values, strict=True))
        worlds = 1
        for release in releases:
            alive = [p for k, p in enumerate(people) if master.alive(release.index)[k]]
            groups = release.groups
            covers = {}
            for p in alive:
                row = frame.loc[frame["pid"] == p].iloc[0]
                covers[p] = {
                    g
                    for g in groups.index
                    if groups.loc[g, "Age.lo"] <= row["Age"] <= groups.loc[g, "Age.hi"]
                    and groups.loc[g, "Zip.lo"] <= row["Zip"] <= groups.loc[g, "Zip.hi"]
                }
            rows = list(zip(release.rows["gid"], release.rows["sa"], strict=True))
            worlds *= _matchings(alive, rows, value_of, covers)
            if not worlds:
                break
        weights[value_of[pid]] += worlds
    total = sum(weights.values())
    return {v: F(w, total) for v, w in weights.items() if w}


def test_section_7_6_possible_worlds_give_bob_three_fifths_not_two_thirds():
    master, releases = W3()
    assert possible_worlds_posterior(master, releases, "Bob") == {
        "dyspepsia": F(3, 5),
        "bronchitis": F(2, 5),
    }
