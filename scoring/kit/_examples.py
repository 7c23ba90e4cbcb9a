"""BANK, the ten-row worked example of indicators-and-kit.md B.4 (doctests and tests)."""

from __future__ import annotations

import pandas as pd

from scoring.schema import load_config

_ROWS = [
    ("23", "M", "東京", "300", "50"),
    ("27", "F", "埼玉", "350", "80"),
    ("31", "M", "東京", "420", "120"),
    ("35", "F", "大阪", "500", "200"),
    ("38", "M", "京都", "480", "150"),
    ("44", "F", "東京", "610", "300"),
    ("52", "M", "大阪", "700", "420"),
    ("58", "F", "京都", "650", "380"),
    ("63", "M", "埼玉", "550", "500"),
    ("89", "F", "東京", "400", "900"),
]
_DECOYS = [
    ("33", "M", "東京", "400", "100"),
    ("47", "F", "大阪", "600", "300"),
    ("29", "F", "埼玉", "300", "100"),
    ("61", "M", "京都", "600", "500"),
    ("70", "F", "東京", "500", "800"),
]
COLUMNS = ["age", "sex", "pref", "income", "deposit"]


def bank() -> pd.DataFrame:
    """The BANK table as text cells."""
    return pd.DataFrame(_ROWS, columns=COLUMNS, dtype=object)


def bank_with_decoys() -> pd.DataFrame:
    """BANK followed by the five decoys of B9 (rows 10–14, 0-based)."""
    return pd.DataFrame(_ROWS + _DECOYS, columns=COLUMNS, dtype=object)


def bank_config(*, qi=("age", "sex", "pref")):
    """The round configuration of BANK: QI age, sex, pref; SA income, deposit."""
    raw = {
        "qi": list(qi),
        "sa": ["income", "deposit"],
        "cross": [c for c in ("age", "sex") if c in qi],
        "e2_column": "income",
        "e4_column": "deposit",
        "match_qi": None,
        "euc_sa": None,
    }
    return load_config(raw, bank())


def bank_hierarchy() -> dict:
    """``attr_depth.json`` of BANK: age thresholds 30/50/70 then 50; pref regions."""
    regions = {
        "東京": ("関東", "東日本"),
        "埼玉": ("関東", "東日本"),
        "大阪": ("近畿", "西日本"),
        "京都": ("近畿", "西日本"),
    }
    return {
        "pref": {
            "type": "category",
            "definition": {v: {"depth_1": a, "depth_2": b} for v, (a, b) in regions.items()},
        },
        "age": {"type": "numeric", "threshold_1": "30/50/70", "threshold_2": "50"},
    }
