"""The DP round's demo rounds (``manage.py load_demo``; spec §10.1, §10.2):

* ``dp-adult``: the Adult-derived categorical table (sex, ageband, race, income; 32,561
  rows) with six 2-way marginals and the levels ε = 0.1, 1, 4;
* ``dp-practice``: the paper's setting, a practice round on a synthetic 6,040-row table
  built from the 14 published MovieLens gender × age counts (no MovieLens row is shipped).
"""

import datetime as dt
import io
import json
from pathlib import Path

import numpy as np
from django.utils import timezone

from pwscup.competitions.models import Round
from pwscup.dp.services import dp_round_create
from pwscup.kinds.round_basics import RoundBasics

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dp"


def _config(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def movielens_practice_table() -> bytes:
    """6,040 rows whose gender × age histogram is the paper's 14 counts, shuffled (seed 0:
    the practice table is public anyway)."""
    import pandas as pd

    from scoring.dp import parse_config, synthetic_table

    config = _config("movielens_round.json")
    counts = pd.read_csv(FIXTURES / "movielens_counts.csv", dtype={"count": int})
    table = synthetic_table(
        counts["count"].to_numpy(),
        parse_config(config),
        ("gender", "age"),
        rng=np.random.default_rng(0),
    )
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue().encode()


def dp_demo_load(*, competition, organizer, now=None) -> list:
    """Add the two DP demo rounds to ``competition`` (those it lacks); returns them."""
    now = now or timezone.now()
    opens, closes = now - dt.timedelta(hours=1), now + dt.timedelta(days=14)
    made = []
    rounds = (
        (
            "dp-adult",
            "DP：一括開示 vs 対話開示 (Adult) / DP: batch vs interactive (Adult)",
            "adult_dp.csv",
            "adult_round.json",
        ),
        (
            "dp-practice",
            "DP 練習：MovieLens 14 セル / DP practice: MovieLens 14 cells",
            None,
            "movielens_round.json",
        ),
    )
    for slug, name, table_file, config_file in rounds:
        if Round.objects.filter(competition=competition, slug=slug).exists():
            continue
        table = (FIXTURES / table_file).read_bytes() if table_file else movielens_practice_table()
        made.append(
            dp_round_create(
                basics=RoundBasics(competition=competition, name=name, slug=slug),
                table=table,
                table_filename=table_file or "movielens_synthetic.csv",
                config_raw=_config(config_file),
                opens_at=opens,
                closes_at=closes,
                user=organizer,
            )
        )
    return made
