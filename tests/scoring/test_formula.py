"""The round total's formula language (scoring/formula.py): values, names, refusals."""

import pytest

from scoring.formula import FormulaError, formula_check, formula_names, formula_value

PWSCUP_2024 = "max(0, A + U - 2*(50-A)*(A<50) - 2*(50-U)*(U<50))"


@pytest.mark.parametrize(
    ("a", "u", "expected"),
    [
        (60.0, 55.0, 115.0),  # both above 50: no penalty
        (40.0, 70.0, 90.0),  # 110 - 2*10
        (70.0, 45.0, 105.0),  # 115 - 2*5
        (30.0, 20.0, 0.0),  # 50 - 2*20 - 2*30 = -50, floored at 0
        (50.0, 50.0, 100.0),  # exactly 50 is not below 50
    ],
)
def test_pwscup_2024_total_on_hand_computed_values(a, u, expected):
    formula_check(PWSCUP_2024, ["A", "U"])
    assert formula_value(PWSCUP_2024, {"A": a, "U": u}) == expected


def test_the_language_arithmetic_comparisons_logic_conditionals_functions():
    values = {"utility": 0.8, "protection": 0.5}
    assert formula_value("(utility + protection) / 2", values) == pytest.approx(0.65)
    assert formula_value("2 * utility * protection / (utility + protection)", values) == (
        pytest.approx(2 * 0.8 * 0.5 / 1.3)
    )
    assert formula_value("utility ** 2", values) == pytest.approx(0.64)
    assert formula_value("1 if utility > 0.5 and not protection > 0.6 else 0", values) == 1.0
    assert formula_value("min(utility, protection) + abs(-1)", values) == 1.5
    assert formula_value("utility >= 0.8 or protection == 1", values) == 1.0
    assert formula_value("-utility", values) == -0.8


def test_the_names_a_formula_uses_not_its_functions():
    assert formula_names(PWSCUP_2024) == ["A", "U"]
    assert formula_names("max(1, 2)") == []


def test_an_unknown_name_is_named_with_the_known_ones():
    with pytest.raises(FormulaError) as caught:
        formula_check("utility + safety", ["utility", "protection"])
    assert caught.value.code == "formula.unknown_name"
    assert caught.value.params["name"] == "safety"
    assert "safety" in str(caught.value) and "utility, protection" in str(caught.value)
    assert "safety" in caught.value.render("ja")


def test_division_by_zero_is_found_on_the_values_and_named():
    formula_check("A / (U - 1)", ["A", "U"])  # the probe (every score 1) divides by zero: fine
    with pytest.raises(FormulaError) as caught:
        formula_value("A / (U - 1)", {"A": 2.0, "U": 1.0})
    assert caught.value.code == "formula.division_by_zero"
    assert "divides by zero" in str(caught.value)
    assert "ゼロで割って" in caught.value.render("ja")


@pytest.mark.parametrize("text", ["1/0", "U1/0", "U1/(E1-E1)", "A / (2*U - U - U)", "1/(0*A)"])
def test_a_formula_that_divides_by_zero_whatever_the_scores_is_refused(text):
    """No team would ever have a total: refused when saved, not found empty once published."""
    with pytest.raises(FormulaError) as caught:
        formula_check(text, ["U1", "E1", "A", "U"])
    assert caught.value.code == "formula.division_by_zero"


@pytest.mark.parametrize("text", ["A / (U - 1)", "1 / (A - U)", "U1 / E1", "1 / (A - 2) + U1"])
def test_a_formula_dividing_by_zero_only_on_some_scores_is_kept(text):
    formula_check(text, ["U1", "E1", "A", "U"])


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("__import__('os').system('true')", "formula.not_allowed"),
        ("A.__class__", "formula.not_allowed"),
        ("A.real", "formula.not_allowed"),
        ("(1).__class__.__bases__", "formula.not_allowed"),
        ("[A][0]", "formula.not_allowed"),
        ("{'a': A}", "formula.not_allowed"),
        ("'x' * 100000", "formula.not_allowed"),
        ("lambda: A", "formula.not_allowed"),
        ("[x for x in (A,)]", "formula.not_allowed"),
        ("A // 2", "formula.not_allowed"),
        ("A % 2", "formula.not_allowed"),
        ("A << 2", "formula.not_allowed"),
        ("open", "formula.unknown_name"),
        ("round(A)", "formula.not_allowed"),
        ("max(A=1)", "formula.not_allowed"),
        ("min(A)", "formula.not_allowed"),
        ("abs(*A)", "formula.not_allowed"),
        ("9 ** 9 ** 9", "formula.power_too_large"),
        ("A ** 101", "formula.power_too_large"),
        ("(9 ** 99) ** 99", "formula.not_finite"),
        ("1e300 * 1e300 * A", "formula.not_finite"),
        ("1e999", "formula.not_allowed"),
        ("A +", "formula.syntax_end"),
        ("A; U", "formula.syntax_at"),
        ("A = 1", "formula.syntax_at"),
        ("", "formula.empty"),
        ("A + " * 200 + "A", "formula.too_long"),
        ("True + A", "formula.not_allowed"),
    ],
)
def test_hostile_or_wrong_formulas_are_refused_with_a_clear_message(text, code):
    with pytest.raises(FormulaError) as caught:
        formula_check(text, ["A", "U"])
    assert caught.value.code == code
    message = str(caught.value)
    assert message.startswith("The formula") and len(message) < 400
    assert caught.value.render("ja") != message


def test_a_long_string_never_travels_whole_in_the_message():
    text = "A + " + "B" * 400
    with pytest.raises(FormulaError) as caught:
        formula_check(text, ["A"])
    assert caught.value.code == "formula.unknown_name"
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("text", "code", "column", "near"),
    [
        ("1 + (", "formula.bracket_unclosed", 5, "'1 + ('"),
        ("(A + U", "formula.bracket_unclosed", 1, "'(A + U'"),
        ("A + U)", "formula.bracket_unmatched", 6, "'A + U)'"),
        ("a b", "formula.syntax_at", 3, "'a b'"),
        ("max(A,, U)", "formula.syntax_at", 7, "'max(A,, U)'"),
        ("A +", "formula.syntax_end", None, "'A +'"),
    ],
)
def test_a_syntax_error_says_where_in_the_readers_words(text, code, column, near):
    with pytest.raises(FormulaError) as caught:
        formula_check(text, ["A", "U", "a", "b"])
    error = caught.value
    assert (error.code, error.params.get("column"), error.params["near"]) == (code, column, near)
    english, japanese = error.render("en"), error.render("ja")
    assert near in english and near in japanese
    if column:
        assert f"character {column} " in english and f"{column} 文字目" in japanese
    for python_words in ("invalid syntax", "was never closed", "Perhaps", "unmatched ')'"):
        assert python_words not in english and python_words not in japanese


@pytest.mark.parametrize("text", ["A // 2", "A % U", "A is U", "~A"])
def test_an_operator_outside_the_language_is_named_as_written(text):
    with pytest.raises(FormulaError) as caught:
        formula_check(text, ["A", "U"])
    assert caught.value.code == "formula.not_allowed"
    assert caught.value.params["what"] == text
