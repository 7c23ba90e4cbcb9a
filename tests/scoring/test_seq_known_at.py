"""Releases 1 … n are read and scored against the master as known at release n
(``Master.known_at``): the whole master and a team's ``master.csv`` so far (online mode:
the persons of U(n), lifespans cut at n) give the same numbers, and nothing of a later
release moves them."""

import json

import pandas as pd
import pytest

from scoring.errors import ValidationError
from scoring.sequential import evaluate_sequence, read_master, read_sequence, risk_per_person_csv
from scoring.sequential.config import parse_config
from tests.scoring.test_seq_cli import F

CONFIG = json.loads((F / "zhang_config.json").read_text())
MASTER = (F / "zhang_master.csv").read_bytes()
TABLE3 = F / "zhang_release_1.csv"


def so_far(upto: int) -> bytes:
    """What a team downloads as master.csv in online mode while release ``upto`` is open."""
    frame = pd.read_csv(F / "zhang_master.csv", dtype=str)
    frame = frame[frame["lsf"].astype(int) <= upto].copy()
    frame["lsb"] = frame["lsb"].astype(int).clip(upper=upto).astype(str)
    return frame.to_csv(index=False).encode()


def scored(master, releases) -> tuple:
    result = evaluate_sequence(*read_sequence(master, releases, CONFIG))
    return result.summary, risk_per_person_csv(result)


def test_the_master_so_far_reads_with_the_round_config_and_scores_as_the_whole_master():
    whole = scored(MASTER, [TABLE3])
    assert scored(so_far(1), [TABLE3]) == whole
    summary, per_person = whole
    # Ranges over U(1): Age 21..56 and Zip 12000..35000, not the master's 21..65, 12000..44000.
    assert summary["IL"] != 0.127970 and abs(summary["IL"] - 0.1725014) < 1e-6
    assert ",1,2," not in per_person  # Bob's lsb 2 is release 2's news


def test_known_at_keeps_u_n_cuts_lsb_and_narrows_ranges_and_domains():
    config = parse_config(
        {**CONFIG, "sa_domain": ["bronchitis", "dyspepsia", "flu", "gastritis", "x"]}
    )
    master = read_master(MASTER, config)
    known = master.known_at(1)
    assert known.frame["pid"].tolist() == master.frame["pid"].tolist()[:11]
    assert set(known.lsb) == {1} and known.ranges == {
        "Age": (21.0, 56.0),
        "Zip": (12000.0, 35000.0),
    }
    assert known.sa_domain == master.sa_domain  # the configured domain stays
    whole = master.known_at(2)
    assert whole.frame.equals(master.frame) and whole.ranges == master.ranges


def test_read_master_upto_checks_only_the_releases_given():
    config = parse_config(CONFIG)
    master = read_master(so_far(1), config, upto=1)
    assert len(master.frame) == 11
    with pytest.raises(ValidationError, match=r"T\(2\) is empty"):
        read_master(so_far(1), config)  # the whole round's check (a master upload)
