"""Who I am, the competitions, their rounds and my team."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.selectors import competitions_for_user, team_for_user
from pwscup.api import serializers as s
from pwscup.competitions.selectors import (
    organized_competitions,
    user_is_organizer,
)
from pwscup.core.rest import errors
from pwscup.kinds import kind_of


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: s.MeSerializer, **errors(401)}, summary=gettext_lazy("Who the caller is")
    )
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
    @extend_schema(
        responses={200: s.CompetitionSerializer(many=True)}, summary=gettext_lazy("Competitions")
    )
    def get(self, request):
        competitions = competitions_for_user(user=request.user)
        data = [_competition_data(request, c) for c in competitions]
        return Response(s.CompetitionSerializer(data, many=True).data)


class CompetitionDetailView(APIView):
    @extend_schema(
        responses={200: s.CompetitionDetailSerializer, **errors(404)},
        summary=gettext_lazy("A competition and its rounds"),
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
                "kind_label": str(kind_of(r).label),
                # The status answers for every kind (a kind's own detail may not exist).
                "url": reverse("api:round-status", args=[competition.slug, r.slug]),
            }
            for r in competition.rounds.all()
        ]
        return Response(s.CompetitionDetailSerializer(data).data)


class TeamView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: s.TeamSerializer, **errors(401, 404)},
        summary=gettext_lazy("My team in a competition"),
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
