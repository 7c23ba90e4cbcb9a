"""The DP round's starter kit and its sample submission (reads only).

* **The sample estimate**: every cell of every workload target gets N / cells (the uniform
  guess, the leaderboard's "prior" baseline). It is a valid ``estimate.csv`` for every level,
  uploads as is, costs no budget and is scored after the close like any estimate.
* **The kit** (``pwscup.core.kits`` packs it with the toolkit wheel): the round's public
  configuration as ``python -m scoring dp`` reads it, the sample estimate, a practice table
  (random rows over the public domains: not the hidden table, it says nothing about it) to
  try releases, estimators and scoring locally, and a bilingual README.
"""

import functools
import io
import json

import numpy as np
import pandas as pd
from django.template.loader import render_to_string
from django.utils import timezone

from pwscup.core.kits import KitFile
from pwscup.core.toolkit import install_argument, wheel_filename
from pwscup.dp import engine, estimation
from pwscup.dp.models import DPRound

#: The toolkit extra this kind's kit and pages install (``pwscup.core.toolkit.EXTRAS``).
TOOLKIT_EXTRA = "dp"

CONFIG_NAME = "dp_config.json"
SAMPLE_NAME = "sample_estimate.csv"
PRACTICE_NAME = "practice_table.csv"
PRACTICE_SEED = 0


def config_text(*, dp_round: DPRound) -> str:
    """``dp_config.json``: the round's public configuration, as ``python -m scoring dp``
    reads it (the kit's and the API's)."""
    return json.dumps(dp_round.config, indent=2, ensure_ascii=False) + "\n"


def sample_estimate(*, dp_round: DPRound) -> bytes:
    """The uniform estimate (N / cells in every cell of every target) as ``estimate.csv``."""
    config = dp_round.config
    counts = engine.prior_counts(config, rows=dp_round.round.original_rows)
    return estimation.estimate_csv(counts, config)


def sample_estimate_name(*, dp_round: DPRound) -> str:
    return f"{dp_round.round.slug}_{SAMPLE_NAME}"


def sample_preview(*, dp_round: DPRound, lines: int = 6) -> dict:
    """The sample's first lines, and how many it has in all (for the Data tab): made once
    per process for a configuration and table size, the only inputs of the uniform estimate
    (3 ms of CPU on every Data tab otherwise)."""
    return _preview(dp_round.config_text, dp_round.round.original_rows, lines)


@functools.lru_cache(maxsize=32)
def _preview(config_text: str, rows: int, lines: int) -> dict:
    config = json.loads(config_text)
    counts = engine.prior_counts(config, rows=rows)
    text = estimation.estimate_csv(counts, config).decode("utf-8").splitlines()
    return {"head": "\n".join(text[:lines]), "lines": len(text), "more": len(text) > lines}


def practice_table(*, dp_round: DPRound) -> bytes:
    """N rows drawn uniformly over the public domains (seed fixed: the same kit every time).
    Independent of the hidden table: a practice input for ``dp release`` and ``dp score``."""
    config = dp_round.config
    rng = np.random.default_rng(PRACTICE_SEED)
    rows = dp_round.round.original_rows
    table = pd.DataFrame(
        {
            name: np.asarray(values, dtype=object)[rng.integers(0, len(values), size=rows)]
            for name, values in config["attributes"].items()
        }
    )
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue().encode("utf-8")


def _readme_context(dp_round: DPRound, team) -> dict:
    config = dp_round.config
    parsed = engine.config_of(config)
    first = config["levels"][0]
    attributes = list(parsed.workload_attributes)
    return {
        "round_name": dp_round.round.name,
        "who": team.name if team is not None else dp_round.round.competition.name,
        "made_at": timezone.localtime(timezone.now()).strftime("%Y-%m-%d %H:%M %Z"),
        "config": CONFIG_NAME,
        "sample": SAMPLE_NAME,
        "practice": PRACTICE_NAME,
        "wheel": wheel_filename(),
        "install": install_argument(TOOLKIT_EXTRA),
        "rows": dp_round.round.original_rows,
        "level": first["id"],
        "epsilon": first["epsilon"],
        "group": "+".join(attributes),
        "sizes": str(int(np.prod(config_sizes(config, attributes)))),
        "header": ",".join(["target", *attributes, "count"]),
        "uploads": not engine.declared_only(config),
        "batch_platform": engine.batch_platform_enabled(config),
        "interactive": parsed.interactive,
    }


def config_sizes(config: dict, attributes: list[str]) -> list[int]:
    return [len(config["attributes"][name]) for name in attributes]


def round_kit_files(*, dp_round: DPRound, team) -> list[KitFile]:
    """The kit's files (``pwscup.core.kits.kit_response`` adds the toolkit wheel)."""
    readme = render_to_string("dp/kit/README.md", _readme_context(dp_round, team))
    return [
        KitFile("README.md", readme),
        KitFile(CONFIG_NAME, config_text(dp_round=dp_round)),
        KitFile(SAMPLE_NAME, sample_estimate(dp_round=dp_round)),
        KitFile(PRACTICE_NAME, practice_table(dp_round=dp_round)),
    ]
