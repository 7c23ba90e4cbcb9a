"""The DP configuration's scalar options (spec dp-round.md §10): the tracks, the query
types, the gates and feedback, the reconstruction, the baselines and the rules between
options, with the value checks :mod:`scoring.dp.config.parse` shares (``bad_value``,
``choice``, ``integer``)."""

from __future__ import annotations

import json
import math
from typing import Any

from scoring.dp.config.schema import Baselines, DPConfig, Reconstruction
from scoring.dp.errors import DPError
from scoring.errors import ConfigChecks
from scoring.messages import clip, expect


def bad_value(key: str, expected: dict, value: Any) -> DPError:
    """``key`` holds ``value`` where ``expected`` (an ``expect.*`` message) was wanted."""
    return DPError(
        "dp.config.bad_value",
        key=key,
        expected=expected,
        value=clip(json.dumps(value, default=str)),
    )


def choice(raw: dict, key: str, choices: tuple, default, label: str | None = None):
    value = raw.get(key, default)
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)  # no "or": it stayed in Japanese
        raise bad_value(label or key, expect("choice", choices=listed), value)
    return value


def integer(raw: dict, key: str, default: int, lo: int, hi: int, label: str | None = None) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise bad_value(label or key, expect("integer_range", low=f"{lo:,}", high=f"{hi:,}"), value)
    return value


def is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def parse_baselines(raw: Any) -> Baselines:
    if not isinstance(raw, dict):
        raise bad_value("baselines", expect("object"), raw)
    unknown = set(raw) - {"trials", "rho_rule", "aggregate", "it_x", "x_max", "seed"}
    if unknown:
        raise bad_value(
            "baselines",
            expect("object_with", keys="trials, rho_rule, aggregate, it_x, x_max, seed"),
            raw,
        )
    it_x = raw.get("it_x", list(Baselines.it_x))
    if (
        not isinstance(it_x, list)
        or not it_x
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in it_x)
    ):
        raise bad_value("baselines.it_x", expect("positive_integers"), it_x)
    seed = raw.get("seed", Baselines.seed)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise bad_value("baselines.seed", expect("non_negative_integer"), seed)
    return Baselines(
        trials=integer(raw, "trials", Baselines.trials, 1, 1000, "baselines.trials"),
        rho_rule=choice(
            raw, "rho_rule", ("exact", "paper_linear"), Baselines.rho_rule, "baselines.rho_rule"
        ),
        aggregate=choice(
            raw,
            "aggregate",
            ("median_of_measures", "mean_of_measures", "measure_of_medians"),
            Baselines.aggregate,
            "baselines.aggregate",
        ),
        it_x=tuple(it_x),
        x_max=integer(raw, "x_max", Baselines.x_max, 1, 10_000, "baselines.x_max"),
        seed=seed,
    )


def parse_reconstruction(raw: Any) -> Reconstruction:
    if not isinstance(raw, dict) or set(raw) - {"init", "tol", "max_iter"}:
        raise bad_value("reconstruction", expect("object_with", keys="init, tol, max_iter"), raw)
    tol = raw.get("tol", Reconstruction.tol)
    if not is_number(tol) or not 0 < tol < 1:
        raise bad_value("reconstruction.tol", expect("open_unit"), tol)
    return Reconstruction(
        init=choice(
            raw, "init", ("uniform", "observed"), Reconstruction.init, "reconstruction.init"
        ),
        tol=float(tol),
        max_iter=integer(
            raw, "max_iter", Reconstruction.max_iter, 1, 1_000_000, "reconstruction.max_iter"
        ),
    )


def parse_tracks(raw: Any) -> tuple[bool, str]:
    """``tracks``: (interactive, batch)."""
    if not isinstance(raw, dict) or set(raw) - {"interactive", "batch"}:
        raise bad_value("tracks", expect("object_with", keys="interactive, batch"), raw)
    interactive = raw.get("interactive", DPConfig.interactive)
    if not isinstance(interactive, bool):
        raise bad_value("tracks.interactive", expect("boolean"), interactive)
    batch = choice(
        raw, "batch", ("off", "platform", "upload", "both"), DPConfig.batch, "tracks.batch"
    )
    return interactive, batch


def parse_query_types(raw: dict) -> tuple[str, ...]:
    query_types = raw.get("query_types", list(DPConfig.query_types))
    if (
        not isinstance(query_types, list)
        or not all(isinstance(kind, str) for kind in query_types)  # a set takes no list
        or not set(query_types) <= {"histogram", "count", "mean"}
        or len(set(query_types)) != len(query_types)
    ):
        raise bad_value(
            "query_types", expect("subset", values="['histogram', 'count', 'mean']"), query_types
        )
    return tuple(query_types)


def parse_gates_and_feedback(raw: dict, checks: ConfigChecks) -> dict[str, Any]:
    """``spearman_gate``, ``plausibility_z``, ``publish_truth`` and ``feedback``, each checked
    on its own: every error found is kept in ``checks`` (a key at fault is then ``None``), so
    one wrong option hides no other."""
    return {
        "spearman_gate": checks.run(_spearman_gate, raw),
        "plausibility_z": checks.run(_plausibility_z, raw),
        "publish_truth": checks.run(_publish_truth, raw),
        "feedback": checks.run(choice, raw, "feedback", ("after_close", "live"), DPConfig.feedback),
    }


def _spearman_gate(raw: dict) -> float | None:
    gate = raw.get("spearman_gate", DPConfig.spearman_gate)
    if gate is not None and (not is_number(gate) or not -1 <= gate <= 1):
        raise bad_value("spearman_gate", expect("null_or_correlation"), gate)
    return None if gate is None else float(gate)


def _plausibility_z(raw: dict) -> float:
    plausibility_z = raw.get("plausibility_z", DPConfig.plausibility_z)
    if not is_number(plausibility_z) or plausibility_z <= 0:
        raise bad_value("plausibility_z", expect("number_above_zero"), plausibility_z)
    return float(plausibility_z)


def _publish_truth(raw: dict) -> bool:
    publish_truth = raw.get("publish_truth", DPConfig.publish_truth)
    if not isinstance(publish_truth, bool):
        raise bad_value("publish_truth", expect("boolean"), publish_truth)
    return publish_truth


def check_option_rules(*, adjacency: str, interactive: bool, batch: str, feedback: str) -> None:
    """The rules between options: a released table of N rows reveals N (so the batch track
    needs ``replace``), and live scores reveal the hidden histograms (upload-only rounds)."""
    if adjacency == "add_remove" and batch != "off":
        raise DPError("dp.config.batch_needs_replace")
    if feedback == "live" and (batch != "upload" or interactive):
        raise DPError("dp.config.live_feedback")
