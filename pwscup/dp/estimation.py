"""The DP round's releases and estimates as the platform calls ``scoring.dp``: a
Pk-anonymized release planned and run on the hidden table with fresh OS entropy, an
estimate read from its CSV or built from a release, a declared upload checked (and its
plausibility tested on the hidden table), the estimates' scores, and the paper's baselines
they are shown next to. Like :mod:`pwscup.dp.engine` (the configuration, the hidden table,
the queries), nothing here computes a formula; it adapts ``scoring.dp`` to the round."""

import math
from dataclasses import dataclass

import numpy as np

import scoring
from pwscup.dp.engine import config_of, hidden_frame, hidden_table, round_config
from scoring.dp.errors import DPError

# --- releases and estimators ---------------------------------------------------------------


def release_rng():
    """Fresh OS entropy for a real release (never stored or derived)."""
    from scoring.dp.pk import system_generator

    return system_generator()


def release_declaration(config: dict, payload: dict, *, rows: int):
    """The checked plan of a release request (mechanism, groups; ε by eq. 6, charge exact),
    or ``DPError``."""
    from scoring.dp.pk import parse_release_declaration

    declaration = {
        "mechanism": payload.get("mechanism", "pk_anonymization"),
        "groups": payload.get("groups"),
    }
    return ReleaseDeclaration(parse_release_declaration(declaration, config_of(config)), rows)


@dataclass(frozen=True)
class ReleaseDeclaration:
    plan: object
    rows: int

    @property
    def epsilon(self):
        """What the ledger charges (exact)."""
        return self.plan.charge

    @property
    def k(self) -> float:
        return self.plan.k(self.rows)

    def groups_json(self) -> list[dict]:
        return self.plan.as_dict(self.rows)["groups"]


def release_run(round_, declaration: ReleaseDeclaration, *, rng) -> bytes:
    """Run the release on the hidden table (workload attributes, shuffled); its CSV bytes."""
    from scoring.dp.pk import codes_to_table, run_pk

    config = config_of(round_config(round_))
    hidden = hidden_table(round_)
    index = {a: k for k, a in enumerate(hidden.attributes)}
    plan = declaration.plan
    codes = hidden.codes[:, [index[a] for a in plan.attributes]]
    released = run_pk(codes, plan, config, rng, shuffle=True)
    table = codes_to_table(released, config, plan.attributes)
    return table.to_csv(index=False, lineterminator="\n").encode("utf-8")


def _as_lists(estimates) -> dict[str, list[float]]:
    return {
        key: [float(v) for v in np.asarray(value, dtype=float)] for key, value in estimates.items()
    }


def estimate_from_release(content: bytes, config: dict, estimator: str, *, groups) -> dict:
    """The platform's BT/BR/BI estimate of every target from a stored release."""
    from scoring.dp.data import validate_release_table
    from scoring.dp.estimators import estimate_from_release as estimate
    from scoring.dp.pk import parse_release_declaration

    parsed = config_of(config)
    plan = parse_release_declaration({"groups": groups}, parsed)
    codes = validate_release_table(
        scoring.read_table(content, name="release.csv"), parsed, rows=None
    )
    return _as_lists(estimate(codes, plan, parsed, estimator))


def estimate_read(content: bytes, config: dict, *, name: str) -> dict:
    """A checked estimate.csv as ``{target: [counts]}``, or ``DPError`` (spec §12); the
    messages call the file ``name`` (as uploaded)."""
    from scoring.dp.estimators import read_estimate

    return _as_lists(read_estimate(content, config_of(config), name=name))


def estimate_header(config: dict) -> list[str]:
    from scoring.dp.estimators import estimate_header as header

    return header(config_of(config))


def estimate_csv(counts: dict, config: dict) -> bytes:
    from scoring.dp.estimators import write_estimate

    return write_estimate({k: np.asarray(v) for k, v in counts.items()}, config_of(config))


def estimate_scores(counts: dict, truths: dict, config: dict) -> dict:
    """L2 and Spearman per target and their means (spec §4)."""
    from scoring.dp.utility import score_estimates

    scores = score_estimates(counts, truths)
    return {
        "targets": scores["targets"],
        "mean_l2": scores["l2"],
        "mean_spearman": scores["spearman"],
    }


# --- declared uploads, baselines -----------------------------------------------------------


def _json_safe(value):
    """Plain JSON (no inf/nan, which PostgreSQL's jsonb refuses): ±inf → "inf"/"-inf"."""
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(v) for v in value]
    if isinstance(value, np.ndarray):
        return _json_safe(value.tolist())
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def declared_check(content: bytes, declaration_raw, config: dict, *, budget, rows: int, name: str):
    """A declared upload checked against the round (``scoring.dp.declared.Declared``), or
    ``DPError``."""
    from scoring.dp.declared import check_declared

    return check_declared(
        content, declaration_raw, config_of(config), budget=budget, rows=rows, name=name
    )


def declared_estimate(declared) -> dict:
    """What an estimate keeps of a checked declared upload, its ε apart: a table or counts,
    the declaration, the scored counts per target, the method and the estimator."""
    return {
        "source": "declared_table" if declared.kind == "table" else "declared_counts",
        "declaration": declared.declaration,
        "counts": _as_lists(declared.counts),
        "method": declared.method,
        "estimator": declared.estimator,
    }


def declared_plausibility(round_, declared) -> dict:
    from scoring.dp.declared import declared_plausibility as tests

    return _json_safe(tests(declared, hidden_frame(round_), config_of(round_config(round_))))


def level_baselines(table, config: dict, level: dict) -> dict:
    """The paper's baselines at one level (spec §9), shaped for the leaderboard: rows BT,
    BR, IT_X and the prior, each with L2 and ρ_s (mean and per target), and the crossings."""
    from scoring.dp.baselines import run_baselines

    parsed = config_of(config)
    epsilon = parsed.level(level["id"]).epsilon
    try:
        result = run_baselines(table, parsed, float(epsilon))
    except DPError as error:
        # A level the library cannot run them at (a ρ it refuses): the teams' scores stand;
        # the level shows no baselines and says why, kept with its code so that the
        # leaderboard says it in its reader's language (``ranking._baselines_shown``).
        return {
            "rows": [],
            "error": str(error),
            "error_code": error.code,
            "error_params": error.params,
        }
    eps_text = level["epsilon"]
    rows = [
        {"label": label, "epsilon": eps_text, "k": result["k"], **result[label]}
        for label in ("BT", "BR")
    ]
    for item in result["IT"]:
        rows.append(
            {
                "label": f"IT{item['x']}",
                "epsilon": eps_text,
                "k": None,
                "l2": item["l2"],
                "spearman": item["spearman"],
                "targets": {},
            }
        )
    rows.append({"label": "prior", "epsilon": "0", "k": None, **result["prior"]})
    from scoring.dp.paper import paper_reference

    paper = paper_reference(epsilon, cells=[parsed.cells(t.id) for t in parsed.workload])
    if paper is not None:
        for row in rows:
            row["paper"] = paper["rows"].get(row["label"])
    return _json_safe(
        {
            "rows": rows,
            "paper_crossing": paper["crossing"] if paper else None,
            "crossing": result["crossing"],
            "rho": result["rho"],
            "rho_rule": result["rho_rule"],
            "trials": result["trials"],
            "expected_bt_l2": result["expected_bt_l2"],
        }
    )


def round_baselines(round_) -> dict:
    table = hidden_frame(round_)
    return {
        level["id"]: level_baselines(table, round_config(round_), level)
        for level in round_config(round_)["levels"]
    }
