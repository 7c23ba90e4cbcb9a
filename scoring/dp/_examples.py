"""The toy table of spec dp-round.md §5 (10 rows, gender × age), for doctests and tests."""

from __future__ import annotations

import pandas as pd

from scoring.dp.config import DPConfig, parse_config
from scoring.dp.pk import Channel, parse_release_declaration, target_channel

TOY_ROWS = [
    ("F", "18-24"),
    ("F", "25-34"),
    ("M", "25-34"),
    ("M", "25-34"),
    ("M", "18-24"),
    ("F", "25-34"),
    ("M", "<=17"),
    ("M", "25-34"),
    ("F", "18-24"),
    ("M", "18-24"),
]
TOY_Z = [0, 2, 2, 1, 2, 3]

TOY_CONFIG = {
    "attributes": {"gender": ["F", "M"], "age": ["<=17", "18-24", "25-34"]},
    "workload": [
        {"id": "gender_age", "attributes": ["gender", "age"]},
        {"id": "gender", "attributes": ["gender"]},
    ],
    "levels": [{"id": "eps-1", "epsilon": "1"}, {"id": "eps-4", "epsilon": "4"}],
}


def toy_config(**overrides) -> DPConfig:
    """The toy round: attributes of §5, targets gender × age and gender."""
    return parse_config({**TOY_CONFIG, **overrides})


def toy_table() -> pd.DataFrame:
    """The 10-row toy table X of §5 (text cells)."""
    return pd.DataFrame(TOY_ROWS, columns=["gender", "age"], dtype=object)


def toy_channel(config: DPConfig | None = None) -> Channel:
    """The channel of gender × age under a release with ρ = 0.5 on gender and on age."""
    config = config or toy_config()
    plan = parse_release_declaration(
        {"groups": [{"attributes": ["gender"], "rho": 0.5}, {"attributes": ["age"], "rho": 0.5}]},
        config,
    )
    return target_channel(plan, config, ("gender", "age"))
