"""The DP round's configuration and hidden table as the platform calls ``scoring.dp``, and
the interactive track computed on them: a query checked, its true and its noisy answer, the
workload's truths, and which tracks a round offers. Nothing here computes a formula; it
reads, caches and adapts. Releases, estimates and baselines: :mod:`pwscup.dp.estimation`.

The hidden table is parsed once per process and kept as its code matrix (N × attributes),
keyed by its SHA-256, so a query costs a ``bincount`` (spec: < 100 ms end to end at 14 cells).
"""

import functools
import math
from dataclasses import dataclass

import numpy as np

import scoring
from pwscup.core.stored import stored_bytes
from scoring.dp.config import DPConfig, parse_config
from scoring.dp.data import histogram_of_codes, table_codes, validate_original
from scoring.dp.errors import DPError

# Every input problem ``scoring`` reports (DPError, or a CSV that cannot be read).
DPInputError = scoring.ValidationError


def config_validate(raw) -> dict:
    """The normalised configuration (spec §10), or ``DPError`` with the §12 message.

    ``raw`` is the configuration already read from its JSON: a JSON string (``"x"``) is a
    value that is not an object, as ``[]`` or ``1`` are, not JSON text to read again."""
    if not isinstance(raw, dict):
        raise DPError("dp.config.not_object")
    return parse_config(raw).as_dict()


@functools.lru_cache(maxsize=64)
def _parsed(config_json: str) -> DPConfig:
    import json

    # Stored, so checked when saved: ids saved before the identifier rule keep working.
    return parse_config(json.loads(config_json), check_ids=False)


def config_of(config: dict) -> DPConfig:
    """The parsed configuration (cached); ``config`` must keep its keys' order (the DP
    round's ``config``, not ``Round.config``: jsonb reorders keys)."""
    import json

    return _parsed(json.dumps(config))


def round_config(round_) -> dict:
    """The configuration of a DP round, in the organizer's key order."""
    return round_.dp.config


def table_check(content: bytes, config: dict) -> int:
    """Check the hidden table against the configuration; its number of rows N."""
    table = scoring.read_table(content, name="original")
    return len(validate_original(table, config_of(config)))


@dataclass(frozen=True)
class HiddenTable:
    attributes: tuple[str, ...]
    codes: np.ndarray  # N × W, domain indices in round order


_TABLES: dict[tuple[str, str], HiddenTable] = {}


def hidden_table(round_) -> HiddenTable:
    """The round's hidden table as codes (read once per process and table version)."""
    import json

    key = (round_.original_sha256, json.dumps(round_config(round_).get("attributes")))
    cached = _TABLES.get(key)
    if cached is not None:
        return cached
    config = config_of(round_config(round_))
    table = hidden_frame(round_)
    attributes = config.attribute_names
    hidden = HiddenTable(attributes, table_codes(table, config, attributes))
    if len(_TABLES) > 16:
        _TABLES.clear()
    _TABLES[key] = hidden
    return hidden


def hidden_frame(round_):
    """The hidden table as a validated DataFrame, read from storage (not cached: the codes
    of ``hidden_table`` are what the requests use; the close and declared checks read this)."""
    config = config_of(round_config(round_))
    return validate_original(
        scoring.read_table(stored_bytes(round_.original_file), name="original"), config
    )


def level_budget(config: dict, level: str):
    return config_of(config).level(level).epsilon


# --- queries -------------------------------------------------------------------------------


def query_check(config: dict, payload: dict):
    """The checked query (``scoring.dp.laplace.Query``: type, attributes in round order,
    where, exact ε, Δ, λ), or ``DPError`` (spec §12)."""
    from scoring.dp.laplace import parse_query

    return parse_query(payload, config_of(config))


def query_cells(config: dict, query) -> list[list[str]]:
    return [list(cell) for cell in query.cells(config_of(config))]


def query_truth(round_, query) -> np.ndarray:
    """The true answer of a checked query on the hidden table (never shown to teams)."""
    config = config_of(round_config(round_))
    hidden = hidden_table(round_)
    index = {a: k for k, a in enumerate(hidden.attributes)}
    if query.type == "count":
        mask = np.ones(hidden.codes.shape[0], dtype=bool)
        for attribute, value in query.where.items():
            mask &= hidden.codes[:, index[attribute]] == config.attributes[attribute].index(value)
        return np.array([float(mask.sum())])
    columns = [index[a] for a in query.attributes]
    return histogram_of_codes(
        hidden.codes[:, columns], config.domain_sizes(query.attributes)
    ).astype(float)


def laplace_answer(truth, scale: float) -> list[float]:
    """The platform's answer: OpenDP's exact Laplace sampler, OS randomness, no seed."""
    from scoring.dp.laplace import opendp_laplace_answer

    return [float(v) for v in opendp_laplace_answer(truth, scale=scale)]


def request_id_check(value) -> str:
    from scoring.dp.ledger import check_request_id

    return check_request_id(value)


def method_label(*, queries: int, releases: int, estimator: str | None = None) -> str:
    from scoring.dp import method_label as label

    return label(queries=queries, releases=releases, estimator=estimator)


def round_truths(round_) -> dict[str, list[int]]:
    """The true histogram of every workload target (for scoring and baselines only)."""
    config = config_of(round_config(round_))
    hidden = hidden_table(round_)
    index = {a: k for k, a in enumerate(hidden.attributes)}
    return {
        target.id: histogram_of_codes(
            hidden.codes[:, [index[a] for a in target.attributes]],
            config.domain_sizes(target.attributes),
        ).tolist()
        for target in config.workload
    }


def target_of_answer(config: dict, reply: dict) -> str | None:
    if reply.get("type") != "histogram":
        return None
    for target in config_of(config).workload:
        if list(target.attributes) == list(reply.get("attributes", [])):
            return target.id
    return None


def prior_counts(config: dict, *, rows: int) -> dict[str, list[float]]:
    """N / V_S in every cell of every target: the estimate of a team that knows nothing."""
    parsed = config_of(config)
    return {t.id: [rows / parsed.cells(t.id)] * parsed.cells(t.id) for t in parsed.workload}


# --- tracks --------------------------------------------------------------------------------


def batch_platform_enabled(config: dict) -> bool:
    return config_of(config).batch in ("platform", "both")


def declared_enabled(config: dict) -> bool:
    return config_of(config).batch in ("upload", "both")


def declared_only(config: dict) -> bool:
    parsed = config_of(config)
    return parsed.batch == "upload" and not parsed.interactive


def live_feedback(config: dict) -> bool:
    """``feedback`` = ``live`` (the configuration allows it in upload-only rounds only)."""
    return config_of(config).feedback == "live"


def interactive_enabled(config: dict) -> bool:
    return config_of(config).interactive


def workload_cells(config: dict) -> int:
    """Σ V_S over the workload's targets."""
    parsed = config_of(config)
    return sum(parsed.cells(t.id) for t in parsed.workload)


def cells_of(config: dict, target_id: str) -> int:
    return math.prod(config_of(config).domain_sizes(config_of(config).target(target_id).attributes))
