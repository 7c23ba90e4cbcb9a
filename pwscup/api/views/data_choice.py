"""A round's data choice through the API, for every kind: what ``status`` shows
(``data_choice_json``) and the team's pick (``POST …/data-choice/``, ``team_choice_set``)."""

from django.urls import reverse
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.api import serializers as s
from pwscup.competitions.choice_selectors import choice_state
from pwscup.competitions.choice_services import team_choice_set
from pwscup.core.rest import errors


def data_choice_json(access) -> dict | None:
    """The round's packs and the team's pick, ``None`` when the round offers no choice."""
    state = choice_state(round=access.round, team=access.team)
    if not state.choices:
        return None
    args = [access.competition.slug, access.round.slug]
    return {**state.as_json(), "url": reverse("api:round-data-choice", args=args)}


class DataChoiceView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.DataChoicePickSerializer,
        responses={200: s.DataChoiceSerializer, **errors(400, 401, 403, 404, 409)},
        summary=gettext_lazy(
            "Pick my team's data pack (refused once the team has uploaded in the round)"
        ),
    )
    def post(self, request, competition_slug, round_slug):
        access = round_access(request, competition_slug, round_slug)
        body = s.DataChoicePickSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        team_choice_set(
            user=request.user,
            round=access.round,
            team=access.team,
            key=body.validated_data["choice"],
        )
        return Response(s.DataChoiceSerializer(data_choice_json(access)).data)
