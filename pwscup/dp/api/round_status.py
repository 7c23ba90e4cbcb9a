"""The DP round's answers to the API's round status and standings, the same shape for every
kind (``RoundKind.api_round_status``, ``api_leaderboard``), and the two endpoints they point
to beside ``api.py``'s:

* ``GET dp/estimates/<id>/``        one of my team's estimates (its status; scores after the
  close), the upload's address a client polls;
* ``GET dp/sample_estimate.csv``    the Data tab's sample estimate (the uniform one);
* ``GET dp/dp_config.json``, ``dp/practice_table.csv``  the kit's configuration and practice
  table, what the kit's commands read.

The same access rules as the pages: a team member (or an organizer) of a DP round, else 404;
the hidden table is never served, scores only once the round is closed and scored.
"""

from django.http import Http404
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.core.errors import Refused
from pwscup.core.exports import csv_bytes_response, json_text_response
from pwscup.core.rest import ROUND_PREFIX, errors
from pwscup.core.rest_schemas import CSV_ANSWER, JSON_OBJECT
from pwscup.dp import kit, services
from pwscup.dp.api.views import dp_access
from pwscup.dp.models import DPRound, Estimate
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.dp.selectors import dp_round_of, team_level, team_levels
from pwscup.submissions import round_api
from pwscup.submissions.round_endpoints import RoundEndpoint
from scoring.dp.exact import exact_text, format_epsilon

SCORES = ("mean_l2", "mean_spearman")


def _type_key(level: str) -> str:
    return f"estimate-{level}"


def estimate_json(estimate: Estimate, *, dp_round: DPRound, scored: bool, final: bool) -> dict:
    """An estimate as every kind's upload reads in the API; its scores once the round is
    scored (``scored``: ``services.dp_round_results_ready``), never before; ``final``: it is
    its level's current estimate (the latest valid one, which counts)."""
    round_ = dp_round.round
    scores = {m: estimate.scores.get(m) for m in SCORES if m in estimate.scores} if scored else {}
    return {
        "type": _type_key(estimate.level),
        "id": estimate.pk,
        "number": estimate.number,
        "status": estimate.status,
        "created_at": timezone.localtime(estimate.created_at),  # as every answer's times
        "about": _("level %(level)s") % {"level": estimate.level},
        "message": estimate.message_text,
        "note": estimate.method,
        "remark": "",
        "scores": {m: v for m, v in scores.items() if not isinstance(v, str)},
        "scores_text": {
            m: round_api.score_text(v) if not isinstance(v, str) else v for m, v in scores.items()
        },
        "final": final,
        "url": reverse("api:dp-estimate", args=[round_.competition.slug, round_.slug, estimate.pk]),
    }


class EstimateDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary=gettext_lazy("One of my team's estimates: its status (scores after the close)"),
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, dp_round = dp_access(request, competition_slug, round_slug)
        estimate = Estimate.objects.filter(pk=pk, dp_round=dp_round, team=access.team).first()
        if estimate is None:
            raise Http404
        scored = services.dp_round_results_ready(dp_round=dp_round)
        current = team_level(dp_round=dp_round, team=access.team, level=estimate.level)
        final = current is not None and current.current_estimate == estimate
        return Response(estimate_json(estimate, dp_round=dp_round, scored=scored, final=final))


def _dp_round(access) -> DPRound:
    try:
        return dp_round_of(access.round)
    except DPRound.DoesNotExist:
        raise Http404 from None


def round_status(request, access) -> dict:
    """``DPKind.api_round_status``: one estimate upload per level (open while the release
    phase is), the sample estimate and the team's own releases, the team's estimates."""
    answer = {"submission_types": [], "downloads": [], "uploads": [], "metrics": []}
    answer["metrics"] = [
        round_api.metric("mean_l2", _("mean L2 error"), headline=True),
        round_api.metric("mean_spearman", _("mean Spearman correlation"), headline=True),
    ]
    if not round_api.is_participant(access):
        return answer
    dp_round = _dp_round(access)
    args = round_api.round_args(access.round)
    answer["downloads"] += [
        round_api.download(
            kit.sample_estimate_name(dp_round=dp_round),
            _("Sample estimate"),
            reverse("api:dp-sample-estimate", args=args),
        ),
        round_api.api_download(access, "dp-config", kit.CONFIG_NAME, _("Configuration")),
        round_api.api_download(access, "dp-practice-table", kit.PRACTICE_NAME, _("Practice table")),
    ]
    if access.team is None:
        return answer
    is_open = dp_round.is_open()
    scored = services.dp_round_results_ready(dp_round=dp_round)
    uploads = []
    for level in team_levels(dp_round=dp_round, team=access.team):
        answer["submission_types"].append(
            {
                "key": _type_key(level.id),
                "label": _("Estimate at level %(level)s (ε = %(epsilon)s)")
                % {"level": level.id, "epsilon": format_epsilon(level.budget)},
                "url": reverse("api:dp-estimates", args=[*args, level.id]),
                "open": is_open,
                "fields": [],
                "files": round_api.upload_files(),  # one estimate CSV, of any name
                "selectable": False,  # the latest valid estimate of a level counts
                "counts": "",
            }
        )
        for charge in level.charges:
            if charge.release_file:
                name = f"release_{level.id}_{charge.number}.csv"
                answer["downloads"].append(
                    round_api.download(
                        name,
                        _("Your release %(n)s at level %(level)s")
                        % {"n": charge.number, "level": level.id},
                        reverse("api:dp-release-file", args=[*args, level.id, charge.number]),
                    )
                )
        uploads += [
            estimate_json(e, dp_round=dp_round, scored=scored, final=e == level.current_estimate)
            for e in level.estimates
        ]
    answer["uploads"] = sorted(uploads, key=lambda u: (u["created_at"], u["id"]), reverse=True)
    return answer


def round_leaderboard(request, access) -> dict:
    """``DPKind.api_leaderboard``: the per-level tables and the overall ranking of the
    leaderboard page, after the close only (404 ``not_closed`` before: no score leaks)."""
    dp_round = _dp_round(access)
    if not services.dp_round_results_ready(dp_round=dp_round):
        raise Refused(_("Scores are published after the close."), status=404, code="not_closed")
    boards = level_boards(dp_round=dp_round)
    tables = []
    for board in boards:
        rows = [
            [
                row.rank,
                row.team.name,
                row.label,
                exact_text(row.spent),
                round_api.score_cell(row.mean_l2),
                round_api.score_cell(row.mean_spearman),
            ]
            for row in board.verified
        ]
        tables.append(
            round_api.ranking_table(
                _("Level %(level)s (ε = %(epsilon)s)")
                % {"level": board.level, "epsilon": exact_text(board.epsilon)},
                [_("Method"), "ε", "mean L2", "mean Spearman"],
                rows,
            )
        )
    tables.append(
        round_api.ranking_table(
            _("Overall ranking"),
            [_("Sum of ranks")],
            ([row.rank, row.team.name, row.total] for row in overall_ranking(boards)),
        )
    )
    return {"note": "", "tables": tables}


# Mounted with ``api.api_urlpatterns`` (``DPKind.api_url_patterns``).
api_round_urlpatterns = [
    path(ROUND_PREFIX + "dp/estimates/<int:pk>/", EstimateDetailView.as_view(), name="dp-estimate"),
]


def _kit_reader(access) -> None:
    """The kit's files are for a team member or an organizer of the round (the kit page's
    rule), else 404."""
    if access.team is None and not access.is_organizer:
        raise Http404


def sample_estimate(request, access, dp_round):
    _kit_reader(access)
    return csv_bytes_response(
        kit.sample_estimate(dp_round=dp_round), kit.sample_estimate_name(dp_round=dp_round)
    )


def config_file(request, access, dp_round):
    _kit_reader(access)
    return json_text_response(kit.config_text(dp_round=dp_round), kit.CONFIG_NAME)


def practice_table(request, access, dp_round):
    _kit_reader(access)
    return csv_bytes_response(kit.practice_table(dp_round=dp_round), kit.PRACTICE_NAME)


# Served under /api/ by the API (``DPKind.api_round_endpoints``).
ROUND_ENDPOINTS = [
    RoundEndpoint(
        "dp/sample_estimate.csv",
        "dp-sample-estimate",
        sample_estimate,
        part=_dp_round,
        responses=CSV_ANSWER,
        summary=gettext_lazy(
            "The sample estimate (uniform counts), an estimate.csv that uploads as is"
        ),
    ),
    RoundEndpoint(
        "dp/dp_config.json",
        "dp-config",
        config_file,
        part=_dp_round,
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary=gettext_lazy(
            "The round's public configuration (dp_config.json, for python -m scoring dp)"
        ),
    ),
    RoundEndpoint(
        "dp/practice_table.csv",
        "dp-practice-table",
        practice_table,
        part=_dp_round,
        responses=CSV_ANSWER,
        summary=gettext_lazy(
            "The kit's practice table: random rows over the public values, not the hidden table"
        ),
    ),
]
