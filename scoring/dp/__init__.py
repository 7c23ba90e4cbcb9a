"""The DP round's mathematics (spec dp-round.md; seed 000, Y): pure numpy, no framework.

Batch release (Pk-anonymization, Y eq. 2/6/7, reconstruction eq. 3) against interactive
release (Laplace, eq. 4/5, sequential composition), scored by L2 and Spearman.
Every failure is a :class:`DPError` (a :class:`scoring.errors.ValidationError`): ``str``
is the English §12 message; store ``code`` and ``params`` (JSON) and show it later with
``render_dp(code, params, lang)`` or ``error.render("ja")`` (catalogue: ``DP_MESSAGES``).

Randomness: a platform release draws from ``system_generator()`` (fresh OS entropy, never
stored); a platform answer from ``opendp_laplace_answer`` (OpenDP's sampler, no seed).
Seeded numpy generators are for baselines, tests and the worked examples only. OpenDP's
float Laplace sampler is far slower per cell than numpy's, so an answer's time grows with
its number of cells: a target of many cells is slow to answer.

Public API (import from ``scoring.dp``)
---------------------------------------
Configuration (``config``)
    ``parse_config(raw) -> DPConfig``     validate the round JSON (§10, §12 messages)
    ``validate_config(raw) -> dict``      the normalised JSON (defaults filled, ε exact text)
    ``DPConfig``                         .attributes, .workload (``Target``), .levels (``Level``),
                                         .workload_attributes, .level(id), .target(id),
                                         .cells(id), .sensitivity(type), .as_dict(),
                                         .check_platform_release(), .check_free_estimate()
Exact ε (``exact``, ``ledger``)
    ``parse_epsilon(value) -> Fraction`` "0.25", "1/3", JSON numbers as written (§3.8)
    ``exact_text(f)`` / ``format_epsilon(f)`` "5/6" / "5/6 (= 0.833333)", "0.2"
    ``LedgerState(budget, spent, charges)`` and ``ledger_charge(state, eps, what=, max_charges=)``
                                         the strict charge rule; raises the §3.8 refusal
    ``check_request_id(value)``          ≤ 100 printable characters
Data (``data``)
    ``target_cells(config, attrs)``      row-major cells of a target
    ``true_histogram(table, config, attrs)`` / ``true_histograms(table, config)``  z_S (§2)
    ``validate_original(table, config)`` the hidden table's §12 checks
    ``validate_release_table(table, config, rows=N)`` an uploaded release.csv -> codes
    ``table_codes(table, config, attrs)`` / ``histogram_of_codes(codes, sizes)``
    ``synthetic_table(counts, config, attrs, rng=None)`` a table with those counts (§0)
Pk-anonymization (``pk``)
    ``rho_from_epsilon(eps, V)``, ``epsilon_from_rho(rho, V)``, ``release_epsilon(rhos, sizes)`` (eq. 6),
    ``k_of(N, eps)`` (eq. 7), ``equal_rho(eps, sizes)``, ``paper_linear_rho``, ``grr_probabilities``
    ``parse_release_declaration(decl, config) -> ReleasePlan``  §7.3 groups, ε, exact charge
    ``target_channel(plan, config, attrs) -> Channel``  A_S (§3.4): .apply, .apply_inverse, .dense
    ``run_pk(codes, plan, config, rng, shuffle=True)``  §6 draw order, codes in/out
    ``pk_release(table, config, plan, rng)`` the release.csv table
    ``system_generator()``               OS-entropy generator for real releases (never stored)
Estimators (``estimators``)
    ``reconstruct(y, channel, tol=, max_iter=, init=)``  BR, eq. (3) -> .estimate, .iterations
    ``reconstruct_many(Y, channel, ...)`` eq. (3) on a stack of releases (rows), same results
    ``invert(y, channel)``               BI (y A⁻¹)
    ``estimate_from_release(codes, plan, config, "BT"|"BR"|"BI")`` every target
    ``read_estimate(source, config)``    estimate.csv (§7.4) -> {target: vector}
    ``write_estimate(estimates, config)`` / ``estimate_frame`` the CSV
Interactive (``laplace``)
    ``parse_query(query, config, rows=N) -> Query``  §7.2 checks (histogram, count; mean needs rows)
                                         .epsilon, .sensitivity, .scale, .cells(), .as_dict()
    ``query_truth(table, config, query)`` the exact answer (hidden)
    ``opendp_laplace_answer(truth, scale=)`` the platform's answer: OpenDP sampler, OS randomness
    ``seeded_laplace_noise(cells, scale=, rng=)`` §6 reference draw (simulations only)
    ``it_rms_l2(X, cells=, sensitivity=, epsilon=)``  X·√(2V)·Δ/ε
    ``numeric_ldp(values, low=, high=, epsilon=, rng=)`` seed 003's per-record Laplace (§3.9)
Scoring (``utility``)
    ``l2``, ``spearman`` (average ranks; 0 for constants), ``score_estimates(estimates, truths)``
    ``postprocess_counts(counts, n, "raw"|"clamp_rescale")``
    ``Entry``, ``rank_entries(entries, rank_metric=)``, ``overall_ranks(level_ranks)`` (§7.5)
Baselines (``baselines``)
    ``run_baselines(table, config, epsilon)`` BT/BR/IT_X/prior and crossings (§9, 表 5/6)
    ``expected_bt_l2(z, channel)``, ``l2_crossing(best, cells=, sensitivity=, epsilon=)``
Plausibility (``plausibility``, declared mode §8.3)
    ``retention_test``, ``histogram_test``, ``laplace_counts_test``, ``release_moments``
    ``parse_counts_declaration(decl, config, budget)`` declared Laplace counts (§8.2)
Labels
    ``method_label(queries=, releases=, estimator=)`` §7.4's display label

Command line: ``python -m scoring dp epsilon|release|estimate|score`` (:mod:`scoring.dp.cli`).
"""

from scoring.dp.baselines import expected_bt_l2, l2_crossing, run_baselines
from scoring.dp.config import DPConfig, Level, Target, load_dp_config, parse_config, validate_config
from scoring.dp.data import (
    histogram_of_codes,
    synthetic_table,
    table_codes,
    target_cells,
    true_histogram,
    true_histograms,
    validate_original,
    validate_release_table,
)
from scoring.dp.errors import DPError, render_dp
from scoring.dp.estimators import (
    estimate_frame,
    estimate_from_release,
    invert,
    read_estimate,
    reconstruct,
    reconstruct_many,
    release_histograms,
    write_estimate,
)
from scoring.dp.exact import exact_text, format_epsilon, parse_epsilon
from scoring.dp.laplace import (
    Query,
    it_rms_l2,
    numeric_ldp,
    opendp_laplace_answer,
    parse_query,
    query_truth,
    seeded_laplace_noise,
)
from scoring.dp.ledger import LedgerState, check_request_id, ledger_charge
from scoring.dp.messages import DP_MESSAGES
from scoring.dp.pk import (
    Channel,
    ReleasePlan,
    codes_to_table,
    epsilon_from_rho,
    equal_rho,
    grr_probabilities,
    k_of,
    paper_linear_rho,
    parse_release_declaration,
    pk_release,
    release_epsilon,
    rho_from_epsilon,
    run_pk,
    system_generator,
    target_channel,
)
from scoring.dp.plausibility import (
    histogram_test,
    laplace_counts_test,
    parse_counts_declaration,
    release_moments,
    retention_test,
)
from scoring.dp.utility import (
    Entry,
    l2,
    overall_ranks,
    postprocess_counts,
    rank_entries,
    score_estimates,
    spearman,
)


def method_label(*, queries: int, releases: int, estimator: str | None = None) -> str:
    """The display label of a ledger (§7.4): BT/BR/BI/own, IT{X}, hybrid or prior.

    Examples
    --------
    >>> method_label(queries=14, releases=0), method_label(queries=0, releases=1, estimator="BR")
    ('IT14', 'BR')
    >>> method_label(queries=2, releases=1), method_label(queries=0, releases=0)
    ('hybrid', 'prior (ε = 0)')
    """
    if queries and releases:
        return "hybrid"
    if queries:
        return f"IT{queries}"
    if releases:
        return estimator if estimator in ("BT", "BR", "BI") else "own"
    return "prior (ε = 0)"


__all__ = [
    "Channel",
    "DPConfig",
    "DPError",
    "DP_MESSAGES",
    "Entry",
    "LedgerState",
    "Level",
    "Query",
    "ReleasePlan",
    "Target",
    "check_request_id",
    "codes_to_table",
    "epsilon_from_rho",
    "equal_rho",
    "estimate_frame",
    "estimate_from_release",
    "exact_text",
    "expected_bt_l2",
    "format_epsilon",
    "grr_probabilities",
    "histogram_of_codes",
    "histogram_test",
    "invert",
    "it_rms_l2",
    "k_of",
    "l2",
    "l2_crossing",
    "laplace_counts_test",
    "ledger_charge",
    "load_dp_config",
    "method_label",
    "numeric_ldp",
    "opendp_laplace_answer",
    "overall_ranks",
    "paper_linear_rho",
    "parse_config",
    "parse_counts_declaration",
    "parse_epsilon",
    "parse_query",
    "parse_release_declaration",
    "pk_release",
    "postprocess_counts",
    "query_truth",
    "rank_entries",
    "read_estimate",
    "reconstruct",
    "reconstruct_many",
    "release_epsilon",
    "release_histograms",
    "release_moments",
    "render_dp",
    "retention_test",
    "rho_from_epsilon",
    "run_baselines",
    "run_pk",
    "score_estimates",
    "seeded_laplace_noise",
    "spearman",
    "synthetic_table",
    "system_generator",
    "table_codes",
    "target_cells",
    "target_channel",
    "true_histogram",
    "true_histograms",
    "validate_config",
    "validate_original",
    "validate_release_table",
    "write_estimate",
]
