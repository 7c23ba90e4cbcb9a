"""Spec §10 (published target files, guesses) and §3 (per-team masters from a pool)."""

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scoring.errors import ValidationError
from scoring.sequential import (
    draw_team_masters,
    parse_config,
    publish_for_attack,
    read_master,
    read_sequence,
    risk,
)

F = Path(__file__).resolve().parents[2] / "fixtures" / "sequential"


def load(config, *releases, master="small_master.csv"):
    config = parse_config(json.loads((F / config).read_text()))
    return read_sequence(F / master, [F / r for r in releases], config)


def test_published_releases_have_no_pid_and_renumbered_sorted_groups():
    master, releases = load(
        "zhang_config.json",
        "zhang_release_1.csv",
        "zhang_release_2_table9.csv",
        master="zhang_master.csv",
    )
    published = publish_for_attack(master, releases, seed=3)
    second = published.releases[1]
    assert list(second.columns) == ["gid", "Age", "Zip", "Disease"]
    # 表 9's groups in ascending order of their regions: [20,21], [23,41], [25,43], [45,46],
    # [54,65], [60,65] (Age first)
    firsts = second.drop_duplicates("gid")["Age"].tolist()
    assert firsts == ["[20,21]", "[23,41]", "[25,43]", "[45,46]", "[54,65]", "[60,65]"]
    assert second["gid"].tolist() == sorted(second["gid"].tolist())
    for _, group in second.groupby("gid"):
        assert group["Disease"].tolist() == sorted(group["Disease"])
    assert published.counterfeits.values.tolist() == [[1, 0], [2, 2]]
    assert list(published.background.columns) == ["pid", "Age", "Zip", "lsf", "lsb"]
    assert len(published.background) == 16
    assert "Disease" not in published.background


def test_the_background_writes_the_masters_numbers_as_the_release_cells_do():
    """Whole numbers as the master file holds them (``72``, not ``72.0``), as in the
    release cells' ``[lo,hi]``."""
    master, releases = load(
        "zhang_config.json",
        "zhang_release_1.csv",
        "zhang_release_2_table9.csv",
        master="zhang_master.csv",
    )
    text = publish_for_attack(master, releases, seed=3).files()["background.csv"]
    written = pd.read_csv(io.StringIO(text), dtype=str).set_index("pid")
    held = pd.read_csv(F / "zhang_master.csv", dtype=str).set_index("pid")
    assert not written.empty and ".0" not in text
    columns = ["Age", "Zip", "lsf", "lsb"]
    pd.testing.assert_frame_equal(written[columns], held.loc[written.index, columns])


def test_equal_rows_are_shuffled_by_the_seed_but_the_multiset_is_kept():
    master, releases = load("small_config.json", "small_release_1.csv", "small_release_2.csv")
    a = publish_for_attack(master, releases, seed=1).releases
    b = publish_for_attack(master, releases, seed=2).releases
    for x, y in zip(a, b, strict=True):
        pd.testing.assert_frame_equal(
            x.sort_values(list(x.columns)).reset_index(drop=True),
            y.sort_values(list(y.columns)).reset_index(drop=True),
        )


def test_last_is_mapped_to_the_new_ids_and_the_published_files_give_the_same_risk():
    master, releases = load(
        "small_config_last.json", "small_release_1.csv", "small_release_2_last.csv"
    )
    published = publish_for_attack(master, releases, seed=5)
    assert published.releases[1].drop_duplicates("gid")["last"].tolist() == ["1", "-"]
    # an attacker re-reading the published files (as counterfeit-only rows plus the
    # background) gets the same groups: check the regions are unchanged
    assert published.releases[1].drop_duplicates("gid")["Age"].tolist() == ["[21,22]", "[21,23]"]
    assert risk(master, releases).summary["RN_max"] == pytest.approx(0.5)


def test_per_group_and_no_counterfeit_disclosure():
    base = json.loads((F / "small_config.json").read_text())
    for disclosure, column, files in (("per-group", True, False), ("none", False, False)):
        config = parse_config({**base, "counterfeit_disclosure": disclosure})
        master, releases = read_sequence(
            F / "small_master.csv", [F / "small_release_1.csv", F / "small_release_2.csv"], config
        )
        published = publish_for_attack(master, releases, seed=0)
        assert ("n_counterfeit" in published.releases[1]) is column
        assert (published.counterfeits is not None) is files
    published_group = publish_for_attack(
        *read_sequence(
            F / "small_master.csv",
            [F / "small_release_1.csv", F / "small_release_2.csv"],
            parse_config({**base, "counterfeit_disclosure": "per-group"}),
        ),
        seed=0,
    )
    assert published_group.releases[1].groupby("gid")["n_counterfeit"].first().tolist() == [1, 0]


def test_tampering_is_published_as_a_group_flag():
    master, releases = load(
        "small_config_tampering.json", "small_release_1.csv", "small_release_2_tampered.csv"
    )
    second = publish_for_attack(master, releases, seed=0).releases[1]
    flags = second.groupby("Zip")["tampered"].first().to_dict()
    assert flags == {"[10000,12000]": 0, "[14000,25000]": 1}


def pool(size, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "pid": [f"x{i}" for i in range(size)],
            "Age": rng.integers(20, 70, size).astype(str),
            "Zip": rng.integers(10000, 20000, size).astype(str),
            "Disease": rng.choice(["a", "b", "c", "d"], size),
        }
    )


def test_team_masters_are_disjoint_reproducible_and_valid():
    config = parse_config(
        {"n_releases": 3, "m": 2, "qi": {"Age": "num", "Zip": "num"}, "sa": "Disease"}
    )
    masters = draw_team_masters(pool(300), ["A", "B"], config, size=40, turnover=0.2, seed=7)
    again = draw_team_masters(pool(300), ["A", "B"], config, size=40, turnover=0.2, seed=7)
    assert set(masters["A"]["pid"]).isdisjoint(masters["B"]["pid"])
    for team, frame in masters.items():
        pd.testing.assert_frame_equal(frame, again[team])
        master = read_master(frame, config)
        assert master.sizes() == [40, 40, 40]
        assert (master.lsb >= master.lsf).all()
        # nobody comes back: one row per person, with one lifespan
        assert frame["pid"].is_unique


def test_a_pool_too_small_is_a_clear_error():
    config = parse_config(
        {"n_releases": 3, "m": 2, "qi": {"Age": "num", "Zip": "num"}, "sa": "Disease"}
    )
    with pytest.raises(ValidationError, match="The pool is too small"):
        draw_team_masters(pool(50), ["A", "B"], config, size=40, turnover=0.5, seed=1)
