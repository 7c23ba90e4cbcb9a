"""Who I am, the competitions, their rounds and my team."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

import scoring
from pwscup.accounts.selectors import (
    competitions_for_user,
    organized_competitions,
    team_for_user,
    user_is_organizer,
)
from pwscup.api import serializers as s
from pwscup.api.views.common import CSV_FILE, errors, game_round_access
from pwscup.competitions.models import Phase
from pwscup.competitions.ranking import rule_text
from pwscup.competitions.selectors import phase_state, round_metrics, round_missing_phases
from pwscup.core.access import private_file_response
from pwscup.leaderboards.selectors import can_view_leaderboard, can_view_results
from pwscup.submissions.access import original_file_for
from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission
from pwscup.submissions.scoring_guide import round_scoring_config
from pwscup.submissions.selectors import quota_usage
from scoring.display import undefined_note

UPLOAD_MODELS = {
    Phase.Kind.ANONYMIZATION: AnonymizationSubmission,
    Phase.Kind.ATTACK: AttackSubmission,
}


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.MeSerializer, **errors(401)}, summary="Who the caller is")
    def get(self, request):
        user = request.user
        memberships = user.memberships.select_related("team__competition").order_by("pk")
        data = {
            "username": user.get_username(),
            "teams": memberships,
            "organizes": list(organized_competitions(user=user).values_list("slug", flat=True)),
        }
        return Response(s.MeSerializer(data).data)


def _competition_data(request, competition) -> dict:
    return {
        "slug": competition.slug,
        "name": competition.name,
        "description": competition.description,
        "registration_locked": competition.registration_locked,
        "max_team_size": competition.max_team_size,
        "team": team_for_user(user=request.user, competition=competition),
        "is_organizer": user_is_organizer(user=request.user, competition=competition),
    }


class CompetitionListView(APIView):
    @extend_schema(responses={200: s.CompetitionSerializer(many=True)}, summary="Competitions")
    def get(self, request):
        competitions = competitions_for_user(user=request.user)
        data = [_competition_data(request, c) for c in competitions]
        return Response(s.CompetitionSerializer(data, many=True).data)


class CompetitionDetailView(APIView):
    @extend_schema(
        responses={200: s.CompetitionDetailSerializer, **errors(404)},
        summary="A competition and its rounds",
    )
    def get(self, request, competition_slug):
        competition = get_object_or_404(
            competitions_for_user(user=request.user), slug=competition_slug
        )
        data = _competition_data(request, competition)
        data["rounds"] = [
            {
                "slug": r.slug,
                "name": r.name,
                "kind": r.kind,
                "url": reverse("api:round-detail", args=[competition.slug, r.slug]),
            }
            for r in competition.rounds.all()
        ]
        return Response(s.CompetitionDetailSerializer(data).data)


class TeamView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: s.TeamSerializer, **errors(401, 404)},
        summary="My team in a competition",
    )
    def get(self, request, competition_slug):
        competition = get_object_or_404(
            competitions_for_user(user=request.user), slug=competition_slug
        )
        team = team_for_user(user=request.user, competition=competition)
        if team is None:
            raise NotFound(_("You are not in a team of this competition."))
        memberships = list(team.memberships.select_related("user").order_by("joined_at", "pk"))
        for membership in memberships:
            membership.is_captain = membership.user_id == team.captain_id
        team.members_list = memberships
        return Response(s.TeamSerializer(team).data)


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
        "leaderboard_public": phase.leaderboard_public,
        "quota": quota,
    }


class RoundDetailView(APIView):
    @extend_schema(
        responses={200: s.RoundSerializer, **errors(404)},
        summary="A round: phases, quotas, scoring configuration",
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
            "data_mode": round_.data_mode,
            "timezone": round_.timezone,
            "frozen_at": round_.frozen_at,
            "results_published": round_.results_published,
            "selection_rule": round_.selection_rule,
            "ranking_rule": round_.ranking_rule,
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


class OriginalDownloadView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
        summary="Download the table to anonymize (your sample in the per-team mode)",
    )
    def get(self, request, competition_slug, round_slug):
        access = game_round_access(request, competition_slug, round_slug)
        field, name = original_file_for(access)
        return private_file_response(field, name)
