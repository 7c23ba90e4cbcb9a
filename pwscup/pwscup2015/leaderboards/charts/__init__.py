"""Charts drawn on the server as SVG: the leaderboard's scatter (one labelled point per
team) and a team's score history; the attack matrix's colour legend (``heatmap``: why the
matrix has no chart of its own).

Colours are SVG presentation attributes (``fill``), hover values are each mark's
``<title>`` (the browser's tooltip, also read by screen readers), every chart has a
``<title>``/``<desc>`` and a table of the same values beside it, and the axes are chosen
with a plain GET form. Every chart takes the rows the page's table shows (the same
selectors, so the same visibility rules and the same numbers); nothing here reads the
database.

Why SVG drawn here rather than a chart library served as a static file. The
candidates were measured from their npm tarballs (``npm pack``; minified browser builds,
bytes as served, then gzip -9): Chart.js 4.6.1 ``chart.umd.min.js`` 210,082 (70,902), plus
chartjs-plugin-datalabels 2.2.0 for visible labels 12,937 (5,269); uPlot 1.6.32
``uPlot.iife.min.js`` 51,081 (22,009) plus its CSS 1,857; Observable Plot 0.6.17
``plot.umd.min.js`` 209,183 (68,818), which needs d3 7.9.2 ``d3.min.js`` 280,622 (92,088);
Vega 6.4.0 + Vega-Lite 6.5.0 + vega-embed 7.3.0: 521,123 + 257,954 + 60,298 (179,594 +
81,792 + 20,785). The server's scatter of 40 labelled teams is a 17,771-byte SVG (2,857
gzipped) inside the page, and the page's own live-update script 4,841 bytes.

* Without JavaScript every library draws nothing; the SVG is in the HTML (and the table
  of the chart's values under it is the text alternative in both cases).
* CSP ``style-src 'self'`` without ``'unsafe-inline'``: Chart.js and uPlot only set
  ``element.style`` through the CSSOM (allowed), but Observable Plot appends a ``<style>``
  element to every chart it draws (blocked, and reported by our browser tests), vega-embed
  creates ``<style>`` elements too and Vega compiles its expressions with ``new Function``
  (``'unsafe-eval'``, unless its interpreter build is wired in).
* Labels: none of them places point labels without overlaps. Chart.js and uPlot draw on
  a canvas (no text in the page for a screen reader, a search or a copy); the datalabels
  plugin hides a colliding label (``display: "auto"``) instead of moving it; Plot's text
  mark and Vega-Lite's text mark draw where they are told (Vega's ``label`` transform is
  the exception, behind the heaviest bundle and the CSP problems above).
* Testability: the SVG is a string asserted in Python tests (every point and label inside
  the plot area, for adversarial data); a library's drawing exists only in a browser.
* Print and screenshots: the SVG is vector and prints as drawn; a canvas prints as a
  bitmap at screen resolution.

So the standard, simpler option here is the one already in place: SVG written by the
server, a few hundred lines of Python with tests, no third-party script to keep updated.
"""

from pwscup.core.charts.labels import Box, place_labels
from pwscup.pwscup2015.leaderboards.charts.axes import (
    Axis,
    Scale,
    metric_axis,
    nice_scale,
    ranking_axis,
)
from pwscup.pwscup2015.leaderboards.charts.heatmap import heat_legend, marked_grid
from pwscup.pwscup2015.leaderboards.charts.history import Line, chosen_history_metrics, history
from pwscup.pwscup2015.leaderboards.charts.scatter import (
    Scatter,
    axis_choices,
    chosen_axes,
    scatter,
)

__all__ = [
    "Axis",
    "Box",
    "Line",
    "Scale",
    "Scatter",
    "axis_choices",
    "chosen_axes",
    "chosen_history_metrics",
    "heat_legend",
    "history",
    "marked_grid",
    "metric_axis",
    "nice_scale",
    "place_labels",
    "ranking_axis",
    "scatter",
]
