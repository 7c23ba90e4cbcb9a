"""A sequential configuration's errors are found in one pass: every key at fault is
reported (``ConfigErrors``), each placed on its key, in the order of the checks; a check
that needs another key's value is left out while that key is wrong."""

import pytest

from scoring.errors import ConfigError, ConfigErrors
from scoring.sequential.config import config_error_place, parse_config

VALID = {"n_releases": 2, "m": 2, "qi": {"Age": "num"}, "sa": "Disease"}


def _errors(**overrides) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_config({**VALID, **overrides}, max_lsb=3)
    return caught.value


def test_every_key_at_fault_is_reported_once_in_the_order_of_the_checks():
    error = _errors(
        m=1, sa="Age", mode="both", utility_gates={"IL": -1}, allow_tampering="yes", n_releases=3
    )
    assert isinstance(error, ConfigErrors)
    assert [config_error_place(item) for item in error.errors] == [
        ("m", ""),
        ("sa", ""),
        ("mode", ""),
        ("allow_tampering", ""),
        ("utility_gates", "IL"),
    ]
    assert error.code == "seq.config.m"  # the first error's, for a reader of one message
    assert str(error).splitlines() == [str(item) for item in error.errors]
    assert error.render("ja").splitlines() == [item.render("ja") for item in error.errors]


def test_one_error_is_itself():
    error = _errors(m=1, n_releases=3)
    assert type(error) is ConfigError
    assert error.errors == [error]


def test_a_check_on_a_wrong_key_waits_for_it():
    # n_releases is not a number: its comparison with the master's lsb is not made.
    error = _errors(n_releases="two", attack_phase=True, per_team={"pool": "p.csv"})
    assert [item.code for item in error.errors] == ["seq.config.n_releases", "seq.config.per_team"]
    # A valid n_releases below the master's lsb, and an attack phase with no per-team masters.
    error = _errors(n_releases=2, attack_phase=True)
    assert [item.code for item in error.errors] == [
        "seq.config.attack_phase",
        "seq.config.n_releases_lsb",
    ]


def test_the_sensitive_column_is_checked_whatever_the_qi_columns():
    # A QI row at fault (a reserved name) hides neither an empty sensitive column...
    error = _errors(qi={"pid": "num"}, sa="", n_releases=3)
    assert [config_error_place(item) for item in error.errors] == [("qi", "pid"), ("sa", "")]
    # ...nor, against the master's header, a sensitive column the master does not have.
    with pytest.raises(ConfigError) as caught:
        parse_config(
            {**VALID, "qi": {"Zipp": "num"}, "sa": "Illness"},
            master_columns=["pid", "Age", "Disease", "lsf", "lsb"],
        )
    assert [str(item) for item in caught.value.errors] == [
        "configuration key 'qi': 'Zipp' is not a column of the master table",
        "configuration key 'sa': 'Illness' is not a column of the master table",
    ]


@pytest.mark.parametrize(
    ("per_team", "field", "japanese"),
    [
        ("p.csv", "", "オブジェクトでなければ"),
        ({"pool": ""}, "pool", "ファイル名でなければ"),
        ({"pool": "p.csv", "size": 0}, "size", "1 以上の整数でなければ"),
        ({"pool": "p.csv", "size": 2, "turnover": 2}, "turnover", "0 以上 1 以下の数でなければ"),
        ({"pool": "p.csv", "size": 2, "turnover": 0.5, "seed": "x"}, "seed", "整数でなければ"),
    ],
    ids=["not-object", "pool", "size", "turnover", "seed"],
)
def test_what_per_team_should_be_is_said_in_japanese(per_team, field, japanese):
    """``per_team``'s expected values are ``expect.*`` messages, not English in Japanese."""
    error = _errors(per_team=per_team)
    assert (error.code, error.params["field"]) == ("seq.config.per_team", field)
    assert japanese in error.render("ja")
    assert str(error).startswith(f"configuration key 'per_team.{field}' must be a")
