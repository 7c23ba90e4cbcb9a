"""A 2015 round: its phases, quotas, metrics and scoring configuration, and its original."""

from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_state, round_metrics, round_missing_phases
from pwscup.core.rest import errors
from pwscup.pwscup2015.api import serializers as s
from pwscup.pwscup2015.api.common import game_round_access
from pwscup.pwscup2015.leaderboards.selectors import can_view_leaderboard, can_view_results
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission
from pwscup.pwscup2015.ranking import rule_text
from pwscup.pwscup2015.scoring_guide import round_scoring_config
from pwscup.submissions.selectors import quota_usage
from scoring.display import undefined_note

UPLOAD_MODELS = {
    Phase.Kind.ANONYMIZATION: AnonymizationSubmission,
    Phase.Kind.ATTACK: AttackSubmission,
}


def _phase_data(phase, team, now) -> dict:
    quota = None
    if team is not None:
        usage = quota_usage(model=UPLOAD_MODELS[phase.kind], phase=phase, team=team, now=now)
        quota = {
            "used_today": usage.used_today,
            "used_total": usage.used_total,
            "resets_at": usage.resets_at,
        }
    return {
        "kind": phase.kind,
        "state": phase_state(phase=phase, now=now),
        "opens_at": phase.opens_at,
        "closes_at": phase.closes_at,
        "daily_limit": phase.daily_limit,
        "total_limit": phase.total_limit,
        "target_limit": phase.target_limit,
        "leaderboard_public": phase.leaderboard_public,
        "quota": quota,
    }


class RoundDetailView(APIView):
    @extend_schema(
        responses={200: s.RoundSerializer, **errors(404)},
        summary=gettext_lazy("A round: phases, quotas, scoring configuration"),
    )
    def get(self, request, competition_slug, round_slug):
        access = game_round_access(request, competition_slug, round_slug)
        round_, team, now = access.round, access.team, timezone.now()
        phases = list(round_.phases.all())
        if round_missing_phases(round=round_) and not access.is_organizer:
            phases = []  # an incomplete round is not open yet (as on the page)
        anonymization = next((p for p in phases if p.kind == Phase.Kind.ANONYMIZATION), None)
        member_or_organizer = team is not None or access.is_organizer
        data = {
            "competition": access.competition.slug,
            "slug": round_.slug,
            "name": round_.name,
            "kind": round_.kind,
            "data_mode": round_.pwscup2015.data_mode,
            "timezone": round_.timezone,
            "frozen_at": round_.pwscup2015.frozen_at,
            "results_published": round_.pwscup2015.results_published,
            "selection_rule": round_.pwscup2015.selection_rule,
            "ranking_rule": round_.pwscup2015.ranking_rule,
            "rule_text": rule_text(round_) if member_or_organizer else None,
            "metrics": list(round_metrics(round=round_)),
            "metric_names": {m: scoring.METRIC_NAMES[m] for m in round_metrics(round=round_)},
            "metric_notes": {
                m: undefined_note(m, get_language()) for m in round_metrics(round=round_)
            },
            "phases": [_phase_data(p, team, now) for p in phases],
            "config": round_scoring_config(round=round_) if member_or_organizer else None,
            "team": team,
            "is_organizer": access.is_organizer,
            "leaderboard_visible": anonymization is not None
            and can_view_leaderboard(
                user=request.user, phase=anonymization, is_organizer=access.is_organizer
            ),
            "results_visible": can_view_results(
                user=request.user, round=round_, is_organizer=access.is_organizer
            ),
        }
        return Response(s.RoundSerializer(data).data)
