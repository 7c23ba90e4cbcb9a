"""Reading and checking a DP round's configuration (spec dp-round.md §10, §12 messages).

:func:`parse_config` turns the organizer's JSON into a frozen
:class:`~scoring.dp.config.schema.DPConfig`, in stages (the document, the attributes and
the workload, the levels; the options of :mod:`scoring.dp.config.options`), and raises
every problem found at once (a :class:`~scoring.dp.errors.DPError`, ``DPErrors`` when there
are several); the shape it fills is :mod:`scoring.dp.config.schema`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from scoring.bounded_json import loads_bounded
from scoring.dp.config.options import (
    bad_value,
    check_option_rules,
    choice,
    integer,
    is_number,
    parse_baselines,
    parse_gates_and_feedback,
    parse_query_types,
    parse_reconstruction,
    parse_tracks,
)
from scoring.dp.config.schema import DPConfig, Level, Target
from scoring.dp.errors import DPError, DPErrors
from scoring.dp.exact import exact_text, parse_epsilon
from scoring.encodings import fold_lookalikes
from scoring.errors import ConfigChecks, ConfigError
from scoring.identifiers import IDENTIFIER_MAX_LENGTH, is_identifier
from scoring.messages import clip, expect

MAX_LEVEL_EPSILON = Fraction(100)

KNOWN_KEYS = (
    "kind",
    "attributes",
    "numeric",
    "workload",
    "levels",
    "adjacency",
    "tracks",
    "query_types",
    "max_charges_per_level",
    "max_cells",
    "reconstruction",
    "rank_metric",
    "target_aggregate",
    "overall",
    "spearman_gate",
    "feedback",
    "plausibility_z",
    "publish_truth",
    "baselines",
)
REQUIRED_KEYS = ("attributes", "workload", "levels")


def _parse_attributes(raw: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict) or not raw:
        raise bad_value("attributes", expect("attributes"), raw)
    attributes = {}
    for name, domain in raw.items():
        if not isinstance(domain, list) or not all(isinstance(v, str | int) for v in domain):
            raise bad_value(f"attributes.{name}", expect("strings"), domain)
        values = [str(v).strip() for v in domain]
        if len(values) < 2:
            raise DPError("dp.attr.too_few", attribute=clip(name))
        seen: dict[str, int] = {}
        for position, value in enumerate(values, start=1):
            if value == "":
                raise DPError("dp.attr.empty_value", attribute=clip(name), position=position)
            # Values are compared with cells as fold_lookalikes leaves them (scoring.dp.data).
            key = fold_lookalikes(value)
            if key in seen:
                raise DPError(
                    "dp.attr.duplicate",
                    attribute=clip(name),
                    value=clip(value),
                    first=seen[key],
                    second=position,
                )
            seen[key] = position
        attributes[str(name).strip()] = tuple(values)
    return attributes


def _parse_numeric(raw: Any) -> dict[str, tuple[float, float]]:
    if not isinstance(raw, dict):
        raise bad_value("numeric", expect("numeric"), raw)
    numeric = {}
    for column, spec in raw.items():
        bounds = spec.get("range") if isinstance(spec, dict) else None
        if (
            not isinstance(bounds, list)
            or len(bounds) != 2
            or not all(is_number(b) for b in bounds)
            or not bounds[0] < bounds[1]
        ):
            raise DPError("dp.numeric.range", column=clip(column))
        numeric[column] = (float(bounds[0]), float(bounds[1]))
    return numeric


def _identified_entries(
    raw: Any, *, key: str, field: str, sample: str, duplicate: str, name: str, check_ids: bool
):
    """``(id, entry)`` of a non-empty list of ``{"id": text, <field>: <sample>}`` with
    distinct ids (``workload`` and ``levels``); a repeated id raises ``duplicate`` with the id
    as the parameter ``name``. With ``check_ids``, an id is one of
    :func:`scoring.identifiers.is_identifier` (with dots): it is a part of the round's URLs
    and of file names."""
    if not isinstance(raw, list) or not raw:
        raise bad_value(key, expect("id_list", field=field), raw)
    ids = set()
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry["id"]:
            raise bad_value(key, expect("id_entries", field=field, sample=sample), entry)
        entry_id = entry["id"]
        if check_ids and not is_identifier(entry_id, dots=True):
            raise DPError(f"dp.{name}.id_form", **{name: clip(entry_id)}, max=IDENTIFIER_MAX_LENGTH)
        if entry_id in ids:
            raise DPError(duplicate, **{name: clip(entry_id)})
        ids.add(entry_id)
        yield entry_id, entry


def _parse_workload(
    raw: Any, attributes: dict, max_cells: int, *, check_ids: bool
) -> tuple[Target, ...]:
    order = {a: k for k, a in enumerate(attributes)}
    targets = []
    for target_id, entry in _identified_entries(
        raw,
        key="workload",
        field="attributes",
        sample="[...]",
        duplicate="dp.target.duplicate",
        name="target",
        check_ids=check_ids,
    ):
        names = entry.get("attributes")
        if not isinstance(names, list) or not names:
            raise DPError("dp.target.empty", target=clip(target_id))
        seen = set()
        for name in names:
            if not isinstance(name, str) or name not in attributes:
                raise DPError(
                    "dp.target.unknown_attribute", target=clip(target_id), attribute=clip(name)
                )
            if name in seen:
                raise DPError(
                    "dp.target.repeated_attribute", target=clip(target_id), attribute=clip(name)
                )
            seen.add(name)
        ordered = tuple(sorted(names, key=order.__getitem__))
        cells = math.prod(len(attributes[a]) for a in ordered)
        if cells > max_cells:
            raise DPError(
                "dp.target.too_many_cells",
                target=clip(target_id),
                cells=f"{cells:,}",
                limit=f"{max_cells:,}",
            )
        targets.append(Target(target_id, ordered))
    return tuple(targets)


def _parse_levels(raw: Any, *, check_ids: bool) -> tuple[Level, ...]:
    """The levels, each one's ε checked whatever the others' (every level at fault is
    reported at once, ``DPErrors``); a list that is not one, or a repeated id, stops there."""
    checks = ConfigChecks(DPError, DPErrors)
    levels = []
    try:
        for level_id, entry in _identified_entries(
            raw,
            key="levels",
            field="epsilon",
            sample="...",
            duplicate="dp.level.duplicate",
            name="level",
            check_ids=check_ids,
        ):
            levels.append(checks.run(_level, level_id, entry))
    except DPError as error:
        checks.errors.append(error)
    checks.raise_found()
    return tuple(levels)


def _level(level_id: str, entry: dict) -> Level:
    """One level; an ε that does not parse names its level (``level``: its place in the
    configuration, e.g. a bundle's ``levels[2].epsilon``)."""
    try:
        epsilon = parse_epsilon(entry.get("epsilon"), positive=False)
    except DPError as error:
        raise DPError(error.code, **{**error.params, "level": clip(level_id)}) from None
    if epsilon <= 0:
        raise DPError("dp.level.not_positive", level=clip(level_id), epsilon=exact_text(epsilon))
    if epsilon > MAX_LEVEL_EPSILON:
        raise DPError("dp.level.too_large", level=clip(level_id), epsilon=exact_text(epsilon))
    return Level(level_id, epsilon)


def _document(raw: Any) -> dict:
    """The configuration as a JSON object with known keys only, the required ones present."""
    if isinstance(raw, bytes | str):
        try:
            raw = loads_bounded(raw)
        except ConfigError as exc:
            # The parser's own message, nested: rendered in the reader's language.
            detail = {"code": exc.code, "params": exc.params} if exc.code else clip(str(exc))
            raise DPError("dp.config.not_json", detail=detail) from exc
    if not isinstance(raw, dict):
        raise DPError("dp.config.not_object")
    for key in raw:
        if key not in KNOWN_KEYS:
            raise DPError("dp.config.unknown_key", key=clip(key), known=", ".join(KNOWN_KEYS))
    for key in REQUIRED_KEYS:
        if key not in raw:
            raise DPError("dp.config.missing_key", key=key)
    if raw.get("kind", "dp") != "dp":
        raise bad_value("kind", expect("one_of", choices="'dp'"), raw.get("kind"))
    return raw


def parse_config(raw: Any, *, check_ids: bool = True) -> DPConfig:
    """Validate a DP round configuration and return it as a :class:`DPConfig`.

    Parameters
    ----------
    raw : dict, str or bytes
        The configuration as a JSON object, or its JSON text.
    check_ids : bool, keyword-only
        Whether the levels' and targets' ids must follow the identifier rule (a new
        configuration); a stored one, checked when it was saved, is read without it (ids
        saved before the rule keep working).

    Raises
    ------
    DPError
        Every problem found (a ``DPErrors`` when there are several), each with the
        message of spec §12.
    """
    raw = _document(raw)
    # Each key is checked on its own and every error found is reported at once (a
    # ``DPErrors`` when there are several); a check that needs another key's value (the
    # workload its attributes and cell cap, the rules between options) waits until that
    # key is right.
    checks = ConfigChecks(DPError, DPErrors)
    attributes = checks.run(_parse_attributes, raw["attributes"])
    numeric = checks.run(_parse_numeric, raw.get("numeric", {}))
    max_cells = checks.run(integer, raw, "max_cells", DPConfig.max_cells, 2, 100_000_000)
    workload = None
    if attributes is not None and max_cells is not None:
        workload = checks.run(
            _parse_workload, raw["workload"], attributes, max_cells, check_ids=check_ids
        )
    levels = checks.run(_parse_levels, raw["levels"], check_ids=check_ids)
    adjacency = checks.run(choice, raw, "adjacency", ("replace", "add_remove"), DPConfig.adjacency)
    tracks = checks.run(parse_tracks, raw.get("tracks", {}))
    query_types = checks.run(parse_query_types, raw)
    gates_and_feedback = parse_gates_and_feedback(raw, checks)
    max_charges = checks.run(
        integer, raw, "max_charges_per_level", DPConfig.max_charges_per_level, 1, 100_000
    )
    reconstruction = checks.run(parse_reconstruction, raw.get("reconstruction", {}))
    rank_metric = checks.run(choice, raw, "rank_metric", ("l2", "spearman"), DPConfig.rank_metric)
    target_aggregate = checks.run(
        choice, raw, "target_aggregate", ("mean",), DPConfig.target_aggregate
    )
    overall = checks.run(choice, raw, "overall", ("rank_sum",), DPConfig.overall)
    baselines = checks.run(parse_baselines, raw.get("baselines", {}))
    if None not in (adjacency, tracks, gates_and_feedback["feedback"]):
        checks.run(
            check_option_rules,
            adjacency=adjacency,
            interactive=tracks[0],
            batch=tracks[1],
            feedback=gates_and_feedback["feedback"],
        )
    checks.raise_found()
    interactive, batch = tracks
    return DPConfig(
        attributes=attributes,
        workload=workload,
        levels=levels,
        numeric=numeric,
        adjacency=adjacency,
        interactive=interactive,
        batch=batch,
        query_types=query_types,
        max_charges_per_level=max_charges,
        max_cells=max_cells,
        reconstruction=reconstruction,
        rank_metric=rank_metric,
        target_aggregate=target_aggregate,
        overall=overall,
        baselines=baselines,
        **gates_and_feedback,
    )


def validate_config(raw: Any) -> dict:
    """The normalised configuration (defaults filled in), or :class:`DPError`."""
    return parse_config(raw).as_dict()


def load_dp_config(path) -> DPConfig:
    """Read and validate a configuration file (UTF-8, BOM allowed)."""
    with open(path, "rb") as handle:  # bytes: the JSON reader refuses a file not in UTF-8
        return parse_config(handle.read())
