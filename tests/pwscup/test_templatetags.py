import pytest

from pwscup.core.templatetags.pwscup_tags import heat, score


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, "–"), (163, "163"), (0, "0"), (1.5097628, "1.5098"), (0.0, "0.0000"), (True, "1.0000")],
)
def test_score_shows_counts_as_integers_and_rates_to_four_decimals(value, shown):
    assert score(value) == shown


def test_heat_goes_from_green_to_red_and_clips():
    assert heat(None) == ""
    assert "hsl(120," in heat(0.0) and "hsl(0," in heat(1.0)
    assert heat(-1) == heat(0.0) and heat(2) == heat(1.0)
