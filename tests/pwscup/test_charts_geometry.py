"""The scatter's geometry on adversarial data, read back from the SVG the page would show:
every team's point and label lie strictly inside the plot area (no mark on the frame), the
labels do not overlap each other, the axes are padded to nice ticks around the values, and
every team is named (a long name cut with "…", in full in its hover title) — for all scores
at 0, all at 1, identical points, a 60-character name, one team and forty teams, in English
and Japanese."""

import random
import unicodedata
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from pwscup.core.charts.text import text_width
from pwscup.pwscup2015.leaderboards import charts

SVG = "{http://www.w3.org/2000/svg}"
LONG_EN = "The Anonymizers of the Faculty of Information Science, Team9"
LONG_JA = ("情報科学研究科プライバシー保護データ公開研究室チーム" * 3)[:60]


def team(k: int, name: str):
    return SimpleNamespace(pk=k + 1, name=name, slug=f"team{k + 1}")


def rows_of(values, names=None):
    """Leaderboard-like rows: ``values`` are (U4, ranking safety) per team."""
    names = names or [f"Team {k + 1}" for k in range(len(values))]
    return [
        SimpleNamespace(team=team(k, name), rank=k + 1, scores={"U4": x, "E3": y}, safety=y)
        for k, ((x, y), name) in enumerate(zip(values, names, strict=True))
    ]


spread = random.Random(2015)
CASES = {
    "all at 0": rows_of([(0.0, 0.0)] * 5),
    "all at 1": rows_of([(1.0, 1.0)] * 5),
    "identical points": rows_of([(0.3, 0.42)] * 40),
    "a 60-character name": rows_of(
        [(0.0, 1.0), (1.0, 0.0), (0.5, 0.5), (0.02, 0.98)],
        [LONG_EN, LONG_JA, "B", "C"],
    ),
    "one team": rows_of([(0.2, 0.5)]),
    "forty teams": rows_of([(spread.random(), spread.random()) for _ in range(40)]),
    "corners": rows_of([(0, 0), (0, 1), (1, 0), (1, 1), (0.5, 0.5)]),
}
assert len(LONG_EN) == 60 and len(LONG_JA) == 60


def draw(rows, language: str, own: int = 1, y="ranking") -> tuple[charts.Scatter, ElementTree]:
    """The chart as the page includes it; ``own``: the viewer's team (the legend only)."""
    with translation.override(language):
        ranking = charts.ranking_axis(measure="worst_attack", every_attack=False)
        x_axis, y_axis = charts.chosen_axes({"x": "U4", "y": y}, ["U4", "E3"], ranking)
        chart = charts.scatter(rows=rows, x_axis=x_axis, y_axis=y_axis)
        page = render_to_string(
            "pwscup2015/_scatter.html",
            {
                "chart": chart,
                "chart_choices": charts.axis_choices(["U4", "E3"], ranking),
                "access": SimpleNamespace(team=SimpleNamespace(pk=own), is_organizer=False),
            },
        )
    svg = page[page.index("<svg") : page.index("</svg>") + len("</svg>")]
    return chart, ElementTree.fromstring(svg)


def plot_area(svg) -> tuple[float, float, float, float]:
    rect = next(r for r in svg.iter(f"{SVG}rect") if r.get("class") == "plot-area")
    left, top = float(rect.get("x")), float(rect.get("y"))
    return left, top, left + float(rect.get("width")), top + float(rect.get("height"))


def independent_width(text: str, font_size: float, bold: bool) -> float:
    """A width model apart from the chart's own: 1 em for a wide (CJK) character, 0.6 em for
    any other, bold 8 % wider."""
    ems = sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.6 for ch in text)
    return ems * font_size * (1.08 if bold else 1)


def label_boxes(svg):
    """(name, drawn text, box) of every label, the box as wide as the wider of two models."""
    out = []
    for element in svg.iter(f"{SVG}text"):
        if element.get("class") != "label":
            continue
        size, bold = float(element.get("font-size")), element.get("font-weight") == "bold"
        text = element.text
        width = max(
            independent_width(text, size, bold), text_width(text, font_size=size, bold=bold)
        )
        x, y = float(element.get("x")), float(element.get("y"))
        box = (x, y - 0.95 * size, x + width, y + 0.3 * size)
        out.append((element.find(f"{SVG}title").text, text, box))
    return out


def overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("case", list(CASES))
def test_every_point_and_label_is_inside_the_plot_area(case, language):
    rows = CASES[case]
    chart, svg = draw(rows, language)
    left, top, right, bottom = plot_area(svg)
    circles = [c for c in svg.iter(f"{SVG}circle") if "point" in c.get("class", "")]
    assert len(circles) == len(rows)
    for circle in circles:
        cx, cy, r = (float(circle.get(k)) for k in ("cx", "cy", "r"))
        assert left < cx - r and cx + r < right, (case, cx, r, left, right)
        assert top < cy - r and cy + r < bottom, (case, cy, r, top, bottom)
    boxes = label_boxes(svg)
    assert sorted(name for name, _text, _box in boxes) == sorted(r.team.name for r in rows)
    for name, _text, (x0, y0, x1, y1) in boxes:
        assert left < x0 and x1 < right and top < y0 and y1 < bottom, (case, name)


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("case", list(CASES))
def test_labels_do_not_overlap_each_other(case, language):
    _chart, svg = draw(CASES[case], language)
    boxes = [box for _name, _text, box in label_boxes(svg)]
    clashes = [(a, b) for k, a in enumerate(boxes) for b in boxes[k + 1 :] if overlap(a, b)]
    assert clashes == [], case


def test_a_long_name_is_cut_and_kept_whole_in_its_title():
    _chart, svg = draw(CASES["a 60-character name"], "ja")
    drawn = {name: text for name, text, _box in label_boxes(svg)}
    for name in (LONG_EN, LONG_JA):
        assert drawn[name].endswith("…") and len(drawn[name]) < 30
        assert name.startswith(drawn[name][:-1])
    assert drawn["B"] == "B"


def test_every_point_and_label_carries_its_teams_slug_and_none_is_drawn_apart():
    _chart, svg = draw(CASES["forty teams"], "en", own=7)
    circles = [c for c in svg.iter(f"{SVG}circle") if c.get("class") == "point"]
    labels = [e for e in svg.iter(f"{SVG}text") if e.get("class") == "label"]
    assert len(circles) == len(labels) == 40
    assert {c.get("r") for c in circles} == {"6"} and {c.get("fill") for c in circles} == {
        charts.axes.POINT
    }
    assert [e.get("font-weight") for e in labels] == [None] * 40
    # The page marks the viewer's team by these slugs (static/pwscup.js): a label's slug is
    # its own team's, the one its hover text names.
    for label in labels:
        number = label.find(f"{SVG}title").text.removeprefix("Team ")
        assert label.get("data-team") == f"team{number}"
    assert sorted(c.get("data-team") for c in circles) == sorted(e.get("data-team") for e in labels)


@pytest.mark.parametrize("case", list(CASES))
def test_the_axes_are_padded_to_nice_ticks_around_the_values(case):
    chart, svg = draw(CASES[case], "en")
    left, top, right, bottom = plot_area(svg)
    for ticks, values, low_px, high_px in (
        (chart.x_ticks, [r.scores["U4"] for r in CASES[case]], left, right),
        (chart.y_ticks, [r.safety for r in CASES[case]], top, bottom),
    ):
        numbers = [float(t.label.replace(",", "")) for t in ticks]
        assert min(numbers) <= min(values) and max(values) <= max(numbers), case
        assert len(numbers) >= 3
        steps = {round(b - a, 9) for a, b in zip(numbers, numbers[1:], strict=False)}
        assert len(steps) == 1, (case, numbers)  # evenly spaced, round numbers
        # the outermost ticks sit inside the frame, not on it
        assert all(low_px < t.at < high_px for t in ticks), case
    if case in ("all at 0", "all at 1", "identical points", "one team"):
        # equal rates: the whole scale from safe (0) to re-identified (1)
        assert chart.y_ticks[0].label.startswith("0") and chart.y_ticks[-1].label == "1.0"


def test_the_vertical_axis_can_be_a_metric_and_the_rate_scale_stays_within_0_and_1():
    chart, _svg = draw(CASES["all at 1"], "en", y="E3")
    assert chart.y_axis.key == "E3"
    assert float(chart.y_ticks[-1].label) == 1.0 and float(chart.y_ticks[0].label) == 0.0
