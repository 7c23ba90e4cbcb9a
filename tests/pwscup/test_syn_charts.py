"""The synthetic round's utility scatter: each team's name is written apart from the others."""

import re
from types import SimpleNamespace

from django.template.loader import render_to_string

from pwscup.synthetic.charts import utility_scatter


def close_rows():
    """Three teams whose scores are almost the same (as the demo's baseline releases: Team A
    and Team C 0.01 apart on both axes), so that names written beside their points overlap."""
    teams = [SimpleNamespace(pk=pk, name=f"Team {name}") for pk, name in enumerate("ABC", 1)]
    scores = [(0.09, 0.62), (0.12, 0.55), (0.10, 0.63)]
    return [
        {"team": team, "worst": worst, "u_ml": u_ml, "passes": False}
        for team, (worst, u_ml) in zip(teams, scores, strict=True)
    ]


def test_syn_scatter_labels_of_close_points_do_not_overlap():
    chart = utility_scatter(close_rows(), u_ml_min=0.8, own_team_id=1)
    assert [label.text for label in chart.labels] == ["Team A", "Team B", "Team C"]
    boxes = [label.box for label in chart.labels]
    for i, box in enumerate(boxes):
        assert all(box.overlap(other) == 0 for other in boxes[i + 1 :]), box
        # Inside the plot: nothing cut by the picture's edges.
        assert chart.left <= box.left and box.right <= chart.right
        assert chart.top <= box.top and box.bottom <= chart.bottom


def test_syn_scatter_draws_each_name_once_where_it_was_placed():
    chart = utility_scatter(close_rows(), u_ml_min=0.8, own_team_id=1)
    svg = render_to_string(
        "synthetic/_scatter.html", {"scatter": chart, "state": {"headline_level": 0.1}}
    )
    drawn = re.findall(r'<text class="label" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]+)<', svg)
    assert [(float(x), float(y), name) for x, y, name in drawn] == [
        (label.x, label.y, label.text) for label in chart.labels
    ]
    assert svg.count('data-testid="point"') == 3
