"""The 2015 game's own ``GET`` endpoints under the round, declared for the core to serve
(``ROUND_ENDPOINTS``, ``pwscup/api/views/files.py``: an authenticated caller, the round's
access, 404 for a round of another kind): the table to anonymize, the scoring configuration,
the published targets and their files."""

import json
from functools import partial

from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from rest_framework.response import Response

from pwscup.accounts.access import RoundAccess
from pwscup.core.files import private_file_response
from pwscup.core.rest import errors
from pwscup.core.rest_schemas import CSV_ANSWER
from pwscup.kinds.rows import kind_row
from pwscup.pwscup2015.access import original_file_for, targets_for_attacker
from pwscup.pwscup2015.api import serializers as s
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.scoring_guide import round_scoring_config
from pwscup.pwscup2015.views.targets import target_file_response
from pwscup.submissions.round_endpoints import RoundEndpoint


def game_part(access: RoundAccess) -> Pwscup2015Round:
    """The round's 2015 settings (404 for a round without them)."""
    game = kind_row(
        access.round,
        "pwscup2015",
        lambda: Pwscup2015Round.objects.filter(round=access.round).first(),
    )
    if game is None:
        raise Http404
    return game


def original(request, access, game):
    field, name = original_file_for(access)
    return private_file_response(field, name)


def config(request, access, game):
    if access.team is None and not access.is_organizer:
        raise Http404
    config = round_scoring_config(round=access.round)
    response = HttpResponse(json.dumps(config, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{access.round.slug}_config.json"'
    return response


def target_list(request, access, game):
    args = [access.competition.slug, access.round.slug]
    data = [
        {
            "team": t.team,
            "version": t.version,
            "rows": t.rows,
            "published_at": t.published_at,
            "anonymized_url": reverse("api:target-anonymized", args=[*args, t.team.slug]),
            "candidate_url": reverse("api:target-candidate", args=[*args, t.team.slug])
            if t.candidate_file
            else None,
        }
        for t in targets_for_attacker(access)
    ]
    return Response(s.TargetSerializer(data, many=True).data)


def target_anonymized(request, access, game, team_slug):
    return target_file_response(access, team_slug, "anonymized")


def target_candidate(request, access, game, team_slug):
    return target_file_response(access, team_slug, "candidate")


endpoint = partial(RoundEndpoint, part=game_part)

# Served under /api/ by the API (``Pwscup2015Kind.api_round_endpoints``).
ROUND_ENDPOINTS = [
    endpoint(
        "config.json",
        "round-config",
        config,
        responses={200: OpenApiTypes.OBJECT, **errors(401, 404)},
        summary=gettext_lazy(
            "Download the scoring configuration (<round>_config.json, for python -m "
            "scoring evaluate)"
        ),
    ),
    endpoint(
        "original.csv",
        "original",
        original,
        responses=CSV_ANSWER,
        summary=gettext_lazy("Download the table to anonymize (your sample in the per-team mode)"),
    ),
    endpoint(
        "targets/",
        "targets",
        target_list,
        responses={200: s.TargetSerializer(many=True), **errors(401, 404)},
        summary=gettext_lazy("Published targets you may attack (never your own team's)"),
    ),
    endpoint(
        "targets/<str:team_slug>/anonymized.csv",
        "target-anonymized",
        target_anonymized,
        responses=CSV_ANSWER,
        summary=gettext_lazy("Download a published target"),
    ),
    endpoint(
        "targets/<str:team_slug>/candidate.csv",
        "target-candidate",
        target_candidate,
        responses=CSV_ANSWER,
        summary=gettext_lazy("Download a target's candidate table (per-team mode)"),
    ),
]
