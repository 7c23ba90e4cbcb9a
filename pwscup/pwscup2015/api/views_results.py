"""The leaderboard, the attack matrix and the final ranking: the pages' access rules
(pwscup/leaderboards/access.py) and cached selectors, as JSON."""

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.competitions.selectors import round_metrics
from pwscup.core.rest import errors
from pwscup.pwscup2015.api import serializers as s
from pwscup.pwscup2015.leaderboards import selectors
from pwscup.pwscup2015.leaderboards.access import leaderboard_access, results_access


def _metric_scores(scores: dict, metrics) -> dict:
    return {m: scores.get(m) for m in metrics}


class LeaderboardView(APIView):
    @extend_schema(
        responses={200: s.LeaderboardSerializer, **errors(401, 403, 404)},
        summary=gettext_lazy("The anonymization leaderboard (public once the organizer says so)"),
    )
    def get(self, request, competition_slug, round_slug):
        access, phase = leaderboard_access(request, competition_slug, round_slug)
        standings = selectors.leaderboard_standings(
            phase=phase, user=request.user, is_organizer=access.is_organizer
        )
        metrics = list(round_metrics(round=access.round))
        rows = [
            {
                "rank": r.rank,
                "team": r.team,
                "submission": r.submission,
                "passes_gates": r.passes_gates,
                "safety": r.safety,
                "scores": _metric_scores(r.scores, metrics),
            }
            for r in standings.rows()
        ]
        data = {
            "rule": selectors.ranking_rule_text(access.round),
            "safety_measure": standings.column,
            "safety_label": standings.label,
            "metrics": metrics,
            "rows": rows,
        }
        return Response(s.LeaderboardSerializer(data).data)


class MatrixView(APIView):
    @extend_schema(
        responses={200: s.MatrixSerializer, **errors(401, 403, 404)},
        summary=gettext_lazy(
            "Attacker × target re-identification rates (once results are published)"
        ),
    )
    def get(self, request, competition_slug, round_slug):
        access = results_access(request, competition_slug, round_slug)
        matrix = selectors.attack_matrix_cached(round=access.round)
        data = {
            "targets": [t.team for t in matrix.targets],
            "rows": [
                {"attacker": label, "rates": [cell.best for cell in cells]}
                for label, cells in matrix.grid()
            ],
            "worst": matrix.worst_cases(),
            "reference": matrix.reference_rates(),
        }
        return Response(s.MatrixSerializer(data).data)


class FinalRankingView(APIView):
    @extend_schema(
        responses={200: s.FinalRankingSerializer, **errors(401, 403, 404)},
        summary=gettext_lazy("The final ranking of both phases (once results are published)"),
    )
    def get(self, request, competition_slug, round_slug):
        access = results_access(request, competition_slug, round_slug)
        anonymization, attack = selectors.final_ranking_cached(round=access.round)
        metrics = list(round_metrics(round=access.round))
        data = {
            "rule": selectors.ranking_rule_text(access.round),
            "anonymization": [
                {
                    "rank": r.rank,
                    "team": r.team,
                    "passes_gates": r.passes_gates,
                    "safety": r.safety,
                    "attacked": r.attacked,
                    "scores": _metric_scores(r.scores, metrics),
                }
                for r in anonymization
            ],
            "attack": [
                {
                    "rank": r.rank,
                    "team": r.team,
                    "mean_rate": r.mean_rate,
                    "targets_attacked": r.targets_attacked,
                }
                for r in attack
            ],
        }
        return Response(s.FinalRankingSerializer(data).data)
