"""Attack-phase correspondence tables: parsing, messages with line numbers, rate."""

import numpy as np
import pytest

import scoring
from scoring import ValidationError


def read(text: str, rows: int = 3, reference_rows: int = 5):
    return scoring.read_correspondence(text.encode(), rows=rows, reference_rows=reference_rows)


def test_plain_answer():
    assert read("3\n1\n5\n").tolist() == [3, 1, 5]


def test_header_line_is_allowed():
    assert read("guess\n3\n1\n5\n").tolist() == [3, 1, 5]


def test_empty_and_zero_mean_no_guess():
    assert read("\n0\n4\n").tolist() == [0, 0, 4]
    assert read("row\n\n\n2").tolist() == [0, 0, 2]


def test_crlf_bom_and_spaces():
    data = b'\xef\xbb\xbf 2 \r\n\r\n"3"\r\n'
    assert scoring.read_correspondence(data, rows=3, reference_rows=5).tolist() == [2, 0, 3]


@pytest.mark.parametrize(("text", "got"), [("1\n2\n", 2), ("1\n2\n3\n4\n", 4), ("id\n1\n", 1)])
def test_wrong_line_count(text, got):
    with pytest.raises(ValidationError, match=f"has {got} answer lines.*expected 3"):
        read(text)


def test_non_integers_are_named_with_line_numbers():
    with pytest.raises(ValidationError) as info:
        read("guess\n1\n2.5\nx\n")
    message = str(info.value)
    assert "line 3 ('2.5')" in message and "line 4 ('x')" in message
    assert "line 2" not in message


def test_more_than_one_field_is_rejected():
    with pytest.raises(ValidationError) as info:
        read("1\n15489,1\n3\n")
    assert "one row number per line; line 2 has 2 fields ('15489,1') (1 line in total)" in str(
        info.value
    )


def test_out_of_range_with_line_numbers():
    with pytest.raises(ValidationError) as info:
        read("6\n1\n-1\n")
    message = str(info.value)
    assert "between 1 and 5" in message
    assert "line 1 ('6')" in message and "line 3 ('-1')" in message


def test_listing_is_capped_with_total():
    text = "\n".join(["9"] * 12) + "\n"
    with pytest.raises(ValidationError) as info:
        scoring.read_correspondence(text.encode(), rows=12, reference_rows=5)
    assert "(12 lines in total)" in str(info.value)
    assert "line 11" not in str(info.value)


def test_from_path_and_file_object(tmp_path):
    path = tmp_path / "answer.csv"
    path.write_text("1\n2\n3\n")
    assert scoring.read_correspondence(path, rows=3, reference_rows=3).tolist() == [1, 2, 3]
    with open(path, "rb") as handle:
        assert scoring.read_correspondence(handle, rows=3, reference_rows=3).tolist() == [1, 2, 3]


def test_rate_counts_exact_matches_over_published_rows():
    score = scoring.score_correspondence(np.array([3, 0, 2, 2]), np.array([3, 1, 2, 4]))
    assert score == scoring.AttackScore(rate=0.5, correct=2, rows=4)


def test_no_guess_never_scores_even_for_absent_rows():
    score = scoring.score_correspondence(np.array([0, 0]), np.array([0, 2]))
    assert score.correct == 0 and score.rate == 0.0


def test_score_length_mismatch():
    with pytest.raises(ValidationError):
        scoring.score_correspondence(np.array([1]), np.array([1, 2]))


@pytest.mark.parametrize("data", [b"\n\n\n", b"\r\n\r\n\r\n", b"\r\r\r", b" \n\t\n\n"])
def test_a_file_of_empty_lines_is_no_guess_lines(data):
    answer = scoring.read_correspondence(data, rows=3, reference_rows=5)
    assert answer.tolist() == [0, 0, 0]
    assert scoring.score_correspondence(answer, np.array([1, 2, 3])).rate == 0.0


@pytest.mark.parametrize("data", [b"", b"\xef\xbb\xbf"])
def test_only_a_file_without_any_line_is_empty(data):
    with pytest.raises(ValidationError) as info:
        scoring.read_correspondence(data, rows=3, reference_rows=5)
    assert str(info.value) == (
        "The correspondence table is empty; expected 3 lines (one line per row of the "
        "published table, empty or 0 for no guess)."
    )


def test_full_width_digits_are_the_same_numbers():
    answer = read("guess\n１\n\n５\n")
    assert answer.tolist() == [1, 0, 5]
    assert scoring.score_correspondence(answer, np.array([1, 2, 5])).correct == 2
    assert read("＋３\n０\n２\n").tolist() == [3, 0, 2]


@pytest.mark.parametrize("value", ["1e2", "1.0", "２．０", "1E0", "0x1", "1_0"])
def test_a_row_number_is_an_integer_as_written(value):
    """The spec says integer: 1e2 is not read as 100, nor 1.0 as 1 (issue 21)."""
    with pytest.raises(ValidationError) as info:
        read(f"guess\n1\n{value}\n", rows=2)
    assert info.value.code == "answer.not_integer"
    assert f"not an integer at line 3 ('{value}')" in str(info.value)


def test_full_width_digits_out_of_range_are_named():
    with pytest.raises(ValidationError) as info:
        read("１\n９９\n２\n")
    assert "out of range at line 2 ('９９') (1 line in total)" in str(info.value)


def test_a_first_line_with_several_fields_is_not_a_header():
    with pytest.raises(ValidationError) as info:
        read("1,2\n3\n1\n")
    message = str(info.value)
    assert "one row number per line; line 1 has 2 fields ('1,2') (1 line in total)" in message


def test_several_fields_are_listed_with_the_total():
    text = "\n".join(f"{k},1" for k in range(12)) + "\n"
    with pytest.raises(ValidationError) as info:
        scoring.read_correspondence(text.encode(), rows=12, reference_rows=20)
    message = str(info.value)
    assert "line 10 has 2 fields ('9,1') (12 lines in total)" in message
    assert "line 11" not in message


@pytest.mark.parametrize("header", ["", "推測\n", "ｇｕｅｓｓ\n"])
def test_cp932_answers(header):
    data = (header + "１\n\n3\n").encode("cp932")
    assert scoring.read_correspondence(data, rows=3, reference_rows=5).tolist() == [1, 0, 3]


@pytest.mark.parametrize(
    "data", [b"1\r2\r3\r", b"1\r2\r3", b"guess\r1\r2\r3\r", b"1\r\n2\r3\n"], ids=repr
)
def test_cr_only_line_ends_are_read_like_crlf(data):
    assert scoring.read_correspondence(data, rows=3, reference_rows=5).tolist() == [1, 2, 3]


def test_cr_only_empty_lines_keep_their_place():
    assert scoring.read_correspondence(b"guess\r1\r\r3\r", rows=3, reference_rows=5).tolist() == [
        1,
        0,
        3,
    ]


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("1\nx\n3\n", "not an integer at line 2 ('x') (1 line in total)"),
        ("1\n2\n9\n", "out of range at line 3 ('9') (1 line in total)"),
        ("1\n2,5\n3\n", "line 2 has 2 fields ('2,5') (1 line in total)"),
    ],
)
def test_every_listing_gives_the_total(text, phrase):
    with pytest.raises(ValidationError) as info:
        read(text)
    assert phrase in str(info.value)


def test_a_huge_line_is_echoed_clipped():
    huge = "x" * 10_000_000
    with pytest.raises(ValidationError) as info:
        read(f"1\n{huge}\n3\n")
    message = str(info.value)
    assert f"line 2 ('{'x' * 79}…') (1 line in total)" in message
    assert len(message) < 300


def test_every_kind_of_problem_is_told_at_once():
    """A file with non-integers and out-of-range numbers named only the non-integers; the
    out-of-range lines showed up on the next upload."""
    with pytest.raises(ValidationError) as info:
        read("guess\n1\nx\n99999999\n-3\n1,2\n", rows=5, reference_rows=100)
    assert info.value.code == "answer.several"
    assert str(info.value) == (
        "The correspondence table must hold one row number per line (empty or 0 for no "
        "guess); it has several problems: more than one field: line 6 has 2 fields ('1,2') "
        "(1 line in total); not an integer at line 3 ('x') (1 line in total); out of range "
        "(1 to 100) at line 4 ('99999999'), line 5 ('-3') (2 lines in total)."
    )
    assert info.value.render("ja") == (
        "対応表は 1 行に 1 つの行番号を書きます（推測しない行は空または 0）。複数の問題があります: "
        "複数のフィールドがある行: 6 行目のフィールド数 2 ('1,2')（計 1 行）；"
        "整数でない行: 3 行目 ('x')（計 1 行）；"
        "範囲外（1 から 100 まで）の行: 4 行目 ('99999999')、5 行目 ('-3')（計 2 行）。"
    )


def test_a_wrong_line_count_is_told_with_the_lines_problems():
    with pytest.raises(ValidationError) as info:
        read("1\nx\n", rows=3, reference_rows=None)
    message = str(info.value)
    assert "2 answer lines where 3 are expected" in message
    assert "not an integer at line 2 ('x') (1 line in total)" in message


def test_each_kind_lists_at_most_the_reader_s_cap_with_its_total():
    text = "\n".join(["guess"] + ["x"] * 12 + ["9"] * 12) + "\n"
    with pytest.raises(ValidationError) as info:
        scoring.read_correspondence(text.encode(), rows=24, reference_rows=5)
    message = str(info.value)
    assert "line 11 ('x') (12 lines in total)" in message and "line 12 " not in message
    assert "line 23 ('9') (12 lines in total)" in message and "line 24 " not in message
