"""Inside one list setting of a scorer round (the score columns, the gates) every faulty
entry is named, each by its position from 1, not only the first."""

import pytest

from scoring.scorer.errors import ScorerError, ScorerErrors
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


@pytest.mark.parametrize(
    ("value", "fault"),
    [
        (["utility", "nowhere"], "not one of the columns (utility, privacy)"),
        (["privacy", "privacy"], "names the column 'privacy' twice"),
        ("utility", "a list of at most 20 column keys"),
        ([1], "a list of at most 20 column keys"),
    ],
)
def test_the_public_columns_are_release_columns_each_once(value, fault):
    release = {"release_columns": [{"key": "utility"}, {"key": "privacy"}]}
    assert parse_round_config(release).public_columns == ()  # none by default (old bundles)
    kept = parse_round_config({**release, "public_columns": ["privacy", "utility"]})
    assert [column.key for column in kept.public_release_columns] == ["privacy", "utility"]
    assert parse_round_config(kept.as_dict()) == kept
    with pytest.raises(ScorerError) as raised:
        parse_round_config({**release, "public_columns": value})
    assert "public_columns" in str(raised.value) and fault in str(raised.value)
    assert "public_columns" in raised.value.render("ja")
