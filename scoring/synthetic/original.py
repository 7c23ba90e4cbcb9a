"""A new round's settings and its original table checked together, every error at once.

:func:`parse_config` checks the settings against the table's header, reporting every
setting at fault; the cells against the column roles and the table's rows against the
sizes need some settings right. Each of those two checks runs as soon as the settings it
needs are right, even when another setting is not: the cells once the columns' roles and
the label are, the rows once the four sizes are. So one try reports every error that the
settings posted can show.

Examples
--------
>>> data = {"columns": {"age": "numeric", "y": "categorical"}, "label": "y",
...     "n_holdout": 10, "n_aux": 10, "n_train": 20, "n_challenge": 8, "fpr_levels": [2]}
>>> try:
...     original_checked(b"age,y\\nold,a\\n30,b\\n", data)
... except SynthError as error:
...     print([e.code for e in error.errors])
['syn.config.bad_value', 'syn.config.not_number', 'syn.config.too_small']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import ConfigChecks
from scoring.synthetic.config import parse_config
from scoring.synthetic.draws import rows_check
from scoring.synthetic.errors import SynthError, SynthErrors
from scoring.synthetic.population import Population, population_from_frame
from scoring.tables import load_table

# The settings each later check needs right (with the defaults of the others).
ROLE_KEYS = ("columns", "label")
SIZE_KEYS = (*ROLE_KEYS, "n_holdout", "n_train", "n_challenge", "n_aux")


def original_checked(source: Any, data: Any, *, name: str = "the original table") -> Population:
    """``P`` read from ``source`` (a CSV path, bytes or file) with the settings ``data``.

    Raises
    ------
    ValidationError
        The file is not a readable table (nothing else is checked then).
    SynthError
        Every error of the settings, of the cells against the roles and of the rows against
        the sizes (a ``SynthErrors`` when there are several).
    """
    table = load_table(source, name=name).to_frame()
    header = [str(c) for c in table.columns]
    checks = ConfigChecks(SynthError, SynthErrors)
    config = checks.run(parse_config, data, header)
    roles = config or _settings_of(data, ROLE_KEYS, header)
    population = checks.run(population_from_frame, table, roles) if roles else None
    sizes = config or _settings_of(data, SIZE_KEYS, header)
    if sizes is not None:
        checks.run(rows_check, len(table), sizes)
    checks.raise_found()
    return population


def _settings_of(data: Any, keys: tuple[str, ...], header: list[str]):
    """The settings ``keys`` of ``data`` checked alone (the others' defaults), or None when
    one of them is at fault (its error is already reported)."""
    if not isinstance(data, Mapping):
        return None
    try:
        return parse_config({key: data[key] for key in keys if key in data}, header)
    except SynthError:
        return None
