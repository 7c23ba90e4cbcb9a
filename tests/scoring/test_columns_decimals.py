"""Columns of plain decimals read by the fast reader: their numbers come from Arrow's cast
(``scoring.arrow_columns._plain_decimal_numbers``) and must be exactly the one numeric rule's
(``scoring.numbers.parse_numbers``, pandas' parser), text by text and in every score."""

import io
import itertools
import random

import numpy as np
import pyarrow as pa
import pytest

import scoring
from scoring.arrow_columns import ArrowColumn, _plain_decimal_numbers
from scoring.numbers import parse_numbers


def plain_decimals(count: int, seed: int) -> list[str]:
    """Texts of every plain-decimal shape: short amounts with cents, long fractions, up to
    30 digits on either side of the point, a sign, a bare point at either end."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        whole = str(rng.randint(0, 10 ** rng.randint(1, 30)))
        fraction = str(rng.randint(0, 10 ** rng.randint(1, 30))).zfill(rng.randint(1, 30))
        shape = rng.randrange(6)
        text = {
            0: f"{rng.randint(0, 99999)}.{rng.randint(0, 99):02d}",
            1: repr(rng.uniform(0, 1e6)),
            2: f"{whole}.{fraction}",
            3: f".{fraction}",
            4: f"{whole}.",
            5: whole,
        }[shape]
        texts.append(("-" if rng.random() < 0.2 else "") + text)
    return texts


def test_arrow_gives_the_rules_numbers_on_many_plain_decimals():
    texts = plain_decimals(200_000, seed=38)
    fast = _plain_decimal_numbers(pa.array(texts))
    assert fast is not None
    rule = parse_numbers(texts)
    assert not np.isnan(rule).any()
    assert np.array_equal(fast, rule), [
        t for t, a, b in zip(texts, fast, rule, strict=True) if a != b
    ][:5]


@pytest.mark.parametrize("other", ["+5", "1e3", " 5", "５", "nan", "inf", "1_000", "1,5", "x"])
def test_a_text_that_is_not_a_plain_decimal_leaves_the_column_to_the_rule(other):
    assert _plain_decimal_numbers(pa.array(["1.5", "-2.25", other])) is None


def table(text: str):
    return scoring.load_table(io.BytesIO(text.encode()), name="t.csv")


def test_a_table_of_decimals_has_the_numbers_of_its_texts_empty_cells_included():
    cells = ["43969.61", "-0.5", ".5", "39.", "", "0.10", "43969.61", "007.250"]
    loaded = table("v,w\n" + "".join(f"{c},a\n" for c in cells))
    column = loaded.column("v")
    assert isinstance(column, ArrowColumn)  # the fast reader's column, where the cast runs
    got = column.numbers()
    want = parse_numbers(cells)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])
    assert column.empty().tolist() == [c == "" for c in cells]


def test_a_column_with_one_other_text_is_parsed_by_the_rule_the_same_way():
    cells = ["43969.61", "1e3", "+5", "x", ".5"]
    column = table("v\n" + "".join(f"{c}\n" for c in cells)).column("v")
    got = column.numbers()
    want = parse_numbers(cells)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


def every_text(alphabet: str, longest: int):
    for length in range(1, longest + 1):
        yield from ("".join(t) for t in itertools.product(alphabet, repeat=length))


def test_in_the_alphabet_of_decimals_the_cast_takes_exactly_the_rules_numbers():
    """``ArrowColumn._plain_decimal_cells`` casts a whole column once its bytes hold
    digits, ``-`` and ``.`` only: for every text of up to seven such characters (a stray
    sign or point anywhere), a column of that text is either cast to the rule's number or
    refused, and refused exactly when the rule says it is not a number."""
    texts = list(every_text("05-.", 7))
    assert len(texts) == sum(4**k for k in range(1, 8))
    rule = parse_numbers(texts)
    taken = 0
    for text, want in zip(texts, rule, strict=True):
        got = ArrowColumn(pa.array([text]))._plain_decimal_cells()
        if got is None:
            assert np.isnan(want), text
        else:
            taken += 1
            assert got.tolist() == [want], text
    assert taken == np.count_nonzero(~np.isnan(rule))


def test_a_column_of_decimals_needs_no_dictionary_for_its_numbers(monkeypatch):
    """Its numbers and whether it is integral come from the one cast of its cells: the
    dictionary encoding (hashing every cell) is not paid unless codes are asked for."""
    cells = plain_decimals(2_000, seed=7) + [""]
    column = table("v,w\n" + "".join(f"{c},a\n" for c in cells)).column("v")
    monkeypatch.setattr(
        ArrowColumn, "_dictionary_codes", lambda self: pytest.fail("dictionary-encoded")
    )
    got = column.numbers()
    want = parse_numbers(cells)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])
    assert column.is_integral() is False


def test_a_coded_column_reads_its_numbers_through_its_codes(monkeypatch):
    """Once a column is coded (its distinct values have numbers), its cells are not cast
    again: every row's number is its value's, whatever the column holds."""
    cells = ["43969.61", "-0.5", "", "12", "43969.61", ".5"]
    for text in ("v\n" + "".join(f"{c}\n" for c in cells), "v\n1\n2\n\n2\n"):
        column = table(text).column("v")
        column.factorized()
        monkeypatch.setattr(ArrowColumn, "_plain_decimal_cells", lambda self: pytest.fail("cast"))
        got = column.numbers()
        want = parse_numbers(column.values(np.arange(column.size)).tolist())
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])
        monkeypatch.undo()
