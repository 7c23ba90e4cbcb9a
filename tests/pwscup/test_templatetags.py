import xml.etree.ElementTree as ET

import pytest

from pwscup.core.charts.labels import Box, Mark, place_labels
from pwscup.core.templatetags.pwscup_tags import (
    chart_label_texts,
    chart_leaders,
    chart_points,
    heat,
    metric_cells,
    metric_value,
    score,
)
from pwscup.pwscup2015.leaderboards.charts.axes import Point


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


def test_metric_cells_write_one_escaped_cell_per_metric():
    cells = metric_cells({"U6": 3, "<b>": 0.5, "S1": None}, ["U6", "<b>", "S1", "E1"])
    assert cells == (
        '<td class="num" data-metric="U6">3</td>'
        '<td class="num" data-metric="&lt;b&gt;">0.5000</td>'
        f'<td class="num" data-metric="S1">{metric_value({"S1": None}, "S1")}</td>'
        '<td class="num" data-metric="E1">–</td>'
    )
    assert "<abbr" in cells  # a metric without a value says why, as marked-up HTML


def test_every_heat_class_has_a_colour_in_the_stylesheet():
    from django.conf import settings

    css = (settings.BASE_DIR / "static" / "pwscup.css").read_text()
    assert ".heat-0 { background:hsl(120, 70%, 82%); }" in css
    assert ".heat-10 { background:hsl(0, 70%, 82%); }" in css
    for tenth in range(11):
        assert f".heat-{tenth} {{ background:hsl(" in css


def _svg(*parts) -> ET.Element:
    """The tags' output as the browser parses it (well-formed SVG, or this raises)."""
    return ET.fromstring(
        '<svg xmlns="http://www.w3.org/2000/svg">' + "".join(str(p) for p in parts) + "</svg>"
    )


def test_chart_tags_draw_every_label_and_point_with_names_escaped():
    hostile = 'A&B <script>alert("x")</script>'
    marks = [
        Mark(50, 50, 6, hostile, bold=True, colour="#123456", key="team-a"),
        Mark(52, 52, 6, "plain", key=""),
        Mark(54, 50, 6, "third " * 8, key="team-c"),
    ]
    labels = place_labels(marks, frame=Box(0, 0, 120, 120), font_size=11)
    svg = _svg(
        chart_leaders(labels),
        chart_points(
            [
                Point(x=50, y=50, colour="#abcdef", title=hostile, team="team-a"),
                Point(x=52, y=52, colour="#abcdef", title="b", team=""),
            ],
            "point",
        ),
        chart_label_texts(labels, 11),
    )
    ns = "{http://www.w3.org/2000/svg}"
    texts = svg.findall(f"{ns}text")
    assert [t.text for t in texts] == [label.text for label in labels]
    # escaped on the way out: the browser reads the name (maybe cut) and its full title
    assert hostile.startswith(texts[0].text.rstrip("…")) and "<script>" in texts[0].text
    assert texts[0].find(f"{ns}title").text == hostile
    assert [t.find(f"{ns}title").text for t in texts] == [label.title for label in labels]
    assert [t.get("data-team") for t in texts] == ["team-a", None, "team-c"]
    assert [t.get("font-weight") for t in texts] == ["bold", None, None]
    assert {t.get("font-size") for t in texts} == {"11"} and texts[0].get("fill") == "#123456"
    leaders = svg.findall(f"{ns}line")
    assert len(leaders) == sum(1 for label in labels if label.leader)
    for line, label in zip(leaders, [la for la in labels if la.leader], strict=True):
        assert [float(line.get(a)) for a in ("x1", "y1", "x2", "y2")] == list(label.leader)
    circles = svg.findall(f"{ns}circle")
    assert [c.get("data-team") for c in circles] == ["team-a", None]
    assert circles[0].find(f"{ns}title").text == hostile
    assert [c.get("class") for c in circles] == ["point", "point"]
