import pytest

from pwscup.core.templatetags.pwscup_tags import heat, score


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, "–"), (163, "163"), (0, "0"), (1.5097628, "1.5098"), (0.0, "0.0000"), (True, "1.0000")],
)
def test_score_shows_counts_as_integers_and_rates_to_four_decimals(value, shown):
    assert score(value) == shown


def test_heat_goes_from_green_to_red_in_tenths_and_clips():
    assert heat(None) == ""
    assert [heat(r) for r in (0.0, 0.04, 0.06, 0.5, 1.0)] == [
        "heat-0",
        "heat-0",
        "heat-1",
        "heat-5",
        "heat-10",
    ]
    assert heat(-1) == heat(0.0) and heat(2) == heat(1.0)


def test_every_heat_class_has_a_colour_in_the_stylesheet():
    from django.conf import settings

    css = (settings.BASE_DIR / "static" / "pwscup.css").read_text()
    assert ".heat-0 { background:hsl(120, 70%, 82%); }" in css
    assert ".heat-10 { background:hsl(0, 70%, 82%); }" in css
    for tenth in range(11):
        assert f".heat-{tenth} {{ background:hsl(" in css
