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
