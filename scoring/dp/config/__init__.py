"""The DP round's configuration (spec dp-round.md §10): its shape, and reading it.

:func:`parse_config` turns the organizer's JSON into a frozen :class:`DPConfig`;
:func:`validate_config` returns the normalised JSON (every default filled in, ε as exact
text) or raises :class:`scoring.dp.errors.DPError` with the §12 message. The shape and its
defaults are :mod:`scoring.dp.config.schema`; the reading and its checks are
:mod:`scoring.dp.config.parse`. Import both from here.

Examples
--------
>>> config = parse_config({
...     "attributes": {"gender": ["F", "M"], "age": ["<=17", "18-24", "25-34"]},
...     "workload": [{"id": "ga", "attributes": ["age", "gender"]}],
...     "levels": [{"id": "eps-1", "epsilon": "1"}]})
>>> config.workload[0].attributes  # kept in round order
('gender', 'age')
>>> config.cells("ga")
6
>>> parse_config({"attributes": {"a": ["x"]}, "workload": [], "levels": []})
Traceback (most recent call last):
...
scoring.dp.errors.DPErrors: Attribute 'a' needs at least 2 values
'levels' must be a non-empty list of {"id", "epsilon"} (got [])
"""

from scoring.dp.config.parse import load_dp_config, parse_config, validate_config
from scoring.dp.config.schema import Baselines, DPConfig, Level, Reconstruction, Target

__all__ = [
    "Baselines",
    "DPConfig",
    "Level",
    "Reconstruction",
    "Target",
    "load_dp_config",
    "parse_config",
    "validate_config",
]
