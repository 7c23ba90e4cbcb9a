"""Round configuration: every bad configuration is rejected with a message naming the key."""

import json

import pandas as pd
import pytest

import scoring
from scoring import ConfigError

ORIGINAL = pd.DataFrame(
    {
        "q1": ["1", "2", "1"],
        "q2": ["a", "b", "a"],
        "other": ["x", "y", "z"],
        "s1": ["10", "20", "30"],
        "s2": ["1.5", "2", "0"],
        "text": ["u", "v", "w"],
    },
    dtype=object,
)
GOOD = {
    "qi": ["q1", "q2"],
    "sa": ["s1", "s2"],
    "cross": ["q1"],
    "e2_column": "s2",
    "e4_column": "s1",
}


def with_(**changes):
    config = dict(GOOD)
    for key, value in changes.items():
        if value is ...:
            config.pop(key)
        else:
            config[key] = value
    return config


def test_defaults():
    config = scoring.load_config(GOOD, ORIGINAL)
    assert config.match_qi == ("q1", "q2") and config.euc_sa == ("s1", "s2")
    assert config.domains["q1"] == "original-values" and config.domains["s1"] == "number"
    assert config.domains["other"] == "original-values"
    assert config.columns == tuple(ORIGINAL.columns)


def test_to_dict_round_trips_through_json(tmp_path):
    config = scoring.load_config(
        with_(match_qi=["q2"], euc_sa=["s1"], domains={"q1": "number"}),
        ORIGINAL,
    )
    path = tmp_path / "round.json"
    path.write_text(json.dumps(config.to_dict()))
    assert scoring.load_config(path, ORIGINAL) == config
    assert scoring.load_config(json.dumps(config.to_dict()), ORIGINAL) == config
    assert scoring.load_config(json.dumps(config.to_dict()).encode(), ORIGINAL) == config


@pytest.mark.parametrize(
    ("config", "key"),
    [
        (with_(qi=...), '"qi"'),
        (with_(sa=...), '"sa"'),
        (with_(cross=...), '"cross"'),
        (with_(e2_column=...), '"e2_column"'),
        (with_(e4_column=...), '"e4_column"'),
        (with_(colour="red"), "'colour'"),
        (with_(qi="q1"), '"qi"'),
        (with_(qi=[]), '"qi"'),
        (with_(qi=["q1", "q1"]), '"qi"'),
        (with_(qi=["q1", "nope"]), '"qi"'),
        (with_(sa=["s1", "q1"]), '"qi" and "sa" overlap'),
        (with_(sa=["s1", "text"]), '"sa"'),
        (with_(cross=["other"]), '"cross"'),
        (with_(e2_column="q1"), '"e2_column"'),
        (with_(e4_column="nope"), '"e4_column"'),
        (with_(e4_column=3), '"e4_column"'),
        (with_(match_qi=["s1"]), '"match_qi"'),
        (with_(match_qi=[]), '"match_qi"'),
        (with_(euc_sa=["q1"]), '"euc_sa"'),
        (with_(domains={"nope": "number"}), '"domains"'),
        (with_(domains={"q1": "anything"}), '"domains.q1"'),
        (with_(domains={"text": "number"}), '"domains.text"'),
        (with_(domains=["q1"]), '"domains"'),
        (with_(columns=["q1"]), '"columns"'),
        (with_(integer_columns="q1"), '"integer_columns"'),
        (with_(integer_columns=["s1"]), '"integer_columns" may only name'),
        (with_(integer_columns=["q2"]), "\"integer_columns\": column 'q2' holds a value"),
    ],
)
def test_bad_configuration_names_the_key(config, key):
    with pytest.raises(ConfigError) as info:
        scoring.load_config(config, ORIGINAL)
    assert key in str(info.value)


def test_sa_not_numeric_names_column_and_row():
    original = ORIGINAL.copy()
    original.loc[1, "s1"] = "n/a"
    with pytest.raises(ConfigError, match=r"\"sa\": column 's1' .* row 2 holds 'n/a'"):
        scoring.load_config(GOOD, original)


@pytest.mark.parametrize("raw", ["{not json", b"[1, 2]", "{}"])
def test_unparsable_or_incomplete_json(raw):
    with pytest.raises(ConfigError):
        scoring.load_config(raw, ORIGINAL)


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="Cannot read"):
        scoring.load_config(tmp_path / "nope.json", ORIGINAL)


def test_config_error_is_a_scoring_error():
    assert issubclass(ConfigError, scoring.ScoringError)
    assert issubclass(scoring.ValidationError, scoring.ScoringError)


def test_integer_columns_are_decided_on_the_original():
    config = scoring.load_config(GOOD, ORIGINAL)
    # q1 holds integers only; q2, other and text hold text; s1/s2 are numbers, not values.
    assert config.integer_columns == ("q1",)
    assert config.to_dict()["integer_columns"] == ["q1"]
    master = ORIGINAL.copy()
    master.loc[2, "q1"] = "1.5"
    assert scoring.load_config(GOOD, master).integer_columns == ()


def test_integer_columns_given_are_kept_for_a_sample_or_candidate_table():
    """The round's decision travels with the configuration; another table cannot change it."""
    master = ORIGINAL.copy()
    master.loc[2, "q1"] = "1.5"
    decided = scoring.load_config(GOOD, master).to_dict()
    sample = ORIGINAL.iloc[:2].reset_index(drop=True)  # integers only in q1
    assert scoring.load_config(decided, sample).integer_columns == ()
    integral = scoring.load_config(GOOD, ORIGINAL).to_dict()
    assert scoring.load_config(integral, master).integer_columns == ("q1",)
