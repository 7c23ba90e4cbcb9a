"""What the library writes and reads back for the platform and the command line alike: the
master and ``T(j)`` as a team downloads them (``Master.as_written``), a master's timeline,
where a configuration error lies (``config_error_place``), the gates a sequence fails, a
target's published files, and a stored per-person table read as known at a release."""

import io
import json

import pandas as pd
import pytest

from scoring.errors import ConfigError, ValidationError
from scoring.sequential import (
    config_error_place,
    evaluate_sequence,
    gate_failures,
    groups_per_release,
    parse_config,
    per_person_known_at,
    publish_for_attack,
    read_master,
    read_sequence,
    risk_per_person_csv,
)
from scoring.sequential.cli import baseline_of
from scoring.tables import write_csv
from tests.scoring.test_seq_cli import F

CONFIG = json.loads((F / "zhang_config.json").read_text())
MASTER = (F / "zhang_master.csv").read_bytes()
RELEASES = [F / "zhang_release_1.csv", F / "zhang_release_2_table9.csv"]


def written(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    write_csv(frame, buffer)
    return buffer.getvalue()


def test_the_master_as_written_reads_back_as_the_same_master():
    master = read_master(MASTER, parse_config(CONFIG))
    again = read_master(written(master.as_written()), parse_config(CONFIG))
    assert again.frame.equals(master.frame)
    assert b".0," not in written(master.as_written())  # whole numbers stay whole


def test_a_whole_number_beside_decimals_is_written_as_an_integer():
    """A numeric column mixing whole numbers and decimals: ``72`` is written ``72`` (as the
    attack's background writes it), not ``72.0``, in ``master.csv``, the master so far and
    ``T(j)``, and the file reads back as the same master."""
    config = parse_config({"n_releases": 2, "m": 2, "qi": {"Age": "num"}, "sa": "D"})
    data = b"pid,Age,D,lsf,lsb\nA,72,x,1,2\nB,72.5,y,1,1\nC,-3,y,2,2\n"
    master = read_master(data, config)
    assert written(master.as_written()) == data
    assert (
        written(master.known_at(1).as_written()) == b"pid,Age,D,lsf,lsb\nA,72,x,1,1\nB,72.5,y,1,1\n"
    )
    assert written(master.as_written(master.table(2))) == b"pid,Age,D,lsf\nA,72,x,1\nC,-3,y,2\n"
    assert read_master(written(master.as_written()), config).frame.equals(master.frame)


def test_the_master_so_far_as_written_scores_as_the_whole_master():
    master = read_master(MASTER, parse_config(CONFIG))
    so_far = written(master.known_at(1).as_written())
    whole = evaluate_sequence(*read_sequence(MASTER, RELEASES[:1], CONFIG)).summary
    assert evaluate_sequence(*read_sequence(so_far, RELEASES[:1], CONFIG)).summary == whole


def test_t_j_as_written_hides_lsb_and_gives_the_commands_baseline():
    master = read_master(MASTER, parse_config(CONFIG))
    table = written(master.as_written(master.table(1)))
    assert table.splitlines()[0].decode().split(",")[-1] == "lsf"
    from_table = baseline_of(table, None, parse_config(CONFIG), release=1)
    from_master = baseline_of(MASTER, None, parse_config(CONFIG), release=1)
    assert from_table.equals(from_master)


def test_the_timeline_counts_sizes_arrivals_and_departures():
    master = read_master(MASTER, parse_config(CONFIG))
    timeline = master.timeline()
    assert [row["size"] for row in timeline] == master.sizes()
    assert timeline[0]["arrivals"] == timeline[0]["departures"] == 0
    for row in timeline[1:]:
        j = row["step"]
        assert row["arrivals"] == int((master.lsf == j).sum())
        assert row["departures"] == int((master.lsb == j - 1).sum())
        assert row["size"] == timeline[j - 2]["size"] + row["arrivals"] - row["departures"]
    assert master.timeline(upto=1) == timeline[:1]


@pytest.mark.parametrize(
    ("change", "place"),
    [
        ({"m": 1}, ("m", "")),
        ({"qi": {"Age": "number"}}, ("qi", "Age")),
        ({"utility_gates": {"XX": 1}}, ("utility_gates", "XX")),
        ({"mode": "later"}, ("mode", "")),
        ({"allow_tampering": "yes"}, ("allow_tampering", "")),
        ({"per_team": {"pool": "p", "size": 0, "turnover": 0.1, "seed": 1}}, ("per_team", "size")),
    ],
)
def test_a_configuration_error_names_its_key_and_entry(change, place):
    with pytest.raises(ConfigError) as caught:
        parse_config({**CONFIG, **change})
    assert config_error_place(caught.value) == place


def test_an_error_without_a_place_has_none():
    assert config_error_place(ValueError("no code")) == ("", "")


def test_gate_failures_are_the_gates_names_keys():
    config = parse_config({**CONFIG, "utility_gates": {"IL": 0.0}})
    summary = evaluate_sequence(*read_sequence(MASTER, RELEASES, config)).summary
    assert gate_failures(summary, config) == ("IL",)
    assert gate_failures(summary, parse_config(CONFIG)) == ()


def test_a_targets_files_are_its_published_frames_as_csv():
    published = publish_for_attack(*read_sequence(MASTER, RELEASES, CONFIG), seed=3)
    files = published.files(prefix="teamY_")
    assert list(files)[:2] == ["teamY_release_1.csv", "teamY_release_2.csv"]
    assert pd.read_csv(io.StringIO(files["teamY_background.csv"]), dtype=str).equals(
        published.background.astype(str)
    )


def test_a_stored_table_read_as_known_at_an_earlier_release_hides_later_departures():
    whole = risk_per_person_csv(evaluate_sequence(*read_sequence(MASTER, RELEASES[:1], CONFIG)))
    # Stored before known_at cut lsb: a person's real lsb 2 shows, which step 1 must not.
    stored = whole.replace(",1,1,", ",1,2,", 1)
    assert stored != whole
    assert per_person_known_at(stored, 1) == whole
    assert per_person_known_at(whole, 1) is whole  # nothing to cut: unchanged
    assert per_person_known_at("", 1) == ""


def test_groups_per_release_counts_each_persons_groups_per_release():
    result = evaluate_sequence(*read_sequence(MASTER, RELEASES, CONFIG))
    rows = groups_per_release(risk_per_person_csv(result), upto=2)
    assert [row["step"] for row in rows] == [1, 2]
    assert [row["persons"] for row in rows] == read_master(MASTER, parse_config(CONFIG)).sizes()
    for row in rows:
        assert 1 <= row["min"] <= row["mean"] <= row["max"]
    assert groups_per_release(risk_per_person_csv(result), upto=1) == rows[:1]
    assert groups_per_release("", upto=2) == []


def test_groups_per_release_skips_blank_counts_and_unreadable_persons():
    table = "pid,lsf,lsb,groups_per_release\nA,x,2,1;2\nB,2,3,;4;;5\nC,1,1,\nD,1,2,2;6\n"
    # B's first count is of release 2 (blanks are not releases); A (lsf "x") is left out.
    assert groups_per_release(table, upto=9) == [
        {"step": 1, "persons": 1, "min": 2, "mean": 2.0, "max": 2},
        {"step": 2, "persons": 2, "min": 4, "mean": 5.0, "max": 6},
        {"step": 3, "persons": 1, "min": 5, "mean": 5.0, "max": 5},
    ]
    assert groups_per_release("pid,lsf,lsb\nA,1,2\n", upto=2) == []
    assert groups_per_release("pid\n", upto=2) == []


def test_a_release_given_as_a_path_is_named_by_its_file_name(tmp_path):
    mine = tmp_path / "my_release.csv"
    mine.write_bytes(RELEASES[0].read_bytes() + b"1,Zoe,extra,fields,here,too\n")
    with pytest.raises(ValidationError) as caught:
        read_sequence(MASTER, [mine], CONFIG)
    assert "my_release.csv" in caught.value.render("en")
    assert "release_1.csv" not in caught.value.render("ja")
