"""Leaderboards, the attack matrix and the final ranking, in HTML and CSV."""

import functools

from django.shortcuts import render

import scoring
from pwscup.competitions.selectors import round_metrics
from pwscup.core.exports import csv_response
from pwscup.pwscup2015.leaderboards import charts, selectors
from pwscup.pwscup2015.leaderboards.access import leaderboard_access, results_access
from pwscup.pwscup2015.ranking import safety_measure
from pwscup.pwscup2015.ranking_cache import ranking_cache_key
from pwscup.pwscup2015.selectors import phase_scored_scores, round_stale_scores


def _fmt(value):
    return "" if value is None else value


def _stale_for_organizers(access):
    """Organizers see which scores an older scorer computed (leaderboards may be public)."""
    return round_stale_scores(round=access.round) if access.is_organizer else None


def _once(compute):
    """``compute``, called at most once, and only if a template needs it: a table whose
    HTML is in the cache (``{% cache %}`` under ``table_key``) needs no ranking at all."""
    return functools.cache(compute)


def leaderboard(request, competition_slug, round_slug):
    access, phase = leaderboard_access(request, competition_slug, round_slug)
    rows = _once(lambda: selectors.anonymization_leaderboard_cached(phase=phase))
    if request.GET.get("format") == "csv":
        rows = rows()
        return csv_response(
            f"{access.round.slug}_leaderboard.csv",
            [
                "rank",
                "team",
                "submission",
                "passes_gates",
                safety_measure(access.round).csv_column,
                *round_metrics(round=access.round),
            ],
            (
                [_fmt(r.rank), r.team.name, r.submission.pk, r.passes_gates, r.safety]
                + [_fmt(r.scores.get(m)) for m in round_metrics(round=access.round)]
                for r in rows
            ),
        )
    table_key = ranking_cache_key(round=access.round, name=f"leaderboard-{phase.pk}")
    scatter = _scatter_context(request, access, phase, rows)
    return render(
        request,
        "pwscup2015/leaderboard.html",
        {
            "access": access,
            "round": access.round,
            "stale": _stale_for_organizers(access),
            "phase": phase,
            "rows": rows,
            "table_key": table_key,
            "metrics": round_metrics(round=access.round),
            "metric_names": {m: scoring.METRIC_NAMES[m] for m in round_metrics(round=access.round)},
            "rule": selectors.ranking_rule_text(access.round),
            "safety_label": safety_measure(access.round).label,
            **scatter,
        },
    )


def _scatter_context(request, access, phase, rows) -> dict:
    """The utility-vs-safety chart over the table's rows (the same cached ranking).

    With ``?all=1`` it adds every scored submission as a faint point: all teams' for an
    organizer, the viewer's own team's otherwise (what its round page already shows).
    """
    metrics = round_metrics(round=access.round)
    x_metric, y_metric = charts.chosen_axes(request.GET, metrics)
    faint = bool(request.GET.get("all"))

    def chart():
        shown = rows()
        teams = [r.team.pk for r in shown]
        if not access.is_organizer:
            teams = [pk for pk in teams if access.team is not None and pk == access.team.pk]
        return charts.scatter(
            rows=shown,
            x_metric=x_metric,
            y_metric=y_metric,
            own_team_id=access.team.pk if access.team is not None else None,
            faint_scores=phase_scored_scores(phase=phase, team_ids=teams) if faint else (),
        )

    # The template caches the drawn chart under the table's key and everything the chart
    # depends on besides the ranking: the axes, the faint points asked for, the viewer.
    return {
        "chart": chart,
        "chart_metrics": metrics,
        "chart_all": faint,
        "chart_key": [x_metric, y_metric, faint, access.team.pk if access.team else None],
    }


def matrix(request, competition_slug, round_slug):
    access = results_access(request, competition_slug, round_slug)
    matrix_of = _once(lambda: selectors.attack_matrix_cached(round=access.round))
    if request.GET.get("format") == "csv":
        result = matrix_of()
        return csv_response(
            f"{access.round.slug}_attack_matrix.csv",
            ["attacker", *[t.team.name for t in result.targets]],
            (
                [label] + [_fmt(result.cell(key, t.pk).best) for t in result.targets]
                for key, label in result.attackers
            ),
        )
    return render(
        request,
        "pwscup2015/matrix.html",
        {
            "access": access,
            "round": access.round,
            "stale": _stale_for_organizers(access),
            "targets": lambda: matrix_of().targets,
            "grid": lambda: matrix_of().grid(),
            "worst": lambda: matrix_of().worst_cases(),
            "heatmap": lambda: charts.heatmap(
                targets=matrix_of().targets,
                grid=matrix_of().grid(),
                worst=matrix_of().worst_cases(),
            ),
            "table_key": ranking_cache_key(round=access.round, name="matrix"),
        },
    )


def final(request, competition_slug, round_slug):
    access = results_access(request, competition_slug, round_slug)
    final_of = _once(lambda: selectors.final_ranking_cached(round=access.round))
    table = request.GET.get("format")
    if table:
        anonymization, attack = final_of()
    if table == "anonymization-csv":
        return csv_response(
            f"{access.round.slug}_final_anonymization.csv",
            [
                "rank",
                "team",
                "passes_gates",
                safety_measure(access.round).csv_column,
                *round_metrics(round=access.round),
            ],
            (
                [_fmt(r.rank), r.team.name, r.passes_gates, _fmt(r.safety)]
                + [_fmt(r.scores.get(m)) for m in round_metrics(round=access.round)]
                for r in anonymization
            ),
        )
    if table == "attack-csv":
        return csv_response(
            f"{access.round.slug}_final_attack.csv",
            ["rank", "team", "mean_rate", "targets_attacked"],
            ([_fmt(r.rank), r.team.name, r.mean_rate, r.targets_attacked] for r in attack),
        )
    return render(
        request,
        "pwscup2015/final.html",
        {
            "access": access,
            "round": access.round,
            "stale": _stale_for_organizers(access),
            "anonymization": lambda: final_of()[0],
            "attack": lambda: final_of()[1],
            "table_key": ranking_cache_key(round=access.round, name="final"),
            "metrics": round_metrics(round=access.round),
            "rule": selectors.ranking_rule_text(access.round),
            "safety_label": safety_measure(access.round).label,
        },
    )
