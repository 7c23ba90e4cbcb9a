"""A round's ranking rule, in one place: utility gates, safety, tie-break, shared ranks.

The leaderboard, the 'best submission' selection rule, the final ranking and their CSV
files all rank with these functions; nothing else compares scores.

Utility gates (``Pwscup2015Round.utility_gates``) are a JSON object, one entry per metric:

* ``{"U1": 100}`` — a bare number is an upper bound for the utility losses U1–U6 (lower
  is better): ``U1 ≤ 100``; for the indicators it is a bound in their better direction:
  ``{"L1": 2}`` means ``L1 ≥ 2`` (also L2), ``{"T": 0.3}`` means ``T ≤ 0.3`` (also L3).
  Indicator gates allow 1e-9 of rounding (spec A.3: ``L2 ≥ l − 1e-9``, ``T ≤ t + 1e-9``).
* ``{"S1": {"min": 5}}``, ``{"E1": {"max": 0.5}}``, ``{"U4": {"min": 0, "max": 0.05}}`` —
  any metric, with an explicit direction.

Equal results share a rank (1, 2, 2, 4); teams that fail a gate are listed last, unranked.
"""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

import scoring
import scoring.ranking
from pwscup.accounts.selectors import without_disqualified
from pwscup.core.languages import sentences

# Keys are compared after rounding: a mean of rates must not split a tie by 1e-17.
_DIGITS = 12
INDICATOR_SLACK = 1e-9


class GateError(ValueError):
    """The utility gates are not a valid JSON object of bounds (the message says why)."""


@dataclass(frozen=True)
class Gate:
    metric: str
    minimum: float | None = None
    maximum: float | None = None

    @property
    def slack(self) -> float:
        return INDICATOR_SLACK if self.metric in scoring.INDICATOR_METRICS else 0.0

    def passes(self, value) -> bool:
        if value is None:
            return False
        if self.minimum is not None and value < self.minimum - self.slack:
            return False
        return self.maximum is None or value <= self.maximum + self.slack

    def __str__(self) -> str:
        parts = []
        if self.minimum is not None:
            parts.append(f"{self.metric} ≥ {_bound_text(self.minimum)}")
        if self.maximum is not None:
            parts.append(f"{self.metric} ≤ {_bound_text(self.maximum)}")
        return ", ".join(parts)


def gates_text(raw) -> str:
    """The gates as people read them: ``U1 ≤ 50,000; S1 ≥ 5`` (empty without gates).

    >>> gates_text({"U1": 50000, "U4": 0.2, "S1": {"min": 5}})
    'U1 ≤ 50,000; U4 ≤ 0.2; S1 ≥ 5'
    """
    return "; ".join(str(gate) for gate in parse_gates(raw))


def _bound_text(value: float) -> str:
    """A whole bound with thousands separators (``50,000``), any other in ``%g`` form."""
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:g}"


def _bound(metric: str, key: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise GateError(
            _("Gate %(metric)s: %(key)s must be a number, not %(value)s.")
            % {"metric": metric, "key": key, "value": repr(value)[:80]}
        )
    return float(value)


def parse_gates(raw) -> list[Gate]:
    """Read the gates of a round; raise ``GateError`` naming the entry at fault.

    >>> [str(g) for g in parse_gates({"U1": 100, "S1": {"min": 5}})]
    ['U1 ≤ 100', 'S1 ≥ 5']
    """
    if raw in (None, ""):
        return []
    if not isinstance(raw, dict):
        raise GateError(
            _('Utility gates must be a JSON object such as {"U1": 100, "S1": {"min": 5}}.')
        )
    gates = []
    for metric, spec in raw.items():
        if metric not in scoring.ALL_METRICS:
            raise GateError(
                _("Unknown metric %(metric)s in the gates; choose among %(metrics)s.")
                % {"metric": repr(metric)[:80], "metrics": ", ".join(scoring.ALL_METRICS)}
            )
        if isinstance(spec, dict):
            unknown = set(spec) - {"min", "max"}
            if unknown or not spec:
                raise GateError(
                    _('Gate %(metric)s: use {"min": …} and/or {"max": …}, not %(spec)s.')
                    % {"metric": metric, "spec": repr(spec)[:80]}
                )
            gate = Gate(
                metric,
                minimum=_bound(metric, "min", spec["min"]) if "min" in spec else None,
                maximum=_bound(metric, "max", spec["max"]) if "max" in spec else None,
            )
            if gate.minimum is not None and gate.maximum is not None:
                if gate.minimum > gate.maximum:
                    raise GateError(
                        _("Gate %(metric)s: min %(min)g is above max %(max)g.")
                        % {"metric": metric, "min": gate.minimum, "max": gate.maximum}
                    )
        elif metric in scoring.UTILITY_METRICS:
            gate = Gate(metric, maximum=_bound(metric, "the bound", spec))
        elif metric in scoring.INDICATOR_METRICS:
            bound = _bound(metric, "the bound", spec)
            lower = scoring.LOWER_IS_BETTER[metric]
            gate = Gate(metric, maximum=bound) if lower else Gate(metric, minimum=bound)
        else:
            raise GateError(
                _(
                    "Gate %(metric)s: a bare number is an upper bound for U1–U6 only; write "
                    '{"%(metric)s": {"min": %(value)s}} (at least) or '
                    '{"%(metric)s": {"max": %(value)s}} (at most).'
                )
                % {"metric": metric, "value": repr(spec)[:80]}
            )
        gates.append(gate)
    return gates


def indicator_gates_check(raw, config: dict | None) -> None:
    """Gates on L1, L2, L3 or T need the round's configuration to name an ``indicators``
    block (otherwise no submission has those scores and every one would fail)."""
    named = [gate.metric for gate in parse_gates(raw) if gate.metric in scoring.INDICATOR_METRICS]
    if named and not (config or {}).get("indicators"):
        raise GateError(
            _(
                "Gates on %(metrics)s need an indicators block in the round configuration "
                '(for example "indicators": {"sa": "Disease"}).'
            )
            % {"metrics": ", ".join(named)}
        )


def gate_checks(scores: dict, round) -> list[tuple[Gate, bool]]:
    """Each of the round's gates with whether ``scores`` pass it (``[]``: the round has none).

    >>> from types import SimpleNamespace as NS
    >>> r = NS(pwscup2015=NS(utility_gates={"U1": 100, "S1": {"min": 5}}))
    >>> [(str(g), ok) for g, ok in gate_checks({"U1": 50, "S1": 3}, r)]
    [('U1 ≤ 100', True), ('S1 ≥ 5', False)]
    """
    return [
        (gate, gate.passes(scores.get(gate.metric)))
        for gate in parse_gates(round.pwscup2015.utility_gates)
    ]


def passes_gates(scores: dict, round) -> bool:
    return all(passed for _gate, passed in gate_checks(scores, round))


@dataclass(frozen=True)
class SafetyMeasure:
    """How a ranking rule turns re-identification rates into one safety value."""

    aggregate: Callable[[list[float]], float]
    csv_column: str  # its key in CSV files and JSON; its words: ``metric_words.ranking_label``


SAFETY_MEASURES = {
    "worst_attack": SafetyMeasure(max, "worst_case_rate"),
    "mean_attack": SafetyMeasure(lambda rates: sum(rates) / len(rates), "mean_rate"),
}


def safety_measure(round) -> SafetyMeasure:
    return SAFETY_MEASURES[round.pwscup2015.ranking_rule]


def safety_of(rates: Iterable, round) -> float | None:
    """The rule's safety value over ``rates`` (``None`` entries ignored; ``None`` if none)."""
    present = [rate for rate in rates if rate is not None]
    return safety_measure(round).aggregate(present) if present else None


def final_safety(
    rates: Iterable, *, reference: float | None, attacked: bool, round
) -> float | None:
    """A target's safety in the final ranking: the rule over every attack on it (teams',
    E1–E4, EUC1, EUC2, the kit attacker), and, for a target no team attacked, never below
    the reference attack's rate (``scoring.linkage``).

    Why the floor: without it a release nobody attacked is judged by the built-in attacks
    alone, which look only inside the exact QI class and miss a release whose QI values were
    moved, so not being attacked ranked a team first (issue 47: the starter sample did). The
    floor is the simplest rule that removes that reward: "never attacked" rates no better
    than a plain linkage attack found. Targets some team attacked keep the 2015 definition.

    >>> from types import SimpleNamespace as NS
    >>> r = NS(pwscup2015=NS(ranking_rule="worst_attack"))
    >>> final_safety([0.1, 0.05], reference=0.7, attacked=False, round=r)
    0.7
    >>> final_safety([0.1, 0.05], reference=0.7, attacked=True, round=r)
    0.1
    """
    safety = safety_of(rates, round)
    if attacked or reference is None:
        return safety
    return reference if safety is None else max(safety, reference)


def submission_safety(scores: dict, round) -> float:
    """Safety of a submission from its own built-in attack rates (1.0 if none is known)."""
    safety = safety_of((scores.get(m) for m in scoring.ATTACK_METRICS), round)
    return 1.0 if safety is None else safety


def tie_break_value(scores: dict, round) -> float:
    """The tie-break metric oriented so that lower is better (missing = worst)."""
    value = scores.get(round.pwscup2015.tie_break_metric)
    if value is None:
        return math.inf
    return value if scoring.LOWER_IS_BETTER.get(round.pwscup2015.tie_break_metric, True) else -value


def anonymization_key(*, scores: dict, safety: float | None, round) -> tuple:
    """Sort key of an anonymization (lower is better): gates, safety, then the tie-break."""
    return (
        not passes_gates(scores, round),
        1.0 if safety is None else round_key(safety),
        round_key(tie_break_value(scores, round)),
    )


def exclude_disqualified(rows: list, round) -> list:
    """Drop, in place, the rows of teams the organizers disqualified (``row.team``).

    A disqualified team is hidden from every ranking of its competition (leaderboard, final
    rankings and their CSV files); its reason is shown to the organizers in the console.
    The rule is the core's (``pwscup.accounts.selectors.without_disqualified``).
    """
    rows[:] = without_disqualified(rows, competition_id=round.competition_id)
    return rows


def round_key(value: float) -> float:
    return value if math.isinf(value) else round(value, _DIGITS)


def assign_ranks(rows: list, *, key: Callable, name: Callable, ranked: Callable) -> list:
    """Sort ``rows`` in place by ``key`` (then ``name`` for display) and set ``row.rank``.

    The ranks are ``scoring.ranking.competition_ranks``'s (1, 2, 2, 4); rows for which
    ``ranked(row)`` is false (failed gates, no attack) come last with ``None``.
    """
    by_name = sorted(rows, key=name)
    ordered = scoring.ranking.competition_ranks(by_name, key=key, ranked=ranked)
    for rank, row in ordered:
        row.rank = rank
    rows[:] = [row for _rank, row in ordered]
    return rows


def rule_text(round) -> str:
    """The rule in force, as printed above the leaderboard and the final ranking."""
    gates = ", ".join(str(g) for g in parse_gates(round.pwscup2015.utility_gates))
    higher = not scoring.LOWER_IS_BETTER.get(round.pwscup2015.tie_break_metric, True)
    tie = (
        _("Ties broken by the higher %(metric)s.")
        if higher
        else _("Ties broken by the lower %(metric)s.")
    )
    parts = [
        _("Representative submission: %(rule)s.")
        % {"rule": round.pwscup2015.get_selection_rule_display()},
        (
            _("Utility gates: %(gates)s (teams that fail them are listed last, unranked).")
            % {"gates": gates}
            if gates
            else _("Utility gates: none (every scored submission is ranked).")
        ),
        _(
            "Then ranked by: %(rule)s over E1–E4, EUC1, EUC2 (and, in the final ranking, the built-in kit attacker and every team's attack)."
        )
        % {"rule": round.pwscup2015.get_ranking_rule_display()},
        _(
            "In the final ranking a target no team attacked is rated no lower than the reference attack's rate."
        ),
        tie % {"metric": round.pwscup2015.tie_break_metric},
        _("Equal results share a rank."),
    ]
    return sentences(parts)
