"""Spec dp-round.md §12: every validation rule of the DP round gives its one clear message
(in English and Japanese), for the configuration, tables, queries, charges, release
declarations, release.csv, estimate.csv and declared counts."""

import copy
import re
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

import scoring.dp
from scoring.dp import (
    DP_MESSAGES,
    DPError,
    LedgerState,
    check_request_id,
    ledger_charge,
    parse_config,
    parse_epsilon,
    parse_query,
    parse_release_declaration,
    read_estimate,
    render_dp,
    validate_config,
    validate_original,
    validate_release_table,
    write_estimate,
)
from scoring.dp._examples import TOY_CONFIG, toy_config, toy_table
from scoring.dp.laplace import query_truth
from scoring.dp.plausibility import parse_counts_declaration
from scoring.errors import ScoringError
from scoring.messages import placeholders

DP_DIR = Path(scoring.dp.__file__).parent
# How the library's readers say where their row numbers start (the 2015 tables' messages).
ROWS_NOTE = "Rows are numbered from 1 after the header line."


def config_with(**changes):
    raw = copy.deepcopy(TOY_CONFIG)
    raw.update(changes)
    return raw


def message(call, *args, **kwargs) -> str:
    with pytest.raises(DPError) as error:
        call(*args, **kwargs)
    assert isinstance(error.value, ScoringError)  # the CLI and the platform catch one type
    assert error.value.render("ja") != str(error.value)
    return str(error.value)


# the catalogue ---------------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(DP_MESSAGES))
def test_every_code_has_english_and_japanese_with_the_same_placeholders(code):
    templates = DP_MESSAGES[code]
    assert set(templates) == {"en", "ja"}
    assert placeholders(templates["en"]) == placeholders(templates["ja"])
    assert templates["en"] != templates["ja"]


def test_every_code_is_raised_somewhere_and_every_raised_code_exists():
    used = set()
    for path in DP_DIR.glob("*.py"):
        if path.name != "errors.py":
            used |= set(re.findall(r'"(dp\.[a-z_]+\.[a-z_]+)"', path.read_text(encoding="utf-8")))
    assert used <= set(DP_MESSAGES), used - set(DP_MESSAGES)
    assert set(DP_MESSAGES) <= used, set(DP_MESSAGES) - used


def test_a_rows_listing_reads_in_both_languages():
    text = render_dp(
        "dp.original.outside_domain",
        {"column": "age", "rows": {"rows": [[5, "17-"], [9, ""]], "total": 12}},
        "ja",
    )
    assert "5 行目 ('17-')" in text and "全 12 行" in text


def test_spending_the_budget_reads_as_consuming_it_in_japanese():
    """課金 reads as paying money: the privacy budget is spent (消費), in every DP message."""
    assert not [code for code, texts in DP_MESSAGES.items() if "課金" in texts["ja"]]
    state = LedgerState(budget=Fraction(1), spent=Fraction(9, 10), charges=3)
    with pytest.raises(DPError) as refused:
        ledger_charge(state, Fraction(1, 2), what="query")
    assert refused.value.render("ja") == (
        "拒否: クエリ 4 は epsilon 0.5 を求めていますが、レベルの予算 1 の残りは 0.1 だけです"
        "（これまでの 3 回の消費で 0.9 を使っています）。今回は予算を消費していません"
    )
    with pytest.raises(DPError) as too_many:
        ledger_charge(state, Fraction(1, 20), what="release", max_charges=3, level_id="eps-1")
    assert too_many.value.render("ja") == "レベル 'eps-1' で予算を消費できるのは最大 3 回です"


# config ----------------------------------------------------------------------------------


def test_config_unknown_key():
    text = message(parse_config, config_with(colour="red"))
    assert text.startswith(
        "Unknown key 'colour' in the round configuration; known keys: kind, attributes"
    )


@pytest.mark.parametrize("query_types", [[{}], [[]], ["histogram", ["count"]], "histogram"])
def test_query_types_that_are_no_list_of_names_are_refused_naming_the_key(query_types):
    """An object or a list among them (a bundle's, the console's JSON) is no query type:
    refused naming the key, never a TypeError."""
    assert "'query_types'" in message(parse_config, config_with(query_types=query_types))


def test_a_choice_is_named_in_the_readers_language():
    with pytest.raises(DPError) as refused:
        parse_config(config_with(feedback="daily"))
    assert str(refused.value) == "'feedback' must be one of 'after_close', 'live' (got \"daily\")"
    japanese = refused.value.render("ja")
    assert "'after_close', 'live' のいずれか" in japanese and " or " not in japanese


def test_config_duplicate_domain_value_and_too_few_values():
    raw = config_with(
        attributes={"gender": ["F", "M"], "age": ["<=17", "18-24", "25-34", "35-44", "25-34"]}
    )
    assert (
        message(parse_config, raw)
        == "Attribute 'age' has a duplicate value '25-34' (positions 3 and 5)"
    )
    raw = config_with(attributes={"gender": ["F"], "age": ["a", "b"]})
    assert message(parse_config, raw) == "Attribute 'gender' needs at least 2 values"


def test_config_workload_rules():
    raw = config_with(workload=[{"id": "ga", "attributes": ["sexx"]}])
    assert message(parse_config, raw) == "Target 'ga' names unknown attribute 'sexx'"
    raw = config_with(
        attributes={f"a{k}": [str(v) for v in range(10)] for k in range(6)} | {"b": ["x", "y"]},
        workload=[{"id": "all", "attributes": [f"a{k}" for k in range(6)] + ["b"]}],
    )
    assert message(parse_config, raw) == "Target 'all' has 2,000,000 cells; the limit is 100,000"
    raw = config_with(
        workload=[{"id": "g", "attributes": ["gender"]}, {"id": "g", "attributes": ["age"]}]
    )
    assert "'g' appears more than once" in message(parse_config, raw)
    raw = config_with(workload=[{"id": "g", "attributes": ["gender", "gender"]}])
    assert message(parse_config, raw) == "Target 'g' names attribute 'gender' twice"
    raw = config_with(workload=[{"id": "g", "attributes": []}])
    assert message(parse_config, raw) == "Target 'g' names no attribute"


def test_config_levels():
    raw = config_with(levels=[{"id": "eps-0", "epsilon": "0"}])
    assert message(parse_config, raw) == "Level 'eps-0' has epsilon 0; it must be > 0"
    raw = config_with(levels=[{"id": "big", "epsilon": "101"}])
    assert "it must be at most 100" in message(parse_config, raw)
    raw = config_with(levels=[{"id": "x", "epsilon": "1e-3x"}])
    assert message(parse_config, raw) == "epsilon '1e-3x' is not a decimal number or a fraction p/q"
    raw = config_with(levels=[{"id": "a", "epsilon": "1"}, {"id": "a", "epsilon": "2"}])
    assert "'a' appears more than once" in message(parse_config, raw)


def test_config_adjacency_and_feedback():
    raw = config_with(adjacency="add_remove")
    assert message(parse_config, raw) == (
        "The batch track needs adjacency 'replace': a released table of N rows reveals N"
    )
    assert (
        parse_config(config_with(adjacency="add_remove", tracks={"batch": "off"})).sensitivity(
            "histogram"
        )
        == 1
    )
    raw = config_with(feedback="live")
    assert message(parse_config, raw) == (
        "Live scores would reveal the hidden histograms (V+1 uploads suffice); allowed only in "
        "upload-only rounds"
    )
    parse_config(config_with(feedback="live", tracks={"interactive": False, "batch": "upload"}))


def test_config_other_values_name_the_key():
    assert "'baselines.rho_rule' must be" in message(
        parse_config, config_with(baselines={"rho_rule": "x"})
    )
    assert "'max_charges_per_level' must be" in message(
        parse_config, config_with(max_charges_per_level=0)
    )
    assert "'spearman_gate' must be" in message(parse_config, config_with(spearman_gate=2))
    assert message(parse_config, "[1]") == "The round configuration must be a JSON object"
    assert message(parse_config, "{") == (
        "The round configuration cannot be read: "
        "Not valid JSON: the syntax breaks at line 1, column 2."
    )
    with pytest.raises(DPError) as broken:
        parse_config("{")
    assert broken.value.render("ja") == (
        "ラウンド設定を読み取れません: 正しい JSON ではありません: 1 行 2 列目で構文が崩れています。"
    )


def test_validate_config_normalises_with_defaults():
    normal = validate_config({**TOY_CONFIG, "levels": [{"id": "l", "epsilon": 0.1}]})
    assert normal["levels"] == [{"id": "l", "epsilon": "0.1"}]
    assert normal["tracks"] == {"interactive": True, "batch": "platform"}
    assert normal["baselines"]["it_x"] == [1, 10, 14, 55, 62, 89, 91, 109, 436]
    assert validate_config(normal) == normal


# the hidden table ------------------------------------------------------------------------


def test_original_lacks_a_column_and_has_too_few_rows(config=None):
    config = toy_config()
    assert message(validate_original, toy_table()[["gender"]], config) == (
        "The original table lacks attribute column 'age'"
    )
    assert "needs at least 2" in message(validate_original, toy_table().head(1), config)


def test_original_values_outside_the_domain_list_rows_and_values():
    table = toy_table()
    table.loc[4, "age"] = "17-"
    table.loc[8, "age"] = ""
    assert message(validate_original, table, toy_config()) == (
        "Column 'age' holds values outside its declared domain: row 5 ('17-'), row 9 (''). "
        "Declare them or fix the data. " + ROWS_NOTE
    )
    many = pd.DataFrame({"gender": ["X"] * 12, "age": ["<=17"] * 12})
    assert "(12 rows in total)" in message(validate_original, many, toy_config())


def test_original_numeric_column_must_parse():
    config = toy_config(numeric={"income": {"range": [0, 100]}})
    table = toy_table().assign(income=["1"] * 11 + ["n/a"] if False else ["1"] * 10)
    table.loc[9, "income"] = "n/a"
    assert (
        message(validate_original, table, config)
        == "Column 'income' row 10 ('n/a') is not a number. " + ROWS_NOTE
    )


# queries ---------------------------------------------------------------------------------


def test_query_messages():
    config = toy_config()
    assert message(config.level, "eps-2") == "Level 'eps-2' does not exist; levels: eps-1, eps-4"
    text = message(
        parse_query, {"type": "histogram", "attributes": ["sexx"], "epsilon": "1"}, config
    )
    assert text == "Query attribute 'sexx' is unknown; attributes: gender, age"
    text = message(parse_query, {"type": "count", "where": {"age": "26"}, "epsilon": "1"}, config)
    assert text == "Count condition age='26' is not in the domain of 'age'"
    assert "needs 'where'" in message(
        parse_query, {"type": "count", "where": {}, "epsilon": "1"}, config
    )
    assert "'mean' is not allowed" in message(parse_query, {"type": "mean", "epsilon": "1"}, config)
    text = message(
        parse_query, {"type": "histogram", "attributes": ["age"], "epsilon": "1e-3x"}, config
    )
    assert text == "epsilon '1e-3x' is not a decimal number or a fraction p/q"
    text = message(
        parse_query, {"type": "histogram", "attributes": ["age"], "epsilon": "0"}, config
    )
    assert text == "epsilon must be > 0 (got 0)"
    small = toy_config(max_cells=5, workload=[{"id": "g", "attributes": ["gender"]}])
    text = message(parse_query, {"attributes": ["gender", "age"], "epsilon": "1"}, small)
    assert text == "The query has 6 cells; the limit is 5"


def test_epsilon_parsing_is_exact():
    assert parse_epsilon("0.1") == Fraction(1, 10)
    assert parse_epsilon("1/3") == Fraction(1, 3)
    assert parse_epsilon(0.1) == Fraction(1, 10)
    assert parse_epsilon(2) == 2
    assert parse_epsilon("0.000000000001") == Fraction(1, 10**12)
    for bad in ("0.0000000000001", "1e-3", "abc", "1/0", "", True, None, float("inf")):
        with pytest.raises(DPError):
            parse_epsilon(bad)
    assert message(parse_epsilon, "-0.5") == "epsilon must be > 0 (got -0.5)"


def test_a_missing_epsilon_and_too_many_decimals_say_what_is_wrong():
    """``None`` (absent, or JSON ``null``) asks for ε instead of echoing Python's ``None``;
    a 13-decimal amount names the 12-decimal limit instead of calling it no number."""
    text = message(parse_epsilon, None)
    assert text == "epsilon is missing (absent or null): write a decimal number or a fraction p/q"
    assert "None" not in text
    with pytest.raises(DPError) as error:
        parse_epsilon(None)
    assert "None" not in error.value.render("ja") and "null" in error.value.render("ja")
    assert error.value.render("ja") == (
        "epsilon がありません（欠けているか null です）。小数か分数 p/q で書いてください"
    )
    text = message(parse_epsilon, "0.0000000000001")
    assert text == "epsilon '0.0000000000001' has 13 decimals; at most 12 are allowed"
    with pytest.raises(DPError) as error:
        parse_epsilon("0.1234567890123")
    assert error.value.render("ja") == (
        "epsilon '0.1234567890123' は小数点以下 13 桁です。12 桁までにしてください"
    )


def test_charge_limit_and_request_id():
    state = LedgerState(budget=Fraction(10), spent=Fraction(1), charges=1000)
    text = message(ledger_charge, state, Fraction(1), max_charges=1000, level_id="eps-1")
    assert text == "Level 'eps-1' allows at most 1000 charges"
    assert check_request_id("q-17") == "q-17"
    for bad in ("", "x" * 101, "tab\there", 17):
        assert (
            message(check_request_id, bad) == "request_id must be at most 100 printable characters"
        )


def test_refusal_of_a_release_names_it_and_the_singular_charge():
    state = LedgerState(budget=Fraction(1), spent=Fraction(1, 2), charges=1)
    text = message(ledger_charge, state, Fraction(3, 4), what="release")
    assert text == (
        "refused: release 2 asks epsilon 0.75 but only 0.5 of the level's budget 1 is left "
        "(spent 0.5 in 1 earlier charge); nothing was charged"
    )


# release declarations --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        (
            [{"attributes": ["gender"], "epsilon": "1"}],
            "Attribute 'age' is in no group: a column released without randomization has epsilon = ∞",
        ),
        (
            [
                {"attributes": ["gender"], "epsilon": "1"},
                {"attributes": ["gender", "age"], "epsilon": "1"},
            ],
            "Attribute 'gender' is in two groups (1 and 2)",
        ),
        (
            [
                {"attributes": ["gender"], "epsilon": "1"},
                {"attributes": ["age"], "epsilon": "1", "rho": 0.2},
            ],
            "Group 2 gives both rho and epsilon",
        ),
        (
            [{"attributes": ["gender"], "rho": 1.0}, {"attributes": ["age"], "rho": 0.2}],
            "rho 1.0 is not < 1 (epsilon would be ∞)",
        ),
        (
            [{"attributes": ["gender"], "epsilon": "0"}, {"attributes": ["age"], "rho": 0}],
            "The release's total epsilon is 0: it carries no information; nothing was charged",
        ),
        (
            [{"attributes": ["gender"]}, {"attributes": ["age"], "rho": 0}],
            "Group 1 gives neither rho nor epsilon",
        ),
        (
            [{"attributes": ["gender"], "rho": -0.1}, {"attributes": ["age"], "rho": 0}],
            "rho -0.1 is negative; it must be in [0, 1)",
        ),
        (
            [{"attributes": ["sexx"], "rho": 0.1}],
            "Group 1 names attribute 'sexx', which is not a workload attribute (gender, age)",
        ),
    ],
)
def test_release_declaration_messages(groups, expected):
    assert message(parse_release_declaration, {"groups": groups}, toy_config()) == expected


# release.csv -----------------------------------------------------------------------------


def test_release_csv_rules():
    config = toy_config()
    table = toy_table()
    assert validate_release_table(table, config, rows=10).shape == (10, 2)
    assert message(validate_release_table, table.head(9), config, rows=10) == (
        "release.csv has 9 rows; the table has 10"
    )
    assert message(validate_release_table, table[["age", "gender"]], config, rows=10) == (
        "release.csv: the header must be gender,age; misordered column(s): 'age', 'gender'"
    )
    renamed = table.rename(columns={"age": "Age"})
    with pytest.raises(DPError) as error:
        validate_release_table(renamed, config, rows=10, name="my release.csv")
    assert str(error.value) == (
        "my release.csv: the header must be gender,age; "
        "missing column(s): 'age'; unexpected column(s): 'Age'"
    )
    assert error.value.render("ja") == (
        "my release.csv のヘッダーは gender,age にしてください"
        "（足りない列: 'age'；余分な列: 'Age'）"
    )
    bad = table.copy()
    bad.loc[6, "age"] = "30"
    assert message(validate_release_table, bad, config, rows=10) == (
        "Column 'age' holds values outside its domain: row 7 ('30'). " + ROWS_NOTE
    )


# estimate.csv ----------------------------------------------------------------------------


def good_estimate() -> str:
    return write_estimate(
        {"gender_age": [0, 2, 2, 1, 2, 3], "gender": [4, 6]}, toy_config()
    ).decode()


def test_estimate_round_trip_with_bom_and_cp932():
    estimates = read_estimate(good_estimate().encode(), toy_config())
    assert estimates["gender_age"].tolist() == [0, 2, 2, 1, 2, 3]
    assert read_estimate(b"\xef\xbb\xbf" + good_estimate().encode(), toy_config())[
        "gender"
    ].tolist() == [4, 6]
    assert read_estimate(good_estimate().encode("cp932"), toy_config())["gender"].tolist() == [4, 6]


def test_estimate_header_names_the_wrong_columns_and_the_file():
    text = good_estimate().replace("target,gender,age,count", "target,age,gender,count")
    assert message(read_estimate, text.encode(), toy_config()) == (
        "estimate.csv: the header must be target,gender,age,count; "
        "misordered column(s): 'age', 'gender'"
    )
    text = good_estimate().replace("target,gender,age,count", "targets,gender,age,n")
    with pytest.raises(DPError) as error:
        read_estimate(text.encode(), toy_config(), name="level1_estimate.csv")
    assert str(error.value) == (
        "level1_estimate.csv: the header must be target,gender,age,count; "
        "missing column(s): 'target', 'count'; unexpected column(s): 'targets', 'n'"
    )
    assert error.value.render("ja") == (
        "level1_estimate.csv のヘッダーは target,gender,age,count にしてください"
        "（足りない列: 'target', 'count'；余分な列: 'targets', 'n'）"
    )


def test_a_latin1_estimate_is_refused_as_not_utf8_naming_the_file():
    # "Femäle" saved by a Western Excel: b"Fem\xe4le" also reads as CP932 ("Fem舁e"), but
    # the one encoding rule of every kind (scoring.tables) refuses it as Windows-1252.
    text = good_estimate().replace("gender,F,,4", "gender,Femäle,,4")
    with pytest.raises(ScoringError) as error:
        read_estimate(text.encode("latin-1"), toy_config(), name="Schätzung.csv")
    assert error.value.code == "table.encoding"
    offset = text.encode("latin-1").index(b"\xe4")
    assert str(error.value) == (
        "Schätzung.csv is not UTF-8 (it looks like Windows-1252 (Latin-1)): the first byte "
        f"that is not UTF-8 is on line 8 of the file (byte offset {offset}). Save it as UTF-8 "
        '(in Excel: Save As, "CSV UTF-8 (Comma delimited)") and upload it again.'
    )
    assert error.value.render("ja").startswith(
        "Schätzung.csv は UTF-8 ではありません（Windows-1252 (Latin-1) のようです）。"
        f"UTF-8 でない最初のバイトはファイルの 8 行目（バイト位置 {offset}）にあります。"
    )
    # Shift_JIS (Japanese Excel) is still read, as for every kind: on to the domain check.
    japanese = good_estimate().replace("gender,F,,4", "gender,女性,,4").encode("cp932")
    with pytest.raises(DPError, match="'女性' is not in the domain of 'gender'"):
        read_estimate(japanese, toy_config())


# What a team does about missing cells (the message said only which were missing).
ONE_ROW_PER_CELL = (
    "An estimate has one row per cell of each target (the sample estimate lists them all)."
)


def test_estimate_missing_and_duplicate_cells():
    lines = good_estimate().splitlines()
    missing = "\n".join(
        line for line in lines if not line.startswith(("gender_age,M,25-34", "gender_age,F,<=17"))
    )
    assert message(read_estimate, missing.encode(), toy_config()) == (
        "Target 'gender_age' misses cells (F,<=17), (M,25-34). " + ONE_ROW_PER_CELL
    )
    duplicate = "\n".join([*lines, "gender_age,F,18-24,5"])
    assert message(read_estimate, duplicate.encode(), toy_config()) == (
        "Cell (F,18-24) of 'gender_age' appears on rows 2 and 9. " + ROWS_NOTE
    )


def test_an_estimate_missing_many_cells_says_how_many_in_the_reader_s_language():
    """A header-only estimate: the first ten cells and the count, each language in its own
    words (the count's " … (N in total)" was English inside the Japanese message)."""
    ages = [f"{low}-{low + 4}" for low in range(0, 30, 5)]
    config = toy_config(attributes={"gender": ["F", "M"], "age": ages})
    header = good_estimate().splitlines()[0]
    with pytest.raises(DPError) as error:
        read_estimate(header.encode(), config)
    assert str(error.value) == (
        "Target 'gender_age' misses cells (F,0-4), (F,5-9), (F,10-14), (F,15-19), (F,20-24), "
        "(F,25-29), (M,0-4), (M,5-9), (M,10-14), (M,15-19) … (12 in total). " + ONE_ROW_PER_CELL
    )
    japanese = error.value.render("ja")
    assert "(M,15-19) … など全 12 個がありません。" in japanese
    assert japanese.endswith("サンプル推定にはすべてのセルがあります）。")
    assert "in total" not in japanese


def test_estimate_fill_outside_target_count_and_target():
    lines = good_estimate().splitlines()
    lines[7] = "gender,F,<=17,4"
    assert message(read_estimate, "\n".join(lines).encode(), toy_config()) == (
        "Row 7 fills 'age', which is not in target 'gender'. " + ROWS_NOTE
    )
    lines = good_estimate().splitlines()
    lines[6] = lines[6].rsplit(",", 1)[0] + ",inf"
    assert message(read_estimate, "\n".join(lines).encode(), toy_config()) == (
        "Row 6: count 'inf' is not a finite number. " + ROWS_NOTE
    )
    lines = good_estimate().splitlines()
    lines[1] = "gendr_age" + lines[1][len("gender_age") :]
    assert message(read_estimate, "\n".join(lines).encode(), toy_config()).startswith(
        "estimate.csv names unknown target(s): row 1 ('gendr_age')"
    )
    lines = good_estimate().splitlines()
    lines[2] = "gender_age,F,17-,2"
    assert "'17-' is not in the domain of 'age'" in message(
        read_estimate, "\n".join(lines).encode(), toy_config()
    )


def test_estimate_counts_follow_the_library_s_one_number_rule():
    """Full-width digits, as a Japanese keyboard types them, are the numbers they read as (the
    attack tables of the other kinds take them); ``1_000`` and other scripts' digits are not."""
    lines = good_estimate().splitlines()
    lines[6] = lines[6].rsplit(",", 1)[0] + ",１２３"
    lines[7] = lines[7].rsplit(",", 1)[0] + ",－４．５"
    estimates = read_estimate("\n".join(lines).encode(), toy_config())
    assert estimates["gender_age"].tolist()[-1] == 123
    assert estimates["gender"].tolist()[0] == -4.5
    for refused in ("1_000", "٣"):
        lines[6] = lines[6].rsplit(",", 1)[0] + "," + refused
        with pytest.raises(DPError) as error:
            read_estimate("\n".join(lines).encode(), toy_config())
        assert error.value.code == "dp.estimate.count"


def test_estimate_row_messages_say_where_rows_start_in_both_languages():
    lines = good_estimate().splitlines()
    lines[6] = lines[6].rsplit(",", 1)[0] + ",x"
    with pytest.raises(DPError) as error:
        read_estimate("\n".join(lines).encode(), toy_config())
    assert str(error.value) == "Row 6: count 'x' is not a finite number. " + ROWS_NOTE
    assert error.value.render("ja") == (
        "6 行目: count 'x' は有限の数ではありません。行番号はヘッダー行の次の行を 1 とします。"
    )


def test_original_numeric_columns_follow_the_one_number_rule():
    config = toy_config(numeric={"income": {"range": [0, 100]}})
    table = toy_table().assign(income=["１２"] * 9 + ["200"])
    assert validate_original(table, config)["gender"].size == 10
    config = toy_config(numeric={"income": {"range": [0, 100]}}, query_types=["histogram", "mean"])
    query = parse_query({"type": "mean", "column": "income", "epsilon": "1"}, config, rows=10)
    assert query_truth(table, config, query).tolist() == [(12 * 9 + 100) / 10]


def test_estimate_allows_negative_counts():
    text = good_estimate().replace("gender,F,,4.0", "gender,F,,-4.5")
    assert read_estimate(text.encode(), toy_config())["gender"].tolist() == [-4.5, 6]


# declared counts -------------------------------------------------------------------------


def test_counts_declaration_messages():
    config = toy_config()
    declaration = {"mechanism": "laplace", "targets": {"gender_age": "0.5"}}
    assert message(parse_counts_declaration, declaration, config, Fraction(1)) == (
        "Declaration gives no epsilon for target 'gender'"
    )
    declaration["targets"]["gender"] = "0.7"
    assert message(parse_counts_declaration, declaration, config, Fraction(1)) == (
        "Declared epsilons sum to 1.2, above the level's budget 1"
    )
    declaration["targets"]["gender"] = "1/2"
    parsed = parse_counts_declaration(
        {**declaration, "postprocessing": "clamp_rescale"}, config, Fraction(1)
    )
    assert parsed["total"] == 1 and parsed["postprocessing"] == "clamp_rescale"
    assert "Post-processing 'round'" in message(
        parse_counts_declaration, {**declaration, "postprocessing": "round"}, config, Fraction(1)
    )
    upload = toy_config(tracks={"interactive": False, "batch": "upload"})
    assert message(upload.check_free_estimate).startswith(
        "In a declared-upload round the estimate is computed by the platform from release.csv"
    )
    assert message(upload.check_platform_release) == "This round has no batch track"
    toy_config().check_platform_release()
    toy_config().check_free_estimate()


def test_negative_group_epsilon():
    groups = [{"attributes": ["gender"], "epsilon": "-1"}, {"attributes": ["age"], "epsilon": "1"}]
    assert message(parse_release_declaration, {"groups": groups}, toy_config()) == (
        "Group 1 has epsilon -1; it must be >= 0"
    )


def test_declared_table_and_counts_uploads():
    import numpy as np

    from scoring.dp import parse_release_declaration, pk_release
    from scoring.dp.declared import check_declared, declared_plausibility

    config = toy_config()
    half = {"groups": [{"attributes": ["gender"], "rho": 0.5}, {"attributes": ["age"], "rho": 0.5}]}
    plan = parse_release_declaration(half, config)
    release = pk_release(toy_table(), config, plan, np.random.default_rng(7), shuffle=False)
    content = release.to_csv(index=False).encode()
    declared = check_declared(
        content, {**half, "estimator": "BR"}, config, budget=Fraction(4), rows=10
    )
    assert declared.kind == "table" and str(declared.epsilon) == "49698133/20000000"
    assert declared.counts["gender_age"].round(6).tolist() == [
        0.000882,
        4.49567,
        2.519685,
        0.807811,
        2.083584,
        0.092367,
    ]  # EX7's BR
    assert not declared_plausibility(declared, toy_table(), config)["flagged"]  # EX7: no flag
    assert "above the level's budget 1" in message(
        check_declared, content, half, config, budget=Fraction(1), rows=10
    )
    assert message(check_declared, content, half, config, budget=Fraction(4), rows=11) == (
        "release.csv has 10 rows; the table has 11"
    )
    counts = good_estimate().encode()
    laplace = {"mechanism": "laplace", "targets": {"gender_age": "0.5", "gender": "0.5"}}
    declared = check_declared(counts, laplace, config, budget=Fraction(1), rows=10)
    assert declared.epsilon == 1 and declared.method == "declared Laplace"
    assert declared_plausibility(declared, toy_table(), config)["flagged"]  # the truth itself
    assert (
        message(
            check_declared,
            counts,
            {**laplace, "targets": {"gender": "1"}},
            config,
            budget=Fraction(1),
            rows=10,
        )
        == "Declaration gives no epsilon for target 'gender_age'"
    )


def test_mean_query_of_a_numeric_column():
    from scoring.dp.laplace import query_truth

    config = toy_config(numeric={"income": {"range": [0, 100]}}, query_types=["histogram", "mean"])
    table = toy_table().assign(income=["10", "20", "30", "40", "50", "60", "70", "80", "90", "150"])
    query = parse_query({"type": "mean", "column": "income", "epsilon": "1"}, config, rows=10)
    assert query.sensitivity == 10 and query.scale == 10  # Δ = (hi − lo)/N (§3.7)
    assert query_truth(table, config, query).tolist() == [55.0]  # 150 clamped to 100
    assert message(
        parse_query, {"type": "mean", "column": "age", "epsilon": "1"}, config, rows=10
    ) == ("Numeric column 'age' is unknown; numeric columns: income")
    text = message(
        parse_query, {"type": "mean", "column": "income", "epsilon": "1"}, toy_config(), rows=10
    )
    assert text == "Query type 'mean' is not allowed in this round; allowed: histogram, count"


# The CP932 look-alikes (issue 47): "60〜" typed in a domain (WAVE DASH, what IMEs give) and
# "60～" from a CP932 file (FULLWIDTH TILDE) are one value, either way round.

WAVE_DASH, FULLWIDTH_TILDE = "\u301c", "\uff5e"


def tilde_config(typed: str):
    return toy_config(attributes={"gender": ["F", "M"], "age": ["<60", f"60{typed}", "?"]})


@pytest.mark.parametrize(
    ("typed", "uploaded"), [(WAVE_DASH, FULLWIDTH_TILDE), (FULLWIDTH_TILDE, WAVE_DASH)]
)
def test_an_estimate_meets_a_domain_typed_with_the_other_tilde(typed, uploaded):
    config = tilde_config(typed)
    text = write_estimate({"gender_age": [1, 2, 3, 4, 5, 6], "gender": [6, 15]}, config).decode()
    assert f"60{typed}" in text
    text = text.replace(f"60{typed}", f"60{uploaded}")
    data = text.encode("cp932") if uploaded == FULLWIDTH_TILDE else text.encode("utf-8")
    assert read_estimate(data, config)["gender_age"].tolist() == [1, 2, 3, 4, 5, 6]


def test_tables_and_queries_meet_a_wave_dash_domain_and_messages_echo_the_upload():
    config = tilde_config(WAVE_DASH)
    table = pd.DataFrame({"gender": ["F", "M", "F"], "age": ["<60", "60～", "60～"]}, dtype=object)
    assert validate_original(table, config)["age"].tolist() == ["<60", "60～", "60～"]
    codes = validate_release_table(table, config, rows=3)
    assert codes[:, 1].tolist() == [0, 1, 1]
    assert message(
        validate_release_table, table.assign(age=["60－", "?", "?"]), config, rows=3
    ) == ("Column 'age' holds values outside its domain: row 1 ('60－'). " + ROWS_NOTE)
    query = parse_query({"type": "count", "where": {"age": "60～"}, "epsilon": "1"}, config)
    assert query.where == {"age": "60〜"}  # the domain's value, as the organizer typed it


def test_a_domain_holding_both_tildes_is_refused_as_a_duplicate():
    with pytest.raises(DPError) as error:
        toy_config(attributes={"gender": ["F", "M"], "age": ["60〜", "60～"]})
    assert error.value.code == "dp.attr.duplicate"


def _every_error(config: dict, param: str) -> list[tuple]:
    """Each error ``parse_config`` finds in ``config`` (several at once): its code and its
    parameter ``param``."""
    from scoring.dp.config.parse import parse_config
    from scoring.dp.errors import DPErrors

    with pytest.raises(DPErrors) as caught:
        parse_config(config)
    return [(error.code, error.params.get(param)) for error in caught.value.errors]


def test_every_level_at_fault_is_reported_each_naming_its_level():
    """A negative ε in one level and 13 decimals in another, a missing one in a third and
    0 in a fourth: four errors at once (docs/bundles.md promises every error), each with
    its level's id, so a bundle's path is ``levels[i].epsilon`` of that level."""
    config = {
        "attributes": {"g": ["F", "M"]},
        "workload": [{"id": "t", "attributes": ["g"]}],
        "levels": [
            {"id": "e1", "epsilon": "1"},
            {"id": "e2", "epsilon": "-1"},
            {"id": "e3", "epsilon": "0.1234567890123"},
            {"id": "e4"},
            {"id": "e5", "epsilon": "0"},
        ],
    }
    assert _every_error(config, "level") == [
        ("dp.epsilon.not_positive", "e2"),
        ("dp.epsilon.decimals", "e3"),
        ("dp.epsilon.missing", "e4"),
        ("dp.level.not_positive", "e5"),
    ]


def test_every_option_at_fault_is_reported_and_a_rule_between_options_waits_only_for_them():
    """docs/dp.md: every error of the configuration at once. A bad ``spearman_gate`` hides
    neither a bad ``plausibility_z`` nor a bad ``publish_truth``, and the rule between the
    batch track and the neighbouring tables is checked although an unrelated option is
    wrong."""
    config = {
        "attributes": {"g": ["F", "M"]},
        "workload": [{"id": "t", "attributes": ["g"]}],
        "levels": [{"id": "e1", "epsilon": "1"}],
        "adjacency": "add_remove",
        "tracks": {"interactive": True, "batch": "platform"},
        "spearman_gate": 2,
        "plausibility_z": -1,
        "publish_truth": "yes",
    }
    assert _every_error(config, "key") == [
        ("dp.config.bad_value", "spearman_gate"),
        ("dp.config.bad_value", "plausibility_z"),
        ("dp.config.bad_value", "publish_truth"),
        ("dp.config.batch_needs_replace", None),
    ]
