"""One numeric rule: whether a cell is a number depends on that cell alone.

Every cell of the table is judged on its own and among several kinds of neighbours
(numbers only, text, full-width digits, underscores): the verdict and the value must
be the same everywhere, in the parser, in validation and in the integer QI columns.
"""

import math
import re

import numpy as np
import pytest

import scoring
from scoring import ValidationError
from scoring.numbers import parse_integers
from scoring.prepare import TableCache, parse_numbers

# cell -> its value by the rule, or None when it is not a number
CELLS = {
    "39": 39.0,
    "+39": 39.0,
    "-39": -39.0,
    "39.0": 39.0,
    "39.": 39.0,
    ".5": 0.5,
    "1e3": 1000.0,
    "-2.5E-1": -0.25,
    "0.30000000000000004": 0.30000000000000004,
    "３９": 39.0,  # full-width digits (NFKC)
    "－３９": -39.0,  # full-width minus sign
    "３９．５": 39.5,
    "1_000": None,
    "1,000": None,
    "0x10": None,
    "٣٩": None,  # Arabic-Indic digits
    # Not digits though Unicode's compatibility mapping makes them ASCII digits: a
    # superscript, a circled number, a mathematical digit ("5²" was read as 52).
    "²": None,
    "5²": None,
    "３²": None,
    "①": None,
    "𝟗": None,
    "₂": None,
    "⒈": None,
    "abc": None,
    "": None,
    "--1": None,
    "1e": None,
    "39 40": None,
}

NEIGHBOURS = {
    "alone": [],
    "numbers": ["1", "2.5", "-3"],
    "text": ["x", "1", "東京"],
    "full-width": ["４０", "1"],
    "underscore": ["2_000", "7"],
    "inf-nan": ["inf", "NaN", "8"],
}


@pytest.mark.parametrize("neighbours", NEIGHBOURS.values(), ids=NEIGHBOURS.keys())
@pytest.mark.parametrize(("cell", "expected"), CELLS.items(), ids=repr)
def test_a_cell_is_a_number_whatever_its_neighbours(cell, expected, neighbours):
    for position in (0, len(neighbours)):
        column = [*neighbours[:position], cell, *neighbours[position:]]
        value = parse_numbers(np.array(column, dtype=object))[position]
        if expected is None:
            assert math.isnan(value), (column, value)
        else:
            assert value == expected, (column, value)


SA_CONFIG = {"qi": ["q"], "sa": ["s"], "cross": [], "e2_column": "s", "e4_column": "s"}


@pytest.mark.parametrize("neighbours", NEIGHBOURS.values(), ids=NEIGHBOURS.keys())
@pytest.mark.parametrize(("cell", "expected"), CELLS.items(), ids=repr)
def test_validation_accepts_a_number_cell_by_cell(cell, expected, neighbours):
    """The first submitted sa cell is judged the same, whatever the other cells hold."""
    n = 1 + len(neighbours)
    original = scoring.read_table(("q,s\n" + "a,1\n" * n).encode())
    config = scoring.load_config(SA_CONFIG, original)
    cells = [cell, *neighbours]
    submission = scoring.read_table(("q,s\n" + "".join(f'a,"{c}"\n' for c in cells)).encode())
    cache = TableCache(submission)
    if expected is None or cell == "":
        assert math.isnan(cache.numbers("s")[0])
    else:
        assert cache.numbers("s")[0] == expected
    finite_neighbours = all(math.isfinite(v) for v in parse_numbers(neighbours))
    if expected is not None and finite_neighbours:
        scoring.validate_submission(original, submission, config)
    elif expected is None and cell != "":
        with pytest.raises(ValidationError, match=re.escape(f"row 1 ({cell!r})")):
            scoring.validate_submission(original, submission, config)


@pytest.mark.parametrize("neighbour", ["40", "x"])
def test_integer_qi_reads_full_width_digits_as_the_integer(neighbour):
    original = scoring.read_table(b"age,s\n39,1\n40,2\n")
    config = scoring.load_config({**SA_CONFIG, "qi": ["age"], "cross": ["age"]}, original)
    # "３９" and "39.0" are 39 in an integer QI column; "1_000" never is a number.
    good = scoring.read_table("age,s\n３９,1\n39.0,2\n".encode())
    scoring.validate_submission(original, good, config)
    bad = scoring.read_table(f"age,s\n1_000,1\n{neighbour},2\n".encode())
    with pytest.raises(ValidationError, match=r"'age'.*row 1 \('1_000'\)"):
        scoring.validate_submission(original, bad, config)


# cell -> its value as an integer, or None when it is not one as written
INTEGER_CELLS = {"12": 12, "+3": 3, "１２": 12, "－７": -7, "²": None, "1²": None, "①": None}


@pytest.mark.parametrize(("cell", "expected"), INTEGER_CELLS.items(), ids=repr)
def test_an_integer_is_written_with_ascii_or_full_width_digits(cell, expected):
    value = parse_integers([cell, "1"])[0]
    if expected is None:
        assert math.isnan(value), value
    else:
        assert value == expected
