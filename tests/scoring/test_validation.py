"""Submission validation: a corpus of bad files generated here, each with its message."""

import re

import pandas as pd
import pytest

import scoring
from scoring import ValidationError
from scoring.tables import MAX_CELL_BYTES

HEADER = "age,sex,city,income,spend"
ORIGINAL = f"{HEADER}\n39,M,東京,100,5.5\n40,F,大阪,200,6\n41,M,東京,300,7\n39,F,京都,400,8\n"
CONFIG = {
    "qi": ["age", "sex", "city"],
    "sa": ["income", "spend"],
    "cross": ["age"],
    "e2_column": "income",
    "e4_column": "spend",
}


@pytest.fixture
def original():
    return scoring.read_table(ORIGINAL.encode("utf-8"), name="original.csv")


@pytest.fixture
def config(original):
    return scoring.load_config(CONFIG, original)


def submit(original, config, text: str, encoding: str = "utf-8"):
    anonymized = scoring.read_table(text.encode(encoding), name="submission.csv")
    scoring.validate_submission(original, anonymized, config)
    return anonymized


def rows(*lines: str) -> str:
    return HEADER + "\n" + "\n".join(lines) + "\n"


VALID = ["39,M,東京,110,5", "40,F,大阪,190,6", "41,M,東京,310,7", "39,F,京都,390,8"]


def test_valid_submission_passes(original, config):
    submit(original, config, rows(*VALID))


def test_cp932_file_is_decoded(original, config):
    anonymized = submit(original, config, rows(*VALID), encoding="cp932")
    assert anonymized["city"].tolist() == ["東京", "大阪", "東京", "京都"]


def test_utf8_bom_is_accepted(original, config):
    data = b"\xef\xbb\xbf" + rows(*VALID).encode("utf-8")
    anonymized = scoring.read_table(data)
    assert list(anonymized.columns) == HEADER.split(",")
    scoring.validate_submission(original, anonymized, config)


def test_crlf_line_ends_and_spaces_are_accepted(original, config):
    text = rows(*(f" {line.replace(',', ' , ')} " for line in VALID)).replace("\n", "\r\n")
    anonymized = submit(original, config, text)
    assert anonymized.iloc[0].tolist() == ["39", "M", "東京", "110", "5"]


def test_undecodable_bytes_are_rejected():
    data = rows(*VALID).encode("utf-8") + b"39,M,\x85\x40,1,2\n"
    with pytest.raises(ValidationError, match="not UTF-8|mostly UTF-8") as info:
        scoring.read_table(data, name="submission.csv")
    assert "line 6" in str(info.value)
    assert "Save it as UTF-8" in str(info.value)


@pytest.mark.parametrize(
    ("separator", "en", "ja"), [("\t", "tabs", "タブ"), (";", "semicolons", "セミコロン")]
)
def test_a_table_separated_by_tabs_or_semicolons_is_told_so(original, config, separator, en, ja):
    # Saved as "Text (tab delimited)" (or a CSV of a locale whose separator is ";"), the
    # table was refused as missing every column and holding one unknown column, the whole
    # header line: nothing said what to do.
    text = rows(*VALID).replace(",", separator)
    with pytest.raises(ValidationError) as caught:
        submit(original, config, text)
    assert f"the file's columns are separated by {en}, not commas" in str(caught.value)
    assert "missing column" not in str(caught.value)
    assert f"カンマではなく{ja}で区切られています" in caught.value.render("ja")


def test_missing_column_is_named(original, config):
    text = "age,sex,income,spend\n" + "\n".join("39,M,1,2" for _ in range(4)) + "\n"
    with pytest.raises(ValidationError, match=r"missing column\(s\): 'city'"):
        submit(original, config, text)


def test_extra_column_is_named(original, config):
    text = HEADER + ",note\n" + "\n".join(line + ",x" for line in VALID) + "\n"
    with pytest.raises(ValidationError, match=r"unexpected column\(s\): 'note'"):
        submit(original, config, text)


def test_misordered_columns_are_named(original, config):
    text = "sex,age,city,income,spend\n" + "\n".join("M,39,東京,1,2" for _ in range(4)) + "\n"
    with pytest.raises(ValidationError, match=r"misordered column\(s\): 'sex', 'age'"):
        submit(original, config, text)


def test_wrong_row_count(original, config):
    with pytest.raises(ValidationError, match="has 3 data rows; expected 4"):
        submit(original, config, rows(*VALID[:3]))


def test_every_row_deleted(original, config):
    with pytest.raises(ValidationError, match="Every row of the submission is deleted"):
        submit(original, config, rows(*([",,,,"] * 4)))


def test_deleted_row_is_accepted(original, config):
    submit(original, config, rows(VALID[0], ",,,,", VALID[2], VALID[3]))


def test_empty_cell_in_kept_row_names_column_and_row(original, config):
    text = rows(VALID[0], "40,,大阪,190,6", VALID[2], "39,F,京都,,")
    with pytest.raises(ValidationError) as info:
        submit(original, config, text)
    message = str(info.value)
    assert "row 2 ('sex')" in message
    assert "row 4 ('income', 'spend')" in message
    assert "numbered from 1 after the header" in message


def test_value_outside_domain_names_column_rows_values(original, config):
    text = rows("39,M,東京,110,5", "40,F,札幌,190,6", VALID[2], "39,F,那覇,390,8")
    with pytest.raises(ValidationError) as info:
        submit(original, config, text)
    message = str(info.value)
    assert "'city'" in message and "row 2 ('札幌')" in message and "row 4 ('那覇')" in message


def test_domain_listing_is_capped_at_ten_rows_with_total():
    n = 15
    original = scoring.read_table(("q,s\n" + "".join(f"{k % 2},{k}\n" for k in range(n))).encode())
    config = scoring.load_config(
        {"qi": ["q"], "sa": ["s"], "cross": [], "e2_column": "s", "e4_column": "s"}, original
    )
    bad = scoring.read_table(("q,s\n" + "".join(f"7,{k}\n" for k in range(n))).encode())
    with pytest.raises(ValidationError) as info:
        scoring.validate_submission(original, bad, config)
    message = str(info.value)
    assert "(15 rows in total)" in message
    assert len(re.findall(r"row \d+ \('7'\)", message)) == 10


@pytest.mark.parametrize("value", ["abc", "NaN", "inf", "-inf", "1,5x"])
def test_non_numeric_sa_is_rejected(original, config, value):
    text = rows(VALID[0], f'40,F,大阪,"{value}",6', VALID[2], VALID[3])
    with pytest.raises(ValidationError) as info:
        submit(original, config, text)
    message = str(info.value)
    assert "'income'" in message and "finite number" in message
    assert f"row 2 ({value!r})" in message


def test_integer_qi_written_as_float_is_accepted(original, config):
    submit(original, config, rows("39.0,M,東京,110,5", "+40,F,大阪,190,6", VALID[2], VALID[3]))


def test_non_integral_value_in_integer_qi_is_outside_domain(original, config):
    with pytest.raises(ValidationError, match=r"'age'.*row 1 \('39.5'\)"):
        submit(original, config, rows("39.5,M,東京,110,5", *VALID[1:]))


def test_duplicate_header():
    with pytest.raises(ValidationError, match=r"duplicate column name\(s\) in the header: 'a'"):
        scoring.read_table(b"a,b,a\n1,2,3\n")


@pytest.mark.parametrize("data", [b"", b"   \n\n", b"\xef\xbb\xbf"])
def test_empty_file(data):
    with pytest.raises(ValidationError, match="is empty"):
        scoring.read_table(data, name="submission.csv")


def test_binary_file():
    with pytest.raises(ValidationError, match="binary file"):
        scoring.read_table(b"PK\x03\x04\x00\x00\x14\x00", name="submission.csv")


def test_ragged_row_names_the_row():
    with pytest.raises(ValidationError, match="row 2 has 2 fields"):
        scoring.read_table(b"a,b,c\n1,2,3\n4,5\n6,7,8\n")


def test_quoted_fields_with_commas_and_newlines():
    table = scoring.read_table(b'a,b\n"x, y",1\n"multi\nline",2\n')
    assert table["a"].tolist() == ["x, y", "multi\nline"]


def test_read_table_returns_trimmed_object_strings():
    table = scoring.read_table(b"a,b\n 1 ,x\n,\n")
    assert table.dtypes.tolist() == [object, object]
    assert table.values.tolist() == [["1", "x"], ["", ""]]
    assert all(type(v) is str for v in table.values.ravel())


def test_whitespace_only_line_is_a_deleted_row(original, config):
    anonymized = submit(original, config, rows(VALID[0], "   ", VALID[2], VALID[3]))
    assert anonymized.iloc[1].tolist() == [""] * 5


def test_validate_original_rejects_empty_cells(config):
    original = scoring.read_table(ORIGINAL.replace("40,F", "40,").encode())
    with pytest.raises(ValidationError, match="original table has empty cells at row 2"):
        scoring.validate_original(original, config)


def test_evaluate_validates_first(original, config):
    bad = scoring.read_table(rows(*VALID[:3]).encode())
    with pytest.raises(ValidationError):
        scoring.evaluate(original, bad, config)


def test_tables_from_generated_frames_need_no_csv(original, config):
    frame = pd.DataFrame([line.split(",") for line in VALID], columns=HEADER.split(","))
    scoring.validate_submission(original, frame.astype(object), config)


def test_header_only_submission_has_zero_rows(original, config):
    with pytest.raises(ValidationError, match="has 0 data rows; expected 4"):
        submit(original, config, HEADER + "\n")


@pytest.mark.parametrize("line_end", ["\r", "\r\n"], ids=["CR", "CRLF"])
def test_cr_only_line_ends_are_read_like_crlf(original, config, line_end):
    text = rows(*VALID).replace("\n", line_end)
    anonymized = submit(original, config, text)
    assert anonymized.values.tolist() == scoring.read_table(rows(*VALID).encode()).values.tolist()


def test_cr_only_file_errors_name_the_right_row(original, config):
    text = rows(VALID[0], "40,F,大阪,abc,6", *VALID[2:]).replace("\n", "\r")
    with pytest.raises(ValidationError) as info:
        submit(original, config, text)
    assert "not a finite number at row 2 ('abc') (1 row in total)" in str(info.value)


def test_cp932_submission_with_full_width_numbers(original, config):
    """Full-width digits are numbers in sa and integer QI columns; text QI stays as typed."""
    text = rows("３９,M,東京,１１０,５．５", "40,F,大阪,190,6", *VALID[2:])
    anonymized = submit(original, config, text, encoding="cp932")
    values = scoring.evaluate(original, anonymized, config)
    plain = submit(original, config, rows("39,M,東京,110,5.5", "40,F,大阪,190,6", *VALID[2:]))
    assert values == scoring.evaluate(original, plain, config)


BAD_FILES = {
    "empty cell": (rows(VALID[0], "40,,大阪,190,6", *VALID[2:]), "row 2 ('sex') (1 row in total)"),
    "not a number": (
        rows(VALID[0], "40,F,大阪,x,6", *VALID[2:]),
        "not a finite number at row 2 ('x') (1 row in total)",
    ),
    "outside the domain": (
        rows(VALID[0], "40,F,札幌,190,6", *VALID[2:]),
        "original table: row 2 ('札幌') (1 row in total)",
    ),
    "ragged row": (rows(VALID[0], "40,F", *VALID[2:]), "row 2 has 2 fields (1 row in total)"),
}


@pytest.mark.parametrize(("text", "phrase"), BAD_FILES.values(), ids=BAD_FILES.keys())
def test_every_row_listing_gives_the_total(original, config, text, phrase):
    with pytest.raises(ValidationError) as info:
        submit(original, config, text)
    assert phrase in str(info.value)


def test_original_empty_cells_give_the_total(config):
    original = scoring.read_table(ORIGINAL.replace("40,F", "40,").encode())
    with pytest.raises(ValidationError) as info:
        scoring.validate_original(original, config)
    assert "empty cells at row 2 (1 row in total)" in str(info.value)


HUGE = "x" * 10_000_000
LONG = "x" * MAX_CELL_BYTES  # the longest cell a table may hold: echoed clipped


@pytest.mark.parametrize(
    "text",
    [
        rows(VALID[0], f"40,F,{LONG},190,6", *VALID[2:]),
        rows(VALID[0], f"40,F,大阪,{LONG},6", *VALID[2:]),
        f"{HEADER},{LONG}\n" + "\n".join(v + ",1" for v in VALID) + "\n",
        f"age,sex,{LONG},income,spend\n" + "\n".join(VALID) + "\n",
    ],
    ids=["domain", "number", "extra column", "misnamed column"],
)
def test_messages_echo_at_most_80_characters_of_a_cell(original, config, text):
    with pytest.raises(ValidationError) as info:
        submit(original, config, text)
    message = str(info.value)
    assert f"'{'x' * 79}…'" in message
    assert len(message) < 600
    assert len(info.value.render("ja")) < 600


@pytest.mark.parametrize(
    "text, code",
    [
        (rows(VALID[0], f"40,F,{HUGE},190,6", *VALID[2:]), "table.cell_too_long"),
        (f"{HEADER},{HUGE}\n" + "\n".join(VALID) + "\n", "table.header_cell_too_long"),
    ],
    ids=["cell", "header"],
)
def test_a_huge_cell_gets_a_short_clear_message(original, config, text, code):
    with pytest.raises(ValidationError) as info:
        submit(original, config, text)
    assert info.value.code == code
    assert f"at most {MAX_CELL_BYTES} bytes" in str(info.value)
    assert "x" * 80 not in str(info.value) and len(info.value.render("ja")) < 300
