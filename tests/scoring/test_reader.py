"""The fast (Arrow) reader and the prepared original give what the checking reader gives.

Every file of the corpus is read twice: by :func:`scoring.load_table` (Arrow for plain
files) and by the checking reader alone; every column must answer the same (text of
every row, empty cells, numbers, comparison keys, integrality), and validation and all
14 metrics must give the same messages and numbers.
"""

import csv
import io

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring.arrow_columns import ArrowColumn
from scoring.columns import ObjectColumn, Table
from scoring.datasets import default_config_dict, generate_anonymized, generate_original
from scoring.table_bounds import structural_lines
from scoring.tables import _decode, _read_checked, load_table, unix_line_ends


def checked(data: bytes) -> Table:
    """The table as the checking reader alone reads it."""
    _, encoding = _decode(data, name="file")
    data = unix_line_ends(data.removeprefix(b"\xef\xbb\xbf")).rstrip(b" \t\r\n")
    return Table.from_frame(_read_checked(data, encoding, name="file"))


def answers(table: Table, *, numbers_first: bool = False) -> dict:
    """Everything the engine asks of a table's columns, per row. ``numbers_first``: ask
    for the numbers and integrality before the codes (a column's numbers then come from its
    cells, otherwise through its codes; both must be the same)."""
    out = {}
    for name in table.columns:
        column = table.column(name)
        if numbers_first:
            early = (np.nan_to_num(column.numbers(), nan=-0.5).tolist(), column.is_integral())
        codes, uniques = column.factorized()
        rows = np.arange(len(table))
        keys = {}
        for integral in (False, True):
            key_codes, key_values = column.keys(integral=integral)
            keys[integral] = [None if c < 0 else key_values[c] for c in key_codes.tolist()]
        out[name] = {
            "text": uniques[codes].tolist(),
            "values": column.values(rows).tolist(),
            "empty": column.empty().tolist(),
            "numbers": np.nan_to_num(column.numbers(), nan=-0.5).tolist(),
            "integral": column.is_integral(),
            "keys": keys,
        }
        _check_integers(column)
        if numbers_first:
            assert early == (out[name]["numbers"], out[name]["integral"]), name
    return out


def _check_integers(column) -> None:
    """A column coded as integers gives its cells' integers as the class ids read them
    (less the smallest, -1 when empty, int32): one value per comparison key."""
    keys = column.keys(integral=True)[1]
    low = int(keys.min()) if keys.size and np.isfinite(keys).all() else 0
    values = column.integers(minus=low, empty=-1, dtype=np.int32)
    if values is None:
        return
    assert values.dtype == np.int32
    key_codes = column.keys(integral=True)[0]
    # the same classes as the comparison keys: one value per key, -1 for no key
    assert [int(v) for v in values] == [
        -1 if c < 0 else int(keys[c]) - low for c in key_codes.tolist()
    ]


PLAIN = {
    "canonical integers": "a,b\n1,39\n-7,0\n1,40\n",
    "leading zeros": "a,b\n007,39\n7,039\n-0,0\n",
    "big integers": "a,b\n1000000000000000,1\n-99999999999999999999,2\n",
    "hex and signs": "a,b\n0x10,+5\n16,5\n",
    "decimals": "a,b\n1.5,39.0\n.5,1e3\ninf,nan\n",
    "text and Japanese": "a,b\nM,東京\nF,大阪\n１,３９\n",
    "empty cells and deleted rows": "a,b\n1,\n,\n,x\n2,3\n",
    "an all-empty column": "a,b\n,1\n,2\n",
    "crlf": "a,b\r\n1,x\r\n2,y\r\n",
    "one column": "a\n1\n\n2\n",
    "minus signs only": "a,b\n-,1\n--,2\n",
    "cr only": "a,b\r1,2\r3,4\r",
}
CHECKED_ONLY = {
    "quoted": 'a,b\n"x, y",1\n"multi\nline",2\n',
    "edge spaces": "a,b\n 1 ,x\n2, y\n",
    "blank line is a deleted row": "a,b\n1,2\n   \n3,4\n",
}


@pytest.mark.parametrize("text", PLAIN.values(), ids=PLAIN.keys())
def test_plain_files_are_read_by_arrow_with_the_same_answers(text):
    data = text.encode("utf-8")
    fast = load_table(data)
    assert all(isinstance(fast.column(c), ArrowColumn) for c in fast.columns)
    assert fast.columns == checked(data).columns
    assert answers(fast) == answers(checked(data))
    assert answers(load_table(data), numbers_first=True) == answers(fast)
    assert fast.to_frame().values.tolist() == scoring.read_table(data).values.tolist()


@pytest.mark.parametrize("text", CHECKED_ONLY.values(), ids=CHECKED_ONLY.keys())
def test_other_files_take_the_checking_reader(text):
    table = load_table(text.encode("utf-8"))
    assert all(isinstance(table.column(c), ObjectColumn) for c in table.columns)
    assert answers(table) == answers(checked(text.encode("utf-8")))


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp932"])
def test_bom_and_cp932_files_are_read_by_arrow(encoding):
    data = PLAIN["text and Japanese"].encode(encoding)
    table = load_table(data)
    assert isinstance(table.column("b"), ArrowColumn)
    assert table.column("b").values(np.arange(3)).tolist() == ["東京", "大阪", "３９"]
    assert answers(table) == answers(checked(data))


def test_a_ragged_plain_file_gets_the_checking_readers_message():
    data = b"a,b,c\n1,2,3\n4,5\n6,7,8\n9\n"
    with pytest.raises(scoring.ValidationError) as info:
        load_table(data, name="submission.csv")
    assert str(info.value) == (
        "submission.csv: wrong number of fields (the header has 3): row 2 has 2 fields, "
        "row 4 has 1 field (2 rows in total). Rows are numbered from 1 after the header line."
    )


CONFIG = {
    "qi": ["age", "sex", "city"],
    "sa": ["income", "spend"],
    "cross": ["age"],
    "e2_column": "income",
    "e4_column": "spend",
}
ORIGINAL = "age,sex,city,income,spend\n39,M,東京,100,5\n40,F,大阪,200,6\n41,M,東京,300,7\n"
BAD_SUBMISSIONS = {
    "not a number": ["39,M,東京,110,x5", "40,F,大阪,190,6", "41,M,東京,310,0x7"],
    "outside the domain": ["39,M,東京,110,5", "042,F,大阪,190,6", "41,M,京都,310,7"],
    "empty cells": ["39,M,,110,5", "40,F,大阪,190,6", ",,,,"],
}


@pytest.mark.parametrize("lines", BAD_SUBMISSIONS.values(), ids=BAD_SUBMISSIONS.keys())
def test_validation_messages_are_the_same_from_either_reader(lines):
    data = ("age,sex,city,income,spend\n" + "\n".join(lines) + "\n").encode()
    original = load_table(ORIGINAL.encode())
    config = scoring.load_config(CONFIG, original)
    messages = []
    for table in (load_table(data), checked(data), scoring.read_table(data)):
        with pytest.raises(scoring.ValidationError) as info:
            scoring.evaluate(original, table, config)
        messages.append(str(info.value))
    assert isinstance(load_table(data).column("age"), ArrowColumn)
    assert messages[0] == messages[1] == messages[2]


def generated(rows: int) -> tuple[bytes, bytes, dict]:
    original = generate_original(rows, seed=7)
    anonymized = generate_anonymized(original, seed=3, delete_fraction=0.1, sa_noise=0.2)
    return (
        original.to_csv(index=False).encode(),
        anonymized.to_csv(index=False).encode(),
        default_config_dict(),
    )


def test_all_metrics_are_identical_from_either_reader_and_prepared():
    x_bytes, a_bytes, raw = generated(3000)
    x_fast, a_fast = load_table(x_bytes), load_table(a_bytes)
    assert isinstance(a_fast.column("food"), ArrowColumn)
    x_frame, a_frame = scoring.read_table(x_bytes), scoring.read_table(a_bytes)
    config = scoring.load_config(raw, x_fast)
    assert config == scoring.load_config(raw, x_frame)
    from_frames = scoring.evaluate(x_frame, a_frame, config)
    from_tables = scoring.evaluate(x_fast, a_fast, config)
    prepared = scoring.prepare_original(x_fast, config)
    from_prepared = [scoring.evaluate(prepared, load_table(a_bytes), config) for _ in range(2)]
    assert from_tables == from_frames
    assert from_prepared == [from_frames, from_frames]
    assert from_frames["kept_rows"] == 2700


def test_a_prepared_original_serves_only_its_configuration():
    x_bytes, a_bytes, raw = generated(200)
    x = load_table(x_bytes)
    prepared = scoring.prepare_original(x, scoring.load_config(raw, x))
    other = scoring.load_config({**raw, "match_qi": ["sex"]}, x)
    with pytest.raises(ValueError, match="prepared for another configuration"):
        scoring.evaluate(prepared, load_table(a_bytes), other)


def test_prepare_original_validates_the_original_once():
    table = load_table(b"age,sex,city,income,spend\n39,M,,100,5\n40,F,X,200,6\n")
    config = scoring.load_config(CONFIG, scoring.read_table(ORIGINAL.encode()))
    with pytest.raises(scoring.ValidationError, match="original table has empty cells at row 1"):
        scoring.prepare_original(table, config)


def test_frames_still_work_everywhere():
    frame = pd.DataFrame({"a": ["1", "2"], "b": ["x", "y"]}, dtype=object)
    table = Table.from_frame(frame)
    assert table.to_frame().values.tolist() == frame.values.tolist()


CELL_PARTS = ["0", "1", "7", "39", "-", "+", ".", "e", "x", "0x1F", "東京", "３９", "", "_"]


@pytest.mark.parametrize("seed", range(40))
def test_random_plain_tables_give_the_same_answers_from_either_reader(seed):
    """Cells built from digits, signs, points, exponents, words and empties, at random."""
    rng = np.random.default_rng(seed)
    columns = int(rng.integers(1, 4))
    rows = []
    for _ in range(int(rng.integers(1, 30))):
        cells = []
        for _ in range(columns):
            parts = rng.choice(CELL_PARTS, size=int(rng.integers(0, 4)))
            cells.append("".join(parts))
        rows.append(",".join(cells))
    header = ",".join(f"c{k}" for k in range(columns))
    data = (header + "\n" + "\n".join(rows) + "\n").encode("utf-8")
    fast = load_table(data)
    if len(fast):  # a table whose rows are all blank has no body left for Arrow
        assert isinstance(fast.column("c0"), ArrowColumn)
    assert answers(fast) == answers(checked(data))
    assert answers(load_table(data), numbers_first=True) == answers(fast)


def test_lines_without_a_separator_are_blank_rows_or_ragged_ones():
    blank = b"a,b\n1,2\n \t\n\x0b\n3,4\n"
    assert load_table(blank).to_frame().values.tolist() == [
        ["1", "2"],
        ["", ""],
        ["", ""],
        ["3", "4"],
    ]
    with pytest.raises(scoring.ValidationError) as info:
        load_table(b"a,b\n1,2\n \t\n 7 \n3,4\n", name="submission.csv")
    assert str(info.value) == (
        "submission.csv: wrong number of fields (the header has 2): row 3 has 1 field "
        "(1 row in total). Rows are numbered from 1 after the header line."
    )


# A quote opens a quoted field only as the field's first byte, in pandas' C parser (the
# checking reader) as in Python's csv module: after a space it is a literal character, and a
# comma after it separates fields. The field count check must split lines the same way.
SPACE_BEFORE_QUOTE = (
    b"gid,pid,Age,Zip,Disease\n"
    b'1,Alice, "[22,52]","[14000,33000]",bronchitis\n'
    b'1,Paul,"[22,52]","[14000,33000]",dyspepsia\n'
)


def test_a_space_before_a_quoted_comma_makes_the_row_ragged():
    with pytest.raises(scoring.ValidationError) as info:
        load_table(SPACE_BEFORE_QUOTE, name="anonymized.csv")
    assert info.value.code == "table.ragged"
    assert str(info.value) == (
        "anonymized.csv: wrong number of fields (the header has 5): row 1 has 6 fields "
        "(1 row in total). Rows are numbered from 1 after the header line."
    )
    with pytest.raises(scoring.ValidationError, match="row 1 has 6 fields"):
        checked(SPACE_BEFORE_QUOTE)
    rows = list(csv.reader(io.StringIO(SPACE_BEFORE_QUOTE.decode(), newline="")))
    assert [len(row) for row in rows] == [5, 6, 5]  # Python's csv module splits it so too


def test_a_space_before_a_quoted_field_without_a_comma_is_read_as_it_is():
    data = b'a,b,c\n1, "x",2\n3,"y",4\n5, "",6\n'
    # The quotes after the space are literal characters of the cell; the space is trimmed.
    assert load_table(data).to_frame().values.tolist() == [
        ["1", '"x"', "2"],
        ["3", "y", "4"],
        ["5", '""', "6"],
    ]
    rows = list(csv.reader(io.StringIO(data.decode(), newline="")))
    assert rows[1:] == [["1", ' "x"', "2"], ["3", "y", "4"], ["5", ' ""', "6"]]


def test_quoted_fields_with_commas_are_read():
    data = b'gid,pid,Age\n1,Alice,"[22,52]"\n1,"Paul, Jr.","[22,52]"\n2, Bob ,"a ""b"", c"\n'
    assert load_table(data).to_frame().values.tolist() == [
        ["1", "Alice", "[22,52]"],
        ["1", "Paul, Jr.", "[22,52]"],
        ["2", "Bob", 'a "b", c'],
    ]


def test_a_quote_after_a_closed_quoted_field_is_a_literal_character():
    assert load_table(b'a,b\n"x"y"z,1\n').to_frame().values.tolist() == [['xy"z', "1"]]
    with pytest.raises(scoring.ValidationError, match="row 1 has 3 fields"):
        load_table(b'a,b\n"x"y"z,1",2\n')


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        (b"a,b\n1,2,3\n4,5\n", "Expected 2 fields in line 2, saw 3"),
        (b"a,b\n1,2\n4,5,6\n", "Expected 2 fields in line 3, saw 3"),
    ],
)
def test_the_checking_reader_never_makes_an_extra_field_the_index(monkeypatch, data, detail):
    """Should the field counts ever disagree with the parser, the file is refused as
    unreadable: an extra field never becomes the index that shifts every column."""
    import scoring.tables

    def undercounted(data):
        starts, ends, fields = structural_lines(data)
        return starts, ends, np.minimum(fields, fields[0])

    monkeypatch.setattr(scoring.tables, "structural_lines", undercounted)
    with pytest.raises(scoring.ValidationError) as info:
        checked(data)
    assert info.value.code == "table.unparsable"
    assert detail in str(info.value)


def test_a_one_column_table_refuses_a_line_with_a_separator():
    with pytest.raises(scoring.ValidationError, match=r"\(the header has 1\): row 1 has 2 fields"):
        load_table(b"a\n1,2\n3\n")
    assert load_table(b"a\n1\n\n3\n").to_frame().values.tolist() == [["1"], [""], ["3"]]


@pytest.mark.parametrize(
    ("data", "positions"),
    [
        (b"a,,c\n1,2,3\n", "2"),  # plain: the Arrow reader's path
        (b'a,,"c"\n1,2,3\n', "2"),  # quoted: the checking reader's
        (b"a,b,\n1,2,\n", "3"),  # a trailing comma
        (b",a,b\n0,1,2\n", "1"),  # a spreadsheet's index column
        (b"a, ,c,\n1,2,3,4\n", "2, 4"),  # whitespace only is no name either
        (b" \n1\n", "1"),  # a one-column table whose header is blank
    ],
)
def test_a_column_without_a_name_is_refused_naming_its_position(data, positions):
    with pytest.raises(scoring.ValidationError) as info:
        load_table(data, name="original.csv")
    assert info.value.code == "table.empty_column_name"
    assert str(info.value) == (
        f"original.csv: the header gives no name to column(s) {positions} (counted from 1 at "
        "the left); every column needs a name."
    )
    assert f"左から {positions} 番目" in info.value.render("ja")
