"""The label placement reads the area a candidate box shares with the boxes placed so far
from one of two structures: a summed-area table of the frame's pixels (``_Coverage``, for
charts of many marks) or the boxes themselves (``_FewBoxes``, for a few). They must give
the same areas, so that a chart is labelled the same whichever one it gets."""

import random

import numpy as np
import pytest

from pwscup.core.charts import labels
from pwscup.core.charts.labels import (
    LABEL_CLASH,
    Box,
    Mark,
    _Candidates,
    _Coverage,
    _FewBoxes,
    place_labels,
)

FRAME = Box(54.0, 10.0, 424.0, 170.0)


def random_box(rng: random.Random) -> Box:
    """A box with fractional edges, sometimes partly or wholly outside the frame."""
    left = rng.uniform(FRAME.left - 30, FRAME.right + 10)
    top = rng.uniform(FRAME.top - 30, FRAME.bottom + 10)
    return Box(left, top, left + rng.uniform(0.5, 60), top + rng.uniform(0.5, 20))


@pytest.mark.parametrize("seed", range(6))
def test_both_coverages_give_the_same_areas(seed):
    rng = random.Random(seed)
    table, few = _Coverage(FRAME), _FewBoxes(FRAME)
    points = [random_box(rng) for _ in range(seed + seed % 2 * 3)]  # 0 to 8
    table.add_all(points)
    few.add_all(points)
    candidates = _Candidates.around(FRAME)
    for k in range(4):
        # a mark beside a point's box, so that the candidates meet it
        near = points[k % len(points)] if points else FRAME
        mark = Mark(near.right + 1, near.bottom + 1, 4, "")
        boxes = candidates.boxes(mark, rng.uniform(10, 80), 13.75)
        expected = table.shared(boxes)
        assert np.array_equal(few.shared(boxes), expected), (seed, k)
        assert expected.any() or not points
        label = random_box(rng)
        table.add(label, LABEL_CLASH)
        few.add(label, LABEL_CLASH)


@pytest.mark.parametrize("count", [1, 3, 8])
def test_a_few_marks_are_labelled_as_the_table_would_label_them(count, monkeypatch):
    rng = random.Random(count)
    marks = [
        Mark(rng.uniform(60, 120), rng.uniform(20, 60), 4, f"team {k}" * (1 + k % 3))
        for k in range(count)
    ]
    few = place_labels(marks, frame=FRAME, font_size=11)
    monkeypatch.setattr(labels, "FEW_MARKS", 0)  # every chart on the summed-area table
    assert place_labels(marks, frame=FRAME, font_size=11) == few
