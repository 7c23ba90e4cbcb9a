"""The 2015 game's round configuration says every error in English and Japanese, all at once.

Every error of ``load_config`` (and of its ``indicators`` block) carries a ``config.*`` code
of the catalogue naming its key; the keys are checked one by one and every error found is
reported (``ConfigErrors``, in the order of the checks); a check that needs another key's
value (``cross`` within ``qi``, ``e2_column`` within ``sa``, the indicator's kind on its
column) waits while that key is wrong.
"""

import re

import pandas as pd
import pytest

import scoring
from scoring.catalogues.config2015 import CONFIG_MESSAGES
from scoring.errors import ConfigError, ConfigErrors

ORIGINAL = pd.DataFrame(
    {
        "q1": ["1", "2", "1"],
        "q2": ["a", "b", "a"],
        "other": ["x", "y", "z"],
        "s1": ["10", "20", "30"],
        "s2": ["1.5", "2", "0"],
        "grade": ["low", "high", "mid"],
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


def _with(**changes) -> dict:
    config = dict(GOOD)
    for key, value in changes.items():
        if value is ...:
            config.pop(key)
        else:
            config[key] = value
    return config


def _refused(raw, original=ORIGINAL) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        scoring.load_config(raw, original)
    return caught.value


def _indicators(**block) -> dict:
    return _with(indicators=block)


# One bad configuration per code of the catalogue, with the key its message names.
CASES = [
    ("config.unreadable", "/nonexistent/round.json", None),
    ("config.not_object", b"[1, 2]", None),
    ("config.not_object", 42, None),
    ("config.unknown_keys", _with(colour="red"), None),
    ("config.missing_key", _with(qi=...), "qi"),
    ("config.columns_header", _with(columns=["q1", "q2"]), "columns"),
    ("config.not_column_list", _with(qi="q1"), "qi"),
    ("config.no_column", _with(qi=[]), "qi"),
    ("config.duplicate_columns", _with(qi=["q1", "q1"]), "qi"),
    ("config.unknown_columns", _with(qi=["q1", "nope"]), "qi"),
    ("config.overlap", _with(sa=["s1", "s2", "q1"]), "sa"),
    ("config.not_subset", _with(cross=["other"]), "cross"),
    ("config.not_column_name", _with(e4_column=3), "e4_column"),
    ("config.not_in_role", _with(e2_column="q1"), "e2_column"),
    ("config.not_numeric", _with(sa=["s1", "other"], e2_column="s1"), "sa"),
    ("config.domains_not_object", _with(domains=["q1"]), "domains"),
    ("config.domain_unknown_column", _with(domains={"nope": "number"}), "domains"),
    ("config.domain_kind", _with(domains={"q1": "anything"}), "domains.q1"),
    ("config.integer_not_value_column", _with(integer_columns=["s1"]), "integer_columns"),
    ("config.integer_not_number", _with(integer_columns=["q2"]), "integer_columns"),
    ("config.indicators_not_object", _with(indicators=["s1"]), "indicators"),
    ("config.indicators_unknown_keys", _indicators(sa="s1", colour=1), "indicators"),
    ("config.indicators_sa_not_column", _indicators(sa="zip"), "indicators.sa"),
    ("config.indicators_sa_is_qi", _indicators(sa="q1"), "indicators.sa"),
    ("config.indicators_kind", _indicators(sa="grade", kind="text"), "indicators.kind"),
    ("config.indicators_not_numeric", _indicators(sa="grade", kind="numeric"), "indicators.kind"),
    ("config.indicators_bins", _indicators(sa="s1", bins=[2, 1]), "indicators.bins"),
    ("config.indicators_l", _indicators(sa="s1", l=1), "indicators.l"),
    (
        "config.indicators_t_distance",
        _indicators(sa="s1", t_distance="far"),
        "indicators.t_distance",
    ),
    ("config.indicators_order_type", _indicators(sa="grade", order="low"), "indicators.order"),
    (
        "config.indicators_order_repeated",
        _indicators(sa="grade", order=["low", "low"]),
        "indicators.order",
    ),
    (
        "config.indicators_order_missing",
        _indicators(sa="grade", t_distance="ordered", order=["low", "mid"]),
        "indicators.order",
    ),
]

# ASCII words a Japanese message may hold besides the values it echoes: the format's name,
# the roles' names and the configuration's keys and values (in quotes).
JAPANESE_MAY_SAY = {"JSON", "qi", "sa"}
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\{[^}]*\}|\[[^\]]*\]")


def _english_words(text: str, params: dict) -> set[str]:
    """The ASCII words of ``text`` that are neither quoted nor one of the values it echoes."""
    echoed = set(re.findall(r"[A-Za-z_][\w.\-]*", str(params)))
    words = set(re.findall(r"[A-Za-z_][\w.\-]*", QUOTED.sub(" ", text)))
    return words - echoed - JAPANESE_MAY_SAY


@pytest.mark.parametrize(
    ("code", "raw", "key"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_each_error_has_a_code_and_reads_in_english_and_japanese(code, raw, key):
    error = _refused(raw)
    assert type(error) is ConfigError  # one fault: the error itself, not a group
    assert error.code == code
    assert error.params.get("key") == key
    english, japanese = error.render("en"), error.render("ja")
    assert english == str(error) and english != japanese
    assert re.search(r"[\u3040-\u30ff]", japanese), japanese  # kana: a Japanese sentence
    assert not _english_words(japanese, error.params), japanese
    if key:
        assert key in english and key in japanese


def test_every_code_of_the_catalogue_is_raised_by_one_case():
    assert {case[0] for case in CASES} == set(CONFIG_MESSAGES)


def test_messages_name_the_offending_value_clipped():
    long = "x" * 500
    error = _refused(_with(domains={"q1": long}))
    assert error.params["value"] == repr(long[:79] + "…")
    assert "'xxx" in error.render("ja")
    error = _refused(_indicators(sa="s1", l=2.5))
    assert error.render("en") == "indicators.l must be an integer >= 2, not 2.5."
    assert error.render("ja") == "indicators.l は 2 以上の整数にしてください（指定された値: 2.5）。"


def test_independent_faults_are_reported_together_in_the_order_of_the_checks():
    raw = _with(colour="red", e4_column=..., qi=["q1", "nope"], domains={"q2": "anything"})
    error = _refused(raw)
    assert isinstance(error, ConfigErrors)
    assert [(item.code, item.params.get("key")) for item in error.errors] == [
        ("config.unknown_keys", None),
        ("config.missing_key", "e4_column"),
        ("config.unknown_columns", "qi"),
        ("config.domain_kind", "domains.q2"),
    ]
    assert error.code == "config.unknown_keys"  # the first one's, for a reader of one message
    assert str(error).splitlines() == [str(item) for item in error.errors]
    assert error.render("ja").splitlines() == [item.render("ja") for item in error.errors]


def test_the_indicators_block_reports_its_faults_with_the_others():
    raw = _with(qi="q1", indicators={"sa": "zip", "l": 1, "t_distance": "far"})
    error = _refused(raw)
    assert [item.code for item in error.errors] == [
        "config.not_column_list",
        "config.indicators_sa_not_column",
        "config.indicators_l",
        "config.indicators_t_distance",
    ]


def test_a_check_on_a_wrong_key_waits_for_it():
    # qi is not a list: cross is not compared with it (``other`` is no QI), match_qi neither.
    error = _refused(_with(qi="q1", cross=["other"], match_qi=["s1"]))
    assert [(item.code, item.params.get("key")) for item in error.errors] == [
        ("config.not_column_list", "qi")
    ]
    # sa is wrong: e2_column is not looked for in it, but a type error of e4_column shows.
    error = _refused(_with(sa=["nope"], e2_column="q1", e4_column=3))
    assert [(item.code, item.params.get("key")) for item in error.errors] == [
        ("config.unknown_columns", "sa"),
        ("config.not_column_name", "e4_column"),
    ]
    # the indicator's column is wrong: its kind is not checked on the column's values.
    error = _refused(_indicators(sa="zip", kind="numeric"))
    assert [item.code for item in error.errors] == ["config.indicators_sa_not_column"]
    # a wrong domain does not keep the SA columns from being checked for numbers.
    error = _refused(_with(sa=["s1", "other"], e2_column="s1", domains={"q2": "anything"}))
    assert [(item.code, item.params.get("key")) for item in error.errors] == [
        ("config.domain_kind", "domains.q2"),
        ("config.not_numeric", "sa"),
    ]
    # a wrong domain: integer_columns, which need the domains, wait; their list does not.
    error = _refused(_with(domains={"q2": "anything"}, integer_columns=["s1"]))
    assert [item.code for item in error.errors] == ["config.domain_kind"]
    error = _refused(_with(domains={"q2": "anything"}, integer_columns="s1"))
    assert [item.code for item in error.errors] == ["config.domain_kind", "config.not_column_list"]


def test_a_valid_configuration_parses_as_before():
    raw = _with(
        match_qi=["q2"],
        domains={"q1": "number"},
        indicators={"sa": "grade", "t_distance": "ordered", "order": ["low", "mid", "high"]},
    )
    config = scoring.load_config(raw, ORIGINAL)
    assert (config.qi, config.sa, config.cross, config.match_qi, config.euc_sa) == (
        ("q1", "q2"),
        ("s1", "s2"),
        ("q1",),
        ("q2",),
        ("s1", "s2"),
    )
    assert dict(config.domains)["q1"] == "number" and config.integer_columns == ("q1",)
    assert config.indicators.order == ("low", "mid", "high") and config.indicators.l == 2
    assert scoring.load_config(config.to_dict(), ORIGINAL) == config
