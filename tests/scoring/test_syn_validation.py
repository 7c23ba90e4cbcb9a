"""What the synthetic round refuses, and how it says so (column, row, value; en and ja)."""

import numpy as np
import pytest

from scoring.errors import ValidationError
from scoring.synthetic.attack import read_attack
from scoring.synthetic.config import parse_config
from scoring.synthetic.errors import SynthError
from scoring.synthetic.release import read_release
from tests.scoring.synth_support import small_population


def _refusal(data, **kwargs):
    with pytest.raises(ValidationError) as caught:
        read_release(data, small_population(**kwargs), name="teamA_synthetic.csv")
    return caught.value


def test_a_valid_release_reads_typed():
    release = read_release("\ufeffx,c,y\n-4,p,n\n44,r,y\n".encode(), small_population())
    assert release["x"].tolist() == [-4.0, 44.0]  # the range 0…40 widened by 4 each side
    assert release["c"].tolist() == ["p", "r"]


def test_header_order_matters():
    error = _refusal(b"c,x,y\np,1,n\n")
    assert error.code == "syn.release.columns" and "x,c,y" in str(error)
    assert "misordered column(s): 'c', 'x'" in str(error)


def test_a_header_without_a_column_names_it_in_both_languages():
    # The message gave the expected and the uploaded header whole: with 15 columns, finding
    # the one missing or misspelt was left to the student.
    error = _refusal(b"X,c\n1,p\n")
    assert str(error).endswith("missing column(s): 'x', 'y'; unexpected column(s): 'X'")
    assert error.render("ja").endswith("（足りない列: 'x', 'y'；余分な列: 'X'）")


@pytest.mark.parametrize(("data", "rows"), [(b"x,c,y\n", 0), (b"x,c,y\n" + b"1,p,n\n" * 16, 16)])
def test_row_count(data, rows):
    error = _refusal(data, n_train=5, n_challenge=4)  # max_rows = 15
    assert error.code == "syn.release.row_bounds" and f"has {rows} data rows" in str(error)


def test_a_release_below_the_round_s_fewest_rows_is_refused_in_both_languages():
    # PWSCup 2020: a release holds 1,000 to 100,000 rows; a round may say its least.
    error = _refusal(b"x,c,y\n1,p,n\n2,q,y\n", min_rows=3, max_rows=10)
    assert str(error) == (
        "teamA_synthetic.csv has 2 data rows; a release of this round holds 3 to 10 rows"
    )
    assert error.render("ja") == (
        "teamA_synthetic.csv のデータ行は 2 行です。このラウンドの公開データは 3 行以上 10 "
        "行以下にしてください"
    )
    population = small_population(min_rows=3, max_rows=10)
    assert len(read_release(b"x,c,y\n1,p,n\n2,q,y\n3,r,n\n", population)) == 3


def test_the_settings_name_the_fewest_rows_only_when_set():
    # config.json and population.json carry as_dict(): a toolkit made before min_rows
    # refuses an unknown key, so a round without a least number writes none.
    assert "min_rows" not in small_population().config.as_dict()
    config = small_population(min_rows=3, max_rows=10).config
    assert config.as_dict()["min_rows"] == 3
    assert parse_config(config.as_dict()) == config


@pytest.mark.parametrize("min_rows", [0, 11, 2.5, True])
def test_the_fewest_rows_lie_from_1_to_the_most(min_rows):
    with pytest.raises(SynthError) as caught:
        small_population(min_rows=min_rows, max_rows=10)
    assert "'min_rows'" in str(caught.value) and "from 1 to 10" in str(caught.value)


def test_out_of_range_names_column_row_value_in_both_languages():
    error = _refusal(b"x,c,y\n1,p,n\n44.5,q,n\n")
    assert str(error) == (
        "Column 'x' must lie within -4 … 44 (the original's range widened by 10 %); "
        "out of range at row 2 ('44.5')"
    )
    assert error.render("ja") == (
        "列 'x' の値は -4 〜 44（元のテーブルの範囲を 10 % 広げたもの）の範囲にしてください。"
        "範囲外の値があります: 2 行目 ('44.5')"
    )


@pytest.mark.parametrize("cell", ["ten", "", "inf", "nan"])
def test_a_numeric_cell_must_be_a_finite_number(cell):
    error = _refusal(f"x,c,y\n1,p,n\n{cell},q,n\n".encode())
    assert error.code == "syn.release.not_number" and "row 2" in str(error)


def test_a_categorical_value_outside_the_domain():
    error = _refusal(b"x,c,y\n1,p,n\n2,s,n\n3,P,n\n")
    assert error.code == "syn.release.domain"
    assert "'p', 'q', 'r'" in str(error) and "row 2 ('s'), row 3 ('P')" in str(error)


def test_encoding_rules_are_the_platforms():
    error = _refusal("x,c,y\n1,p,n\n2,q,né\n".encode("cp1252"))
    assert "UTF-8" in str(error)


def _attack(text, count=4):
    return read_attack(text.encode(), count, name="teamA_mia_teamB.csv")


def test_a_valid_attack_reads_in_id_order():
    assert _attack("id,score\n3,0.3\n1,1e-3\n2,-2\n4,7\n").tolist() == [0.001, -2.0, 0.3, 7.0]


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ("id,prob\n1,0.5\n", "syn.attack.header", "'id,score'"),
        ("id,score\n1,0.5\n5,0.1\n2,0\n3,0\n", "syn.attack.not_id", "row 2 ('5')"),
        ("id,score\n1,0.5\n1.5,0.1\n", "syn.attack.not_id", "row 2 ('1.5')"),
        ("id,score\n1,0.5\n2,0.1\n2,0\n3,0\n", "syn.attack.duplicate", "row 3 ('2')"),
        ("id,score\n1,0.5\n3,0.1\n", "syn.attack.missing", "missing: 2, 4 (2 in total)"),
        (
            "id,score\n1,0.5\n2,inf\n3,0\n4,x\n",
            "syn.attack.not_score",
            "row 2 ('inf'), row 4 ('x')",
        ),
    ],
)
def test_attack_refusals(text, code, fragment):
    with pytest.raises(SynthError) as caught:
        _attack(text)
    assert caught.value.code == code
    assert fragment in str(caught.value)
    assert caught.value.render("ja") != str(caught.value)


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ({"columns": {"x": "numeric"}, "label": "x"}, "label"),
        ({"columns": {"x": "text", "y": "categorical"}, "label": "y"}, "role"),
        ({"columns": {"y": "categorical"}, "label": "y", "n_challenge": 10}, "n_challenge"),
        ({"columns": {"y": "categorical"}, "label": "y", "fpr_levels": [0.1, 1.5]}, "fpr_levels"),
        ({"columns": {"y": "categorical"}, "label": "y", "gates": {"u_3": 1}}, "gates"),
        ({"columns": {"y": "categorical"}, "label": "y", "seed": 3}, "seed"),
        # Hashable or not, a value that is no name is refused, never a TypeError (a bundle's).
        ({"columns": {"y": "categorical"}, "label": []}, "label"),
        ({"columns": {"y": "categorical"}, "label": {"x": [1]}}, "label"),
        ({"columns": {"x": ["numeric"], "y": "categorical"}, "label": "y"}, "role"),
    ],
)
def test_configuration_refusals_name_the_key(settings, key):
    with pytest.raises(SynthError) as caught:
        parse_config(settings)
    assert key in str(caught.value) or key in caught.value.code


def test_the_configuration_round_trips():
    config = parse_config(
        {"columns": {"x": "numeric", "y": "categorical"}, "label": "y", "fpr_levels": [0.1, 0.01]}
    )
    assert parse_config(config.as_dict()) == config
    assert config.headline == "tpr@0.1"
    assert np.isclose(config.fpr_levels[1], 0.01)
