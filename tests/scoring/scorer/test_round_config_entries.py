"""Inside one list setting of a scorer round (the score columns, the gates) every faulty
entry is named, each by its position from 1, not only the first."""

import pytest

from scoring.scorer.errors import ScorerErrors
from scoring.scorer.round_config import parse_round_config


def test_two_bad_score_columns_and_two_bad_gates_are_all_named():
    data = {
        "release_columns": [{"key": "utility"}, {"key": "privacy"}],
        "attack_columns": [
            {"key": "ok"},
            {"key": "bad key!"},
            {"key": "fine"},
            {"key": "hit", "higher_is_better": "yes"},
        ],
        "gates": [
            {"key": "nowhere", "min": 1},
            {"key": "utility", "min": 0.5},
            {"key": "privacy", "max": "high"},
        ],
    }
    with pytest.raises(ScorerErrors) as raised:
        parse_round_config(data)
    keys = [str(error.params["key"]).strip("'") for error in raised.value.errors]
    assert keys == [
        "attack_columns[2].key",
        "attack_columns[4].higher_is_better",
        "gates[1].key",
        "gates[3].max",
    ]
    japanese = raised.value.render("ja").splitlines()
    assert len(japanese) == 4 and all(key in line for key, line in zip(keys, japanese, strict=True))


def test_a_duplicate_key_is_named_with_another_faulty_column():
    data = {"release_columns": [{"key": "a"}, {"key": "a"}, {"key": "b", "label": ""}]}
    with pytest.raises(ScorerErrors) as raised:
        parse_round_config(data)
    assert [error.code for error in raised.value.errors] == [
        "scorer.config.duplicate",
        "scorer.config.value",
    ]
    assert "release_columns[3].label" in str(raised.value)
