"""A chart with its axes' ticks (``pwscup.core.charts.labels.TickedPlot``): what the
kinds' charts (the sequential, synthetic, DP and 2015 ones) declare once."""

from dataclasses import dataclass, field

from pwscup.core.charts.labels import TickedPlot


@dataclass
class Chart(TickedPlot, size=(200, 100), margins=(20, 10, 10, 20)):
    marks: list = field(default_factory=list)


def test_each_chart_has_its_own_tick_lists_and_its_class_geometry():
    one, two = Chart(), Chart()
    one.x_ticks.append((20.0, "0"))
    assert two.x_ticks == [] and two.y_ticks == [] and two.marks == []
    assert (one.left, one.right, one.top, one.bottom) == (20, 190, 10, 80)
    one.y_ticks = one.y_axis(0, 1).ticks((0, 1))
    assert one.y_ticks == [(80.0, "0"), (10.0, "1")]
