"""A hostile cell is refused before it costs memory, by every reader, naming where it is.

Field test 4 found a 1 MB synthetic release (6,000 Adult rows, one 400 KB cell) that took
the worker to 17.6 GB: a column of text cells cast to NumPy's fixed-width text dtype.
:func:`scoring.table_bounds.check_cell_lengths` bounds every cell of every table on the raw
bytes, before Arrow or the checking reader runs; the synthetic reader keeps its cells as
objects, so even a cell within the bound costs its own size only.
"""

import tracemalloc

import pytest

import scoring.table_bounds as table_bounds
import scoring.tables as tables
from scoring.errors import ValidationError
from scoring.messages import render
from scoring.synthetic.release import read_release
from scoring.tables import MAX_CELL_BYTES, MAX_COLUMNS, check_cell_lengths, load_table
from tests.scoring.synth_support import small_population

LONG = MAX_CELL_BYTES + 1


def refusal(data: bytes) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        load_table(data, name="upload.csv")
    return caught.value


@pytest.mark.parametrize(
    "data, column, row",
    [
        (b"a,b\n1,2\n3," + b"x" * LONG + b"\n", "b", 2),  # plain: Arrow's file
        (b'a,b\n"1",2\n' + b"y" * LONG + b",4\n", "a", 2),  # quoted: the checking reader's
        (b"a,b\n1,2\n3," + b"z" * LONG, "b", 2),  # the last cell, no line end
        (b"a,b\r\n1," + b"w" * LONG + b"\r\n3,4\r\n", "b", 1),  # Windows line ends
        # Commas inside quoted cells before it (a sequential release's intervals) separate
        # nothing: the long cell is column d, the fourth, not the seventh.
        (b'a,b,c,d\n1,"[22,52]","[14000,33000]",' + b"v" * LONG + b"\n", "d", 1),
    ],
)
def test_a_cell_over_the_bound_is_refused_naming_its_column_row_and_the_limit(data, column, row):
    error = refusal(data)
    assert error.code == "table.cell_too_long"
    assert error.params["column"] == column and error.params["row"] == row
    assert error.params["limit"] == MAX_CELL_BYTES and error.params["size"] == LONG
    english, japanese = (
        render(error.code, error.params, "en"),
        render(error.code, error.params, "ja"),
    )
    assert f"column '{column}' at row {row}" in english and f"{MAX_CELL_BYTES} bytes" in english
    assert f"列 '{column}' の {row} 行目" in japanese


def test_a_shift_jis_cell_is_measured_as_utf_8_and_a_cell_at_the_bound_is_kept():
    # 342 "あ" are 684 bytes of CP932 and 1,026 of UTF-8: refused, named as in UTF-8.
    error = refusal(b"a,b\n1," + ("あ" * 342).encode("cp932") + b"\n")
    assert error.code == "table.cell_too_long" and error.params["size"] == 1026
    table = load_table(b"a,b\n1," + b"k" * MAX_CELL_BYTES + b"\n", name="upload.csv")
    assert len(table.to_frame().loc[0, "b"]) == MAX_CELL_BYTES


def test_a_header_field_over_the_bound_is_refused_as_the_header():
    error = refusal(b"a," + b"h" * LONG + b"\n1,2\n")
    assert error.code == "table.header_cell_too_long" and error.params["column"] == 2


def test_the_bound_is_checked_before_any_parser_runs(monkeypatch):
    def parser_reached(*args, **kwargs):
        raise AssertionError("a parser saw the hostile file")

    monkeypatch.setattr(tables, "_read_plain", parser_reached)
    monkeypatch.setattr(tables, "_read_checked", parser_reached)
    assert refusal(b"a,b\n1," + b"x" * 400_000 + b"\n").code == "table.cell_too_long"


def test_a_run_across_two_scanned_slices_is_found(monkeypatch):
    # Slices of 64 bytes: the long cell starts in one slice and ends two slices later; a
    # file of short cells across many slices passes.
    monkeypatch.setattr(table_bounds, "_CELL_SCAN_BYTES", 64)
    check_cell_lengths(b"a,b\n" + b"1,22\n" * 100, limit=10)
    with pytest.raises(ValidationError) as caught:
        check_cell_lengths(b"a,b\n" + b"1,22\n" * 20 + b"3," + b"q" * 150 + b"\n5,6\n", limit=100)
    assert caught.value.params["row"] == 21 and caught.value.params["size"] == 150
    with pytest.raises(ValidationError):  # a slice with no separator at all
        check_cell_lengths(b"a,b\n1," + b"q" * 300, limit=100)


def test_a_release_s_text_cells_cost_their_own_size_not_rows_times_the_longest():
    # 2,000 rows, one categorical cell of 1,000 bytes (within the bound, outside the domain):
    # a fixed-width cast would allocate 2,000 × 1,000 × 4 = 8 MB for that column.
    population = small_population()
    lines = [b"x,c,y"] + [b"10,q,n"] * 1999 + [b"10," + b"p" * 1000 + b",n"]
    tracemalloc.start()
    try:
        with pytest.raises(Exception) as caught:
            read_release(b"\n".join(lines) + b"\n", population)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "row 2000" in str(caught.value)
    assert peak < 4_000_000, f"reading the release peaked at {peak:,} bytes"


def test_a_header_wider_than_the_bound_is_refused_before_any_parser_runs(monkeypatch):
    def parser_reached(*args, **kwargs):
        raise AssertionError("a parser saw the hostile file")

    monkeypatch.setattr(tables, "_read_plain", parser_reached)
    monkeypatch.setattr(tables, "_read_checked", parser_reached)
    columns = MAX_COLUMNS + 1
    data = b",".join(b"c%d" % k for k in range(columns)) + b"\n" + b"1," * (columns - 1) + b"1\n"
    error = refusal(data)
    assert error.code == "table.too_many_columns"
    assert (error.params["got"], error.params["most"]) == (columns, MAX_COLUMNS)
    assert f"at most {MAX_COLUMNS}" in render(error.code, error.params, "en")
    assert f"{MAX_COLUMNS} 個まで" in render(error.code, error.params, "ja")


def test_a_table_at_the_column_bound_is_read():
    data = b",".join(b"c%d" % k for k in range(MAX_COLUMNS)) + b"\n" + b"1," * (MAX_COLUMNS - 1)
    assert len(load_table(data + b"1\n", name="upload.csv").columns) == MAX_COLUMNS
