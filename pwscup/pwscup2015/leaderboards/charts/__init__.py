"""Charts drawn on the server as SVG: the leaderboard's utility-vs-safety scatter, a team's
score history and the attack matrix heatmap.

No charting library and no script: the page's Content-Security-Policy allows no inline
script or style, and an SVG drawn here needs neither. Colours are SVG presentation
attributes (``fill``), hover values are each mark's ``<title>`` (the browser's tooltip,
also read by screen readers), and the axes are chosen with a plain GET form.

Every chart takes the rows the page's table shows (the same selectors, so the same
visibility rules and the same numbers); nothing here reads the database.
"""

from pwscup.pwscup2015.leaderboards.charts.axes import Scale, _scale, axis_label, heat_colour
from pwscup.pwscup2015.leaderboards.charts.heatmap import Heatmap, heatmap
from pwscup.pwscup2015.leaderboards.charts.history import Line, chosen_history_metrics, history
from pwscup.pwscup2015.leaderboards.charts.scatter import Scatter, chosen_axes, scatter

__all__ = [
    "Heatmap",
    "Line",
    "Scale",
    "Scatter",
    "_scale",
    "axis_label",
    "chosen_axes",
    "chosen_history_metrics",
    "heat_colour",
    "heatmap",
    "history",
    "scatter",
]
