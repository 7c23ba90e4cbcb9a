"""What every kind's server-drawn SVG chart shares: text widths estimated before the browser
draws (``text``) and labels placed beside points without overlaps (``labels``). The charts
themselves live with their kind (``pwscup.pwscup2015.leaderboards.charts``,
``pwscup.dp.charts``, ``pwscup.sequential.charts``); why SVG drawn on the server rather than
a chart library: ``pwscup.pwscup2015.leaderboards.charts``."""
