"""Leaderboards, the attack matrix and the final ranking, in HTML and CSV."""

import functools

from django.shortcuts import render
from django.views.decorators.http import conditional_page

import scoring
from pwscup.accounts.conditional import conditional_response, round_page_etag
from pwscup.accounts.page_versions import ranking_version_read
from pwscup.competitions.selectors import round_metrics, round_ranking_version
from pwscup.core.exports import csv_response
from pwscup.kinds.tabs import RESULTS, render_tab
from pwscup.pwscup2015.leaderboards import charts, metric_words, selectors, tables
from pwscup.pwscup2015.leaderboards.access import leaderboard_access, results_access
from pwscup.pwscup2015.ranking_cache import ranking_cache_key
from pwscup.pwscup2015.selectors import round_stale_scores


def _stale_for_organizers(access):
    """Organizers see which scores an older scorer computed (leaderboards may be public)."""
    return round_stale_scores(round=access.round) if access.is_organizer else None


def _once(compute):
    """``compute``, called at most once, and only if a template needs it: a table whose
    HTML is in the cache (``{% cache %}`` under ``table_key``) needs no ranking at all."""
    return functools.cache(compute)


@conditional_page
def leaderboard(request, competition_slug, round_slug):
    """The leaderboard under the round's *Results* tab; ``?fragment=1``: its live part."""
    access, phase = leaderboard_access(request, competition_slug, round_slug)
    standings = selectors.leaderboard_standings(
        phase=phase, user=request.user, is_organizer=access.is_organizer
    )
    rows = _once(standings.rows)
    if request.GET.get("format") == "csv":
        return csv_response(
            f"{access.round.slug}_leaderboard.csv",
            *tables.leaderboard_table(round=access.round, standings=standings),
        )
    table_key = ranking_cache_key(round=access.round, name=f"leaderboard-{phase.pk}")
    # One list for the headers (the legend's words) and the cells: their columns line up.
    metrics = round_metrics(round=access.round)
    context = {
        "access": access,
        "round": access.round,
        "stale": _stale_for_organizers(access),
        "phase": phase,
        "rows": rows,
        "table_key": table_key,
        "metrics": metrics,
        "metric_names": {m: scoring.METRIC_NAMES[m] for m in metrics},
        "metric_legend": metric_words.legend(metrics),
        "rule": selectors.ranking_rule_text(access.round),
        "standings": standings,
        **_scatter_context(request, access, phase, standings, rows),
    }
    if request.GET.get("fragment"):
        # The page's script polls this (the table and the chart) with the ETag of the last
        # answer: an unchanged leaderboard is an empty 304 (``conditional_page``).
        return render(request, "pwscup2015/_leaderboard_live.html", context)
    # The whole page: 304 while its table's key (the ranking's version and settings), its
    # chart's and the round's rows are those the browser's copy was drawn from.
    etag = round_page_etag(
        request,
        access,
        access.round.pwscup2015,
        table_key,
        context["chart_key"],
        versions=_ranking_version(access),
    )
    return conditional_response(
        request,
        etag,
        lambda: render_tab(request, access, RESULTS, "pwscup2015/leaderboard.html", context),
    )


def _scatter_context(request, access, phase, standings, rows) -> dict:
    """The leaderboard's scatter: one labelled point per team, the ranking's safety up by
    default (over every attack after the freeze for whoever may see the final ranking).

    With ``?all=1`` it adds every scored upload as a faint point: all teams' for an
    organizer, the viewer's own team's otherwise (what its round page already shows).
    """
    round_ = access.round
    metrics = round_metrics(round=round_)
    every_attack = standings.every_attack
    ranking = charts.ranking_axis(measure=round_.pwscup2015.ranking_rule, every_attack=every_attack)
    x_axis, y_axis = charts.chosen_axes(request.GET, metrics, ranking)
    faint = bool(request.GET.get("all"))
    own = access.team.pk if access.team is not None else None

    def chart():
        shown = rows()
        teams = [r.team.pk for r in shown]
        if not access.is_organizer:
            teams = [pk for pk in teams if pk == own]
        uploads = (
            selectors.scatter_uploads(phase=phase, team_ids=teams, every_attack=every_attack)
            if faint
            else ()
        )
        return charts.scatter(rows=shown, x_axis=x_axis, y_axis=y_axis, faint=uploads)

    # The template caches the drawn chart under the table's key and everything the chart
    # depends on besides the ranking: the axes, the faint points asked for (a team's own
    # uploads: then the viewer's team), which safety the ranking axis plots, whether the
    # legend names "your team". The reader's own team is marked by the page, not drawn: one
    # chart serves every team.
    return {
        "chart": chart,
        "chart_choices": charts.axis_choices(metrics, ranking),
        "chart_x": x_axis.key,
        "chart_y": y_axis.key,
        "chart_all": faint,
        "chart_key": [
            x_axis.key,
            y_axis.key,
            faint,
            own if faint and not access.is_organizer else None,
            every_attack,
            own is not None,
        ],
        "ranking_sentence": metric_words.ranking_sentence(
            measure=round_.pwscup2015.ranking_rule, every_attack=every_attack
        ),
    }


def _results_table(request, access, name: str, context: dict):
    """The table ``pwscup2015/<name>.html`` of the round's *Results* tab, its HTML cached
    under the ranking's key ``name`` (``table_key``): a 304 while that key and the round's
    rows are those the browser's copy was drawn from."""
    table_key = ranking_cache_key(round=access.round, name=name)
    return conditional_response(
        request,
        round_page_etag(
            request, access, access.round.pwscup2015, table_key, versions=_ranking_version(access)
        ),
        lambda: render_tab(
            request,
            access,
            RESULTS,
            f"pwscup2015/{name}.html",
            {"stale": _stale_for_organizers(access), "table_key": table_key, **context},
        ),
    )


def matrix(request, competition_slug, round_slug):
    access = results_access(request, competition_slug, round_slug)
    matrix_of = _once(lambda: selectors.attack_matrix_cached(round=access.round))
    if request.GET.get("format") == "csv":
        return csv_response(
            f"{access.round.slug}_attack_matrix.csv", *tables.matrix_table(matrix_of())
        )
    return _results_table(
        request,
        access,
        "matrix",
        {
            "targets": lambda: matrix_of().targets,
            "disqualified": lambda: matrix_of().disqualified,
            "grid": lambda: charts.marked_grid(matrix_of().grid(), matrix_of().worst_cases()),
            "worst": lambda: matrix_of().worst_cases(),
            "reference": lambda: matrix_of().reference_rates(),
            "heat_legend": charts.heat_legend,
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
            *tables.final_anonymization_table(round=access.round, rows=anonymization),
        )
    if table == "attack-csv":
        return csv_response(
            f"{access.round.slug}_final_attack.csv", *tables.final_attack_table(attack)
        )
    return _results_table(
        request,
        access,
        "final",
        {
            "anonymization": lambda: final_of()[0],
            "attack": lambda: final_of()[1],
            "metrics": round_metrics(round=access.round),
            "rule": selectors.ranking_rule_text(access.round),
            "safety_label": metric_words.ranking_label(
                measure=access.round.pwscup2015.ranking_rule, every_attack=True
            ),
        },
    )


def _ranking_version(access) -> dict:
    """The ranking version the page's tables are keyed by, as read with the round: the
    version a kept leaderboard reads again (``round_page_etag``'s ``versions``)."""
    return {ranking_version_read(access.round.pk): round_ranking_version(round=access.round)}
