"""Spec §14: properties P1–P6 of the sequential round's risk, over generated sequences.

Sequences are generated as release files and read through :func:`read_release` (so
they are valid by construction and by check). A literal, exact (``Fraction``) reading
of spec §7–§8.1 — loops over persons, releases and groups — is the reference the fast
engine must match on every generated sequence, ``last`` and suppression included.
"""

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.sequential import parse_config, read_master, read_release, risk, structure

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DOMAIN = ["a", "b", "c", "d"]


@st.composite
def masters(draw, *, n_max=3):
    n = draw(st.integers(1, n_max))
    size = draw(st.integers(3, 12))
    rows = []
    for i in range(size):
        lsf = draw(st.integers(1, n))
        lsb = draw(st.integers(lsf, n))
        rows.append(
            {
                "pid": f"p{i}",
                "X": draw(st.integers(0, 6)),
                "Y": draw(st.integers(0, 3)),
                "s": draw(st.sampled_from(DOMAIN)),
                "lsf": lsf,
                "lsb": lsb,
            }
        )
    frame = pd.DataFrame(rows)
    for j in range(1, n + 1):  # no empty T(j)
        if not ((frame["lsf"] <= j) & (j <= frame["lsb"])).any():
            frame.loc[0, ["lsf", "lsb"]] = [
                min(frame.loc[0, "lsf"], j),
                max(frame.loc[0, "lsb"], j),
            ]
    return n, frame


def _box(members: pd.DataFrame, draw, widen: bool) -> tuple[str, str]:
    lo_x, hi_x = members["X"].min(), members["X"].max()
    lo_y, hi_y = members["Y"].min(), members["Y"].max()
    if widen:
        lo_x -= draw(st.integers(0, 2))
        hi_x += draw(st.integers(0, 2))
        hi_y += draw(st.integers(0, 1))
    return f"[{lo_x},{hi_x}]", f"[{lo_y},{hi_y}]"


def _truthful_last(groups_now: dict, previous: dict) -> dict:
    """``last`` per group, truthful by §8.1 (a) and (b)."""
    last = {}
    for gid, members in groups_now.items():
        before = {previous[p] for p in members if p in previous}
        last[gid] = before.pop() if len(before) == 1 else 0
    for h in set(last.values()) - {0}:  # (b): every continuing member of h under last = h
        for gid, members in groups_now.items():
            if any(previous.get(p) == h for p in members) and last[gid] != h:
                last = {g: (0 if v == h else v) for g, v in last.items()}
                break
    return last


@st.composite
def sequences(draw, *, invariant=False, options=("last", "suppression")):
    n, frame = draw(masters())
    m = 2
    last_on = "last" in options and draw(st.booleans())
    suppression = "suppression" in options and not invariant and draw(st.booleans())
    config = {
        "n_releases": n,
        "m": m,
        "qi": {"X": "num", "Y": "num"},
        "sa": "s",
        "require_m_eligible": False,
        "last_disclosure": last_on,
        "allow_suppression": suppression,
        "sa_domain": DOMAIN,
    }
    signature = {}
    if invariant:  # each person keeps one signature, containing its value, of size ≥ m
        for pid, value in zip(frame["pid"], frame["s"], strict=True):
            others = draw(
                st.lists(st.sampled_from(DOMAIN), min_size=m - 1, max_size=3, unique=True)
            )
            signature[pid] = tuple(
                sorted(
                    {value, *others}
                    if len({value, *others}) >= m
                    else {value, *[v for v in DOMAIN if v != value][: m - 1]}
                )
            )
    releases, previous = [], {}
    for j in range(1, n + 1):
        alive = frame.loc[(frame["lsf"] <= j) & (j <= frame["lsb"])]
        if suppression:
            keep = [draw(st.booleans()) or k == 0 for k in range(len(alive))]
            alive = alive.loc[keep]
        groups: dict[int, list] = {}
        counterfeit: dict[int, list] = {}
        if invariant:
            gid = 0
            for sig in sorted({signature[p] for p in alive["pid"]}):
                bucket = alive.loc[[signature[p] == sig for p in alive["pid"]]]
                by_value = {v: list(bucket.loc[bucket["s"] == v, "pid"]) for v in sig}
                height = max(len(v) for v in by_value.values())
                for i in range(height):
                    gid += 1
                    groups[gid] = [by_value[v][i] for v in sig if i < len(by_value[v])]
                    counterfeit[gid] = [v for v in sig if i >= len(by_value[v])]
                    if not groups[gid]:
                        del groups[gid], counterfeit[gid]
                        gid -= 1
        else:
            k = draw(st.integers(1, max(1, len(alive))))
            labels = [draw(st.integers(1, k)) for _ in range(len(alive))]
            for pid, label in zip(alive["pid"], labels, strict=True):
                groups.setdefault(label * 3, []).append(pid)  # gids need not be consecutive
            for gid in groups:
                counterfeit[gid] = draw(st.lists(st.sampled_from(DOMAIN), max_size=2))
        last = _truthful_last(groups, previous) if last_on and j >= 2 else {}
        rows = []
        indexed = frame.set_index("pid")
        for gid, members in groups.items():
            x, y = _box(indexed.loc[members].reset_index(), draw, draw(st.booleans()))
            extra = [str(last.get(gid) or "-")] if last_on and j >= 2 else []
            for pid in members:
                rows.append([str(gid), pid, x, y, indexed.loc[pid, "s"], *extra])
            for value in counterfeit[gid]:
                rows.append([str(gid), "", x, y, value, *extra])
        order = draw(st.permutations(range(len(rows))))
        columns = ["gid", "pid", "X", "Y", "s"] + (["last"] if last_on and j >= 2 else [])
        releases.append(pd.DataFrame([rows[i] for i in order], columns=columns))
        previous = {p: gid for gid, members in groups.items() for p in members}
    return config, frame.astype(str), releases


def build(config, frame, tables):
    master = read_master(frame, parse_config(config))
    releases = []
    for j, table in enumerate(tables, start=1):
        releases.append(
            read_release(
                table, release=j, master=master, previous=releases[-1] if releases else None
            )
        )
    return master, releases


# -- the literal reference (spec §7.1–§7.3, §8.1)
def reference(master, releases):
    config = master.config
    frame = master.frame
    out = {}
    for p in range(len(frame)):
        f, b = int(frame["lsf"][p]), int(frame["lsb"][p])
        if f > len(releases):
            continue
        x, y, truth = frame["X"][p], frame["Y"][p], frame["s"][p]
        chosen, previous_h = {}, None
        for j in range(f, min(b, len(releases)) + 1):
            groups = releases[j - 1].groups
            cover = [
                g
                for g in groups.index
                if groups.loc[g, "X.lo"] <= x <= groups.loc[g, "X.hi"]
                and groups.loc[g, "Y.lo"] <= y <= groups.loc[g, "Y.hi"]
            ]
            if config.last_disclosure and j >= 2 and previous_h:
                cover = [
                    g
                    for g in cover
                    if groups.loc[g, "last"] in previous_h or groups.loc[g, "last"] == 0
                ]
                successors = set(groups["last"])
                if all(h in successors for h in previous_h):
                    cover = [g for g in cover if groups.loc[g, "last"] != 0]
            previous_h = set(cover)
            if cover:
                chosen[j] = cover
        rows = {j: releases[j - 1].rows for j in chosen}

        def count(j, gs, v, rows=rows):
            r = rows[j]
            return int(((r["gid"].isin(gs)) & (r["sa"] == v)).sum())

        score_n = {}
        for v in master.sa_domain:
            score = 1
            for j, gs in chosen.items():
                score *= count(j, gs, v)
            score_n[v] = Fraction(score) if chosen else Fraction(0)
        sigs = None
        for j, gs in chosen.items():
            here = {releases[j - 1].groups.loc[g, "signature"] for g in gs}
            sigs = here if sigs is None else sigs & here
        if sigs:
            score_a = {}
            for v in master.sa_domain:
                total = 0
                for sig in sigs:
                    product = 1
                    for j, gs in chosen.items():
                        same = [g for g in gs if releases[j - 1].groups.loc[g, "signature"] == sig]
                        product *= count(j, same, v)
                    total += product
                score_a[v] = Fraction(total)
        else:
            score_a = score_n
        result = {}
        for name, score in (("N", score_n), ("A", score_a)):
            total = sum(score.values())
            result[name] = {v: (s / total if total else Fraction(0)) for v, s in score.items()}
        result["chosen"] = chosen
        out[frame["pid"][p]] = (truth, result)
    return out


def _per_person(result):
    return result.per_person.set_index("pid")


@SETTINGS
@given(sequences())
def test_engine_matches_the_literal_reference(case):
    master, releases = build(*case)
    fast = risk(master, releases)
    table = _per_person(fast)
    expected = reference(master, releases)
    assert set(table.index) == set(expected)
    for pid, (truth, posterior) in expected.items():
        for name in ("N", "A"):
            assert table.loc[pid, f"P_{name}_true"] == pytest.approx(
                float(posterior[name][truth]), abs=1e-9
            )
            got = fast.posterior(pid, name)
            for value, p in posterior[name].items():
                assert got.get(value, 0.0) == pytest.approx(float(p), abs=1e-9)
            best = max(posterior[name].values())
            if best > 0:
                winners = [v for v, p in posterior[name].items() if p == best]
                share = (truth in winners) / len(winners)
            else:
                share = 0.0
            assert table.loc[pid, f"MAP_{name}"] == pytest.approx(share, abs=1e-9)


@SETTINGS
@given(sequences(options=()))
def test_p1_single_release(case):
    config, frame, tables = case
    config = {**config, "n_releases": 1}
    frame = frame.loc[frame["lsf"] == "1"].assign(lsb="1")
    master, releases = build(config, frame, tables[:1])
    table = _per_person(risk(master, releases))
    rows = releases[0].rows
    for p, pid in enumerate(master.frame["pid"]):
        x, y = master.frame["X"][p], master.frame["Y"][p]
        g = releases[0].groups
        cover = g.index[(g["X.lo"] <= x) & (x <= g["X.hi"]) & (g["Y.lo"] <= y) & (y <= g["Y.hi"])]
        in_cover = rows["gid"].isin(cover)
        expected = (in_cover & (rows["sa"] == master.frame["s"][p])).sum() / in_cover.sum()
        assert table.loc[pid, "P_N_true"] == pytest.approx(expected, abs=1e-12)
        assert table.loc[pid, "P_A_true"] == pytest.approx(expected, abs=1e-12)
        if len(cover) == 1 and not g.loc[cover[0], "repeats"]:
            assert expected <= 1 / g.loc[cover[0], "size"] + 1e-12


@SETTINGS
@given(sequences(invariant=True))
def test_p2_p3_p6_invariant_sequences(case):
    master, releases = build(*case)
    checks = structure(releases)
    assert checks.minv >= 2  # the construction is 2-invariant
    result = risk(master, releases)
    table = _per_person(result)
    m = master.config.m
    assert (table["P_A_true"] <= 1 / m + 1e-9).all()  # P2
    assert (table["P_N_true"] > 0).all() and (table["P_A_true"] > 0).all()  # P6
    expected = reference(master, releases)
    for pid, (_truth, posterior) in expected.items():  # P3, on the persons it speaks of
        own = {}
        disjoint = True
        for j, gs in posterior["chosen"].items():
            r = releases[j - 1]
            own[j] = int(r.rows.loc[r.rows["pid"] == pid, "gid"].iloc[0])
            mine = set(r.groups.loc[own[j], "signature"].split("|"))
            for g in gs:
                if g != own[j] and mine & set(r.groups.loc[g, "signature"].split("|")):
                    disjoint = False
        if disjoint:
            assert table.loc[pid, "P_N_true"] <= 1 / m + 1e-9
        if all(gs == [own[j]] for j, gs in posterior["chosen"].items()):
            first = min(own)
            size = len(releases[first - 1].groups.loc[own[first], "signature"].split("|"))
            assert table.loc[pid, "P_N_true"] == pytest.approx(1 / size, abs=1e-12)
            assert table.loc[pid, "P_A_true"] == pytest.approx(1 / size, abs=1e-12)


@SETTINGS
@given(sequences())
def test_p4_intersection_and_p6_normalisation(case):
    master, releases = build(*case)
    result = risk(master, releases)
    table = _per_person(result)
    for pid, (truth, posterior) in reference(master, releases).items():
        if not posterior["chosen"]:
            assert table.loc[pid, "P_N_true"] == 0 and table.loc[pid, "P_A_true"] == 0
            continue
        for name in ("N", "A"):  # P6
            total = sum(result.posterior(pid, name).values())
            if any(posterior[name].values()):
                assert total == pytest.approx(1.0, abs=1e-12)
            else:  # §7.4: all scores 0 despite L(p) ≠ ∅ — only with suppression
                assert master.config.allow_suppression
                assert total == 0 and table.loc[pid, f"P_{name}_true"] == 0
        possible = None
        for j, gs in posterior["chosen"].items():
            r = releases[j - 1].rows
            here = set(r.loc[r["gid"].isin(gs), "sa"])
            possible = here if possible is None else possible & here
        if possible == {truth}:  # P4
            assert table.loc[pid, "P_N_true"] == pytest.approx(1.0, abs=1e-12)
        if not master.config.allow_suppression:
            assert table.loc[pid, "P_N_true"] > 0


def _transformed(case, draw_seed, how):
    config, frame, tables = case
    rng = np.random.default_rng(draw_seed)
    tables = [t.copy() for t in tables]
    if how == "renumber":
        mapping: dict = {}
        for t in tables:
            ids = sorted(set(t["gid"]), key=int)
            new = dict(zip(ids, map(str, rng.permutation(len(ids)) + 100), strict=True))
            t["gid"] = t["gid"].map(new)
            if "last" in t:
                t["last"] = t["last"].map(lambda v, before=mapping: before.get(v, v))
            mapping = new
    elif how == "permute":
        tables = [t.iloc[rng.permutation(len(t))].reset_index(drop=True) for t in tables]
    elif how == "rename":
        bijection = dict(zip(DOMAIN, ["w", "x", "y", "z"], strict=True))
        frame = frame.assign(s=frame["s"].map(bijection))
        for t in tables:
            t["s"] = t["s"].map(bijection)
        config = {**config, "sa_domain": ["w", "x", "y", "z"]}
    return config, frame, tables


@SETTINGS
@given(sequences(), st.integers(0, 2**32 - 1), st.sampled_from(["renumber", "permute", "rename"]))
def test_p5_invariances(case, seed, how):
    master, releases = build(*case)
    before = risk(master, releases)
    before_structure = structure(releases)
    master2, releases2 = build(*_transformed(case, seed, how))
    after = risk(master2, releases2)
    after_structure = structure(releases2)
    assert before_structure.mu == after_structure.mu
    assert before_structure.minv == after_structure.minv
    columns = ["P_N_true", "P_A_true", "MAP_N", "MAP_A", "groups_per_release"]
    pd.testing.assert_frame_equal(before.per_person[columns], after.per_person[columns])


@SETTINGS
@given(sequences(options=()), st.integers(0, 2**32 - 1))
def test_p5_widening_a_region_without_covering_a_new_person(case, seed):
    config, frame, tables = case
    master, releases = build(config, frame, tables)
    rng = np.random.default_rng(seed)
    j = int(rng.integers(len(tables)))
    table = tables[j].copy()
    gid = table["gid"].iloc[int(rng.integers(len(table)))]
    x = table.loc[table["gid"] == gid, "X"].iloc[0]
    lo, hi = map(int, x.strip("[]").split(","))
    everyone = master.frame  # the adversary searches every person alive at j
    alive = everyone.loc[master.alive(j + 1)]
    y = table.loc[table["gid"] == gid, "Y"].iloc[0]
    ylo, yhi = map(int, y.strip("[]").split(","))
    in_y = alive.loc[(alive["Y"] >= ylo) & (alive["Y"] <= yhi), "X"]
    new_hi = min([v for v in in_y if v > hi], default=hi + 3) - 1
    if new_hi <= hi:
        return  # nothing to widen into without covering someone
    table.loc[table["gid"] == gid, "X"] = f"[{lo},{new_hi}]"
    widened = [*tables[:j], table, *tables[j + 1 :]]
    master2, releases2 = build(config, frame, widened)
    assert releases2[j].groups.loc[int(gid), "X.hi"] > releases[j].groups.loc[int(gid), "X.hi"]
    columns = ["P_N_true", "P_A_true", "MAP_N", "MAP_A", "groups_per_release"]
    pd.testing.assert_frame_equal(
        risk(master, releases).per_person[columns], risk(master2, releases2).per_person[columns]
    )
    assert structure(releases).minv == structure(releases2).minv


@pytest.mark.parametrize("seed", range(6))
def test_cover_pairs_with_categorical_qis_match_brute_force(seed):
    from scoring.sequential.cover import cover_pairs

    rng = np.random.default_rng(seed)
    towns = ["A", "B", "C", "D", "E"]
    size = 40
    frame = pd.DataFrame(
        {
            "pid": [f"p{i}" for i in range(size)],
            "Town": rng.choice(towns, size),
            "Age": rng.integers(0, 9, size).astype(str),
            "s": rng.choice(DOMAIN, size),
            "lsf": "1",
            "lsb": "1",
        }
    )
    qi = {"Town": "cat", "Age": "num"} if seed % 2 else {"Town": "cat"}
    config = parse_config(
        {"n_releases": 1, "m": 2, "qi": qi, "sa": "s", "require_m_eligible": False}
    )
    master = read_master(frame[["pid", *qi, "s", "lsf", "lsb"]], config)
    labels = rng.integers(1, 8, size)
    rows = []
    for gid in np.unique(labels):
        members = frame.loc[labels == gid]
        extra = list(rng.choice(towns, int(rng.integers(0, 3))))
        town = "{" + "|".join(sorted(set(members["Town"]) | set(extra))) + "}"
        ages = members["Age"].astype(int)
        cells = {"Town": town, "Age": f"[{ages.min()},{ages.max() + int(rng.integers(0, 3))}]"}
        for pid, value in zip(members["pid"], members["s"], strict=True):
            rows.append([str(gid), pid, *(cells[c] for c in qi), value])
    table = pd.DataFrame(rows, columns=["gid", "pid", *qi, "s"])
    release = read_release(table, release=1, master=master)
    person, gpos = cover_pairs(master, release, np.arange(size))
    got = set(zip(person.tolist(), gpos.tolist(), strict=True))
    groups = release.groups
    expected = set()
    for p in range(size):
        for k, (_, group) in enumerate(groups.iterrows()):
            inside = master.frame["Town"][p] in group["Town.set"].split("|")
            if "Age" in qi:
                inside &= group["Age.lo"] <= master.frame["Age"][p] <= group["Age.hi"]
            if inside:
                expected.add((p, k))
    assert got == expected
