"""A scorer round's settings (round_config) and its leaderboards' rules (matrix)."""

import re

import pytest

from scoring.scorer import SandboxLimits, ScorerError
from scoring.scorer.errors import ScorerErrors
from scoring.scorer.matrix import (
    band,
    band_label,
    power,
    protection,
    rank,
    release_ranking,
    top_releases,
)
from scoring.scorer.round_config import parse_round_config

UTILITY = {"key": "utility", "label": "Utility", "label_ja": "有用性", "higher_is_better": True}
ERROR = {"key": "mae", "label": "MAE", "higher_is_better": False}

# -- the settings


def test_the_defaults_in_full():
    assert parse_round_config({}).as_dict() == {
        "release_columns": [
            {"key": "score", "label": "Score", "label_ja": "スコア", "higher_is_better": True}
        ],
        "release_primary": "score",
        "public_columns": [],
        "attack_columns": [
            {"key": "score", "label": "Score", "label_ja": "スコア", "higher_is_better": True}
        ],
        "attack_primary": "score",
        "attack_mode": "per_target",
        "protection_rule": "worst",
        "power_rule": "mean",
        "top_n": 5,
        "release_rank": "primary",
        "visibility": "exact",
        "ranking": "rules",
        "bands": [0.25, 0.5, 0.75],
        "gates": [],
        "limits": {"timeout_seconds": 300, "memory_mb": 2048, "processes": 256},
        "release_files": {"required": [], "only_required": False},
        "attack_files": {"required": [], "only_required": False},
        "unattacked": None,
        "attack_counts": "best",
        "attack_withdrawal": "off",
    }


def test_a_full_configuration_reads_back_unchanged():
    data = {
        "release_columns": [UTILITY, ERROR],
        "release_primary": "mae",
        "attack_columns": [{"key": "reidentified", "label": "Re-identified"}],
        "attack_mode": "all_targets",
        "protection_rule": "mean",
        "power_rule": "top_n",
        "top_n": 3,
        "release_rank": "rank_sum",
        "visibility": "band",
        "bands": [0.1, 0.9],
        "gates": [{"key": "utility", "min": 60}, {"key": "mae", "max": 0.5}],
        "limits": {"timeout_seconds": 12.5, "memory_mb": 512, "processes": 64},
    }
    config = parse_round_config(data)
    assert config.release_primary_column.higher_is_better is False
    assert config.attack_primary == "reidentified"
    assert config.attack_columns[0].label_ja == "Re-identified"  # label_ja defaults to label
    assert config.attack_columns[0].higher_is_better is True
    stored = config.as_dict()
    assert stored["release_columns"][1] == {**ERROR, "label_ja": "MAE"}
    assert stored["gates"] == [{"key": "utility", "min": 60.0}, {"key": "mae", "max": 0.5}]
    assert parse_round_config(stored) == config
    assert config.sandbox_limits() == SandboxLimits(
        timeout_seconds=12.5, memory_bytes=512 * 1024**2, processes=64
    )


def test_gates_keep_a_release_or_mark_it():
    config = parse_round_config(
        {
            "release_columns": [UTILITY, ERROR],
            "gates": [{"key": "utility", "min": 60}, {"key": "mae", "max": 0.5}],
        }
    )
    assert config.failed_gates({"utility": 60, "mae": 0.5}) == ()
    assert [g.key for g in config.failed_gates({"utility": 59.9, "mae": 0.6})] == ["utility", "mae"]
    assert [g.key for g in config.failed_gates({"mae": 0.1})] == ["utility"]  # missing fails


@pytest.mark.parametrize(
    ("data", "code", "named"),
    [
        ({"colour": 1}, "scorer.config.unknown", "'colour'"),
        ({"limits": {"cpu": 1}}, "scorer.config.unknown", "'limits.cpu'"),
        ({"release_columns": [{"key": "a", "unit": "%"}]}, "scorer.config.unknown", "unit"),
        ({"release_columns": []}, "scorer.config.value", "release_columns"),
        ({"release_columns": [{"key": "a"}] * 21}, "scorer.config.value", "release_columns"),
        ({"release_columns": [{"key": "a b"}]}, "scorer.config.value", "'a b'"),
        ({"release_columns": [{"key": "x" * 65}]}, "scorer.config.value", "release_columns[1]"),
        ({"release_columns": [{"key": "a", "label": "L" * 61}]}, "scorer.config.value", "label"),
        (
            {"release_columns": [{"key": "a", "higher_is_better": "yes"}]},
            "scorer.config.value",
            "'yes'",
        ),
        ({"release_columns": [{"key": "a"}, {"key": "a"}]}, "scorer.config.duplicate", "'a'"),
        ({"release_primary": "utility"}, "scorer.config.column", "'utility'"),
        ({"attack_primary": "x"}, "scorer.config.column", "attack_primary"),
        ({"attack_mode": "some"}, "scorer.config.value", "'some'"),
        ({"power_rule": "max"}, "scorer.config.value", "power_rule"),
        ({"release_rank": "sum"}, "scorer.config.value", "release_rank"),
        ({"visibility": "fuzzy"}, "scorer.config.value", "visibility"),
        ({"top_n": 0}, "scorer.config.value", "top_n"),
        ({"top_n": 1001}, "scorer.config.value", "1001"),
        ({"top_n": True}, "scorer.config.value", "top_n"),
        ({"bands": []}, "scorer.config.value", "bands"),
        ({"bands": [0.5, 0.5]}, "scorer.config.value", "bands"),
        ({"bands": list(range(10))}, "scorer.config.value", "bands"),
        ({"bands": [0.1, float("nan")]}, "scorer.config.value", "bands"),
        ({"gates": [{"key": "score"}]}, "scorer.config.value", "gates[1]"),
        ({"gates": [{"key": "score", "min": 1, "max": 2}]}, "scorer.config.value", "gates[1]"),
        ({"gates": [{"key": "nope", "min": 1}]}, "scorer.config.column", "gates[1].key"),
        ({"gates": [{"key": "score", "min": "1"}]}, "scorer.config.value", "gates[1].min"),
        ({"gates": [{"key": "score", "min": 1}] * 11}, "scorer.config.value", "gates"),
        ({"limits": {"timeout_seconds": 0}}, "scorer.config.value", "limits.timeout_seconds"),
        ({"limits": {"timeout_seconds": 86401}}, "scorer.config.value", "86401"),
        ({"limits": {"memory_mb": 63}}, "scorer.config.value", "limits.memory_mb"),
        ({"limits": {"memory_mb": 100.0}}, "scorer.config.value", "limits.memory_mb"),
        ({"limits": {"processes": 4097}}, "scorer.config.value", "limits.processes"),
        ({"limits": []}, "scorer.config.value", "limits"),
        ({"unattacked": "0"}, "scorer.config.value", "unattacked"),
        ({"unattacked": float("inf")}, "scorer.config.value", "unattacked"),
    ],
)
def test_a_bad_setting_is_refused_naming_its_key_and_value(data, code, named):
    with pytest.raises(ScorerError) as raised:
        parse_round_config(data)
    assert raised.value.code == code
    assert named in str(raised.value) and named in raised.value.render("ja")


def test_every_independent_error_is_named_at_once_and_a_dependent_check_waits():
    """One pass names every setting at fault, in the order checked (``ScorerErrors``); a
    primary waits for its columns, the gates for the release columns."""
    data = {
        "colour": "red",
        "release_columns": [],
        "release_primary": "nowhere",
        "gates": [{"key": "nowhere", "min": 1}],
        "attack_primary": "nope",
        "visibility": "fuzzy",
        "top_n": 0,
        "bands": [0.5, 0.2],
        "limits": {"memory_mb": 1, "cpu": 2, "processes": 1},
        "attack_files": [],
    }
    with pytest.raises(ScorerErrors) as raised:
        parse_round_config(data)
    keys = [str(error.params["key"]).strip("'") for error in raised.value.errors]
    assert keys == [
        "colour",
        "release_columns",
        "attack_primary",
        "visibility",
        "top_n",
        "bands",
        "limits.cpu",
        "limits.memory_mb",
        "limits.processes",
        "attack_files",
    ]
    assert len(raised.value.render("ja").splitlines()) == len(keys)


def test_not_an_object_is_refused():
    with pytest.raises(ScorerError) as raised:
        parse_round_config(["release_columns"])
    assert raised.value.code == "scorer.config.not_object"


def test_the_limits_at_their_bounds_are_accepted():
    low = parse_round_config({"limits": {"timeout_seconds": 1, "memory_mb": 64, "processes": 8}})
    high = parse_round_config(
        {"limits": {"timeout_seconds": 86400, "memory_mb": 262144, "processes": 4096}}
    )
    assert low.sandbox_limits().memory_bytes == 64 * 1024**2
    assert high.sandbox_limits().processes == 4096


# -- bands


def test_bands_count_the_thresholds_reached():
    bands = [0.25, 0.5, 0.75]
    assert [band(v, bands) for v in (-1.0, 0.2499, 0.25, 0.5, 0.7499, 0.75, 2.0)] == [
        0,
        0,
        1,
        2,
        2,
        3,
        3,
    ]
    assert band_label(band(0.3, bands), bands) == "0.25–0.5"
    assert band_label(0, [10]) == "< 10" and band_label(1, [10]) == "≥ 10"
    with pytest.raises(ValueError):
        band_label(4, bands)


# -- protection and power

MATRIX = {
    "a": {"b": 0.5, "c": 0.25, "d": 0.75},
    "b": {"a": 1.0, "c": 0.0},
    "c": {"a": 0.25},
    "d": {},
}


def test_protection_is_the_attackers_best_or_their_mean():
    assert protection(MATRIX, rule="worst", attack_higher_is_better=True) == {
        "a": 0.75,
        "b": 1.0,
        "c": 0.25,
        "d": None,
    }
    assert protection(MATRIX, rule="worst", attack_higher_is_better=False) == {
        "a": 0.25,
        "b": 0.0,
        "c": 0.25,
        "d": None,
    }
    assert protection(MATRIX, rule="mean", attack_higher_is_better=True) == {
        "a": 0.5,
        "b": 0.5,
        "c": 0.25,
        "d": None,
    }


def test_power_is_the_mean_over_the_targets_attacked():
    assert power(MATRIX, rule="mean", top=None, attack_higher_is_better=True) == {
        "a": 0.625,  # b 1.0 and c 0.25; d not attacked is missing, not zero
        "b": 0.5,
        "c": 0.125,
        "d": 0.75,
    }
    assert power(MATRIX, rule="top_n", top=["b", "c"], attack_higher_is_better=True) == {
        "a": 0.625,
        "b": None,
        "c": 0.0,
        "d": None,
    }
    with pytest.raises(ValueError):
        power(MATRIX, rule="top_n", top=None, attack_higher_is_better=True)


def test_an_attack_not_made_counts_as_the_rounds_unattacked_score():
    """PWSCup 2019: a target a team did not attack counts as its attack 0 (a privacy of 1), in
    the release's protection and in the attacker's power; a target nobody attacked has one."""
    assert parse_round_config({"unattacked": 0}).unattacked == 0.0
    assert protection(MATRIX, rule="mean", attack_higher_is_better=True, missing=0.0) == {
        "a": 0.5,  # b 0.75 and c 0.25, d did not attack a: 0
        "b": 1.0 / 3,  # a 1.0, c 0.0, d did not attack b: 0
        "c": 0.25 / 3,  # a 0.25; b and d 0
        "d": 0.0,  # nobody attacked d: every other team counts 0
    }
    assert protection(MATRIX, rule="worst", attack_higher_is_better=True, missing=0.0)["d"] == 0.0
    assert power(MATRIX, rule="mean", top=None, attack_higher_is_better=True, missing=0.0) == {
        "a": 1.25 / 3,  # b 1.0, c 0.25, d not attacked: 0
        "b": 0.5 / 3,  # a 0.5; c and d not attacked: 0
        "c": 0.25 / 3,
        "d": 0.75 / 3,
    }
    top = power(MATRIX, rule="top_n", top=["b", "c"], attack_higher_is_better=True, missing=0.0)
    assert top == {"a": 0.625, "b": 0.0, "c": 0.0, "d": 0.0}


def test_an_attack_on_oneself_never_counts():
    matrix = {"a": {"a": 1.0, "b": 0.5}}
    assert protection(matrix, rule="worst", attack_higher_is_better=True) == {"a": 0.5}
    assert power(matrix, rule="mean", top=None, attack_higher_is_better=True) == {
        "a": None,
        "b": 0.5,
    }


def test_unknown_rules_are_refused():
    with pytest.raises(ValueError):
        protection(MATRIX, rule="median", attack_higher_is_better=True)
    with pytest.raises(ValueError):
        power(MATRIX, rule="max", top=None, attack_higher_is_better=True)
    with pytest.raises(ValueError):
        release_ranking(
            {},
            {},
            rule="x",
            primary_higher_is_better=True,
            protection_higher_is_better=True,
            failed_gate=set(),
        )


def test_top_releases_breaks_ties_by_name():
    scores = {"d": 2.0, "c": 3.0, "b": 3.0, "a": 1.0}
    assert top_releases(scores, n=3, higher_is_better=True) == ["b", "c", "d"]
    assert top_releases(scores, n=1, higher_is_better=False) == ["a"]
    assert top_releases(scores, n=10, higher_is_better=True) == ["b", "c", "d", "a"]


# -- ranks


def test_competition_ranking():
    values = {"a": 5.0, "b": 7.0, "c": 5.0, "d": 3.0, "e": None, "f": 5.0}
    assert rank(values, higher_is_better=True) == {
        "a": 2,
        "b": 1,
        "c": 2,
        "d": 5,
        "e": None,
        "f": 2,
    }
    assert rank(values, higher_is_better=False) == {
        "a": 2,
        "b": 5,
        "c": 2,
        "d": 1,
        "e": None,
        "f": 2,
    }


PRIMARY = {"a": 80.0, "b": 90.0, "c": 70.0, "d": 95.0, "e": 90.0}
SHIELD = {"a": 0.1, "b": 0.5, "c": 0.2, "d": None, "e": 0.4}  # attack success: lower protects


def _ranking(rule, failed=frozenset()):
    return release_ranking(
        PRIMARY,
        SHIELD,
        rule=rule,
        primary_higher_is_better=True,
        protection_higher_is_better=False,
        failed_gate=set(failed),
    )


def test_release_ranking_by_primary():
    assert _ranking("primary") == [("d", 1), ("b", 2), ("e", 2), ("a", 4), ("c", 5)]


def test_release_ranking_by_protection_leaves_an_unattacked_release_unranked():
    assert _ranking("protection") == [("a", 1), ("c", 2), ("e", 3), ("b", 4), ("d", None)]


def test_release_ranking_by_rank_sum_breaks_ties_by_primary():
    # among a, b, c, e: primary ranks b 1, e 1, a 3, c 4; protection a 1, c 2, e 3, b 4.
    # sums: a 4, b 5, c 6, e 4 -> a and e tie at 4, e's primary is better.
    assert _ranking("rank_sum") == [("e", 1), ("a", 2), ("b", 3), ("c", 4), ("d", None)]


def test_a_gate_failure_ranks_after_every_passing_release():
    assert _ranking("primary", failed={"d", "b"}) == [
        ("e", 1),
        ("a", 2),
        ("c", 3),
        ("d", 4),
        ("b", 5),
    ]
    assert _ranking("protection", failed={"a"}) == [
        ("c", 1),
        ("e", 2),
        ("b", 3),
        ("a", 4),
        ("d", None),
    ]


def test_every_team_of_either_mapping_is_listed():
    ranking = release_ranking(
        {"a": 1.0},
        {"b": 0.5},
        rule="primary",
        primary_higher_is_better=True,
        protection_higher_is_better=False,
        failed_gate=set(),
    )
    assert ranking == [("a", 1), ("b", None)]


# English words a message's "expected" part once put in a Japanese sentence (next to
# Japanese too: "columnsが必要です").
ENGLISH_WORDS = re.compile(
    r"(?<![A-Za-z_])(an?|the|of|to|or|and|from|with|at|most|list|numbers?|integers?|"
    r"object|text|characters|gates?|columns?|letters|digits|strictly|ascending|names|"
    r"patterns|relative|path|only|files?|expected)(?![A-Za-z_])"
)


@pytest.mark.parametrize(
    "data",
    [
        {"top_n": 0},
        {"limits": []},
        {"limits": {"timeout_seconds": 0}},
        {"limits": {"memory_mb": 63}},
        {"release_columns": []},
        {"release_columns": [{"label": "x"}]},
        {"release_columns": [{"key": "a b"}]},
        {"release_columns": [{"key": "a", "label": "L" * 61}]},
        {"release_columns": [{"key": "a", "higher_is_better": "yes"}]},
        {"protection_rule": "median"},
        {"bands": [0.5, 0.5]},
        {"gates": [{"key": "score", "min": 1}] * 11},
        {"gates": [{"key": "score"}]},
        {"gates": [{"key": "score", "min": "1"}]},
        {"release_files": ["release.csv"]},
        {"release_files": {"required": ["../release.csv"]}},
        {"attack_files": {"only_required": True}},
    ],
    ids=lambda data: next(iter(data)),
)
def test_what_a_setting_should_be_is_said_in_the_readers_language(data):
    """The ``expected`` part of ``scorer.config.value`` is a catalogued ``expect.*`` message:
    a Japanese organizer read "a list of 1 to 20 columnsが必要です"."""
    with pytest.raises(ScorerError) as raised:
        parse_round_config(data)
    error = raised.value
    assert error.code == "scorer.config.value"
    assert error.params["expected"]["code"].startswith("expect.")
    english, japanese = str(error), error.render("ja")
    for value in (error.params["key"], error.params["value"]):
        english, japanese = english.replace(value, ""), japanese.replace(value, "")
    assert ENGLISH_WORDS.search(re.sub(r'"[^"]*"', "", english))  # the check finds English
    assert japanese.endswith("が必要です。")
    assert not ENGLISH_WORDS.findall(re.sub(r'"[^"]*"', "", japanese)), japanese
