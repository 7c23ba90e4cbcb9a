"""A round of any kind: its status for the caller and its leaderboard, the same shape for
every kind (``pwscup status|submit|download|leaderboard`` read only these). The answers come
from the round's kind (``RoundKind.api_round_status``, ``api_leaderboard``): this module
never names a kind."""

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.api import serializers as s
from pwscup.api.views.data_choice import data_choice_json
from pwscup.competitions.totals import round_standings
from pwscup.core.rest import errors
from pwscup.kinds import kind_of
from pwscup.submissions.selectors import quota_day_of
from pwscup.submissions.submission_types import declared_status


class RoundStatusView(APIView):
    @extend_schema(
        responses={200: s.RoundStatusSerializer, **errors(404)},
        summary=gettext_lazy(
            "A round of any kind: schedule, what my team may upload and download, "
            "its uploads with their number, status and scores"
        ),
    )
    def get(self, request, competition_slug, round_slug):
        access = round_access(request, competition_slug, round_slug)
        kind = kind_of(access.round)
        answer = kind.api_round_status(request, access)
        # The declared submission types first, then what the kind adds by hand.
        declared = declared_status(kind.submission_types(), access)
        data = {
            "competition": access.competition.slug,
            "slug": access.round.slug,
            "name": access.round.name,
            "kind": kind.key,
            "kind_label": str(kind.label),
            "team": access.team,
            "is_organizer": access.is_organizer,
            "schedule": kind.schedule_lines(access.round),
            "timezone": access.round.timezone,
            "quota_reset_time": f"{access.round.quota_reset_time:%H:%M}",
            "quota_resets_at": quota_day_of(access.round).resets_at(timezone.now()),
            "standings_url": reverse("api:round-standings", args=[competition_slug, round_slug]),
            "submission_types": declared["submission_types"] + answer.get("submission_types", []),
            "downloads": answer.get("downloads", []),
            "uploads": sorted(
                declared["uploads"] + answer.get("uploads", []),
                key=lambda u: (u["created_at"], u["id"]),
                reverse=True,
            ),
            "metrics": answer.get("metrics", []),
            "notes": answer.get("notes", []),
            "data_choice": data_choice_json(access),
        }
        return Response(s.RoundStatusSerializer(data).data)


class RoundStandingsView(APIView):
    @extend_schema(
        responses={200: s.StandingsSerializer, **errors(401, 403, 404)},
        summary=gettext_lazy(
            "A round's leaderboard of any kind, as tables (when the caller may see it)"
        ),
    )
    def get(self, request, competition_slug, round_slug):
        access = round_access(request, competition_slug, round_slug)
        # The core's tables (a total, the top-N attack score) follow the kind's, as on the
        # Results tab.
        board = round_standings(request, access)
        return Response(s.StandingsSerializer(board).data)
