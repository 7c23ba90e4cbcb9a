"""The DP round's REST endpoints (mounted by pwscup/api/urls.py under the round):

* ``POST dp/levels/<level>/queries/``  a histogram or count query (spec §7.2): 200 with the
  answer, 409 ``budget_refused`` with the ledger's message, 400 ``invalid``;
* ``GET  dp/levels/<level>/ledger/``   the team's ledger: budget, spent, remaining, charges;
* ``POST dp/levels/<level>/releases/`` a platform-run Pk-anonymized release (§7.3);
* ``GET  dp/levels/<level>/releases/<n>/release.csv`` the released table;
* ``POST dp/levels/<level>/estimates/`` an ``estimate.csv`` (multipart ``file``) or
  ``{"from_release": n, "estimator": "BT"|"BR"|"BI"}`` / ``{"from_answer": n}`` (JSON);
* ``GET  dp/leaderboard/``              per-level tables and the overall ranking, after the
  close only (404 ``not_closed`` before: no score leaks).

The same services and selectors as the pages; messages follow Accept-Language.
"""

import json

from django.http import Http404
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.core.files import private_file_response
from pwscup.core.form_fields import POSITIVE_INT_MAX, digits_value
from pwscup.core.json_input import BoundedJSONParser
from pwscup.core.rest import ROUND_PREFIX, BodyRequiredSchema, errors
from pwscup.core.rest_schemas import CSV_ANSWER, JSON_OBJECT
from pwscup.core.single_parts import SinglePartsMultiPartParser
from pwscup.core.time_zones import answer_moment
from pwscup.dp import services
from pwscup.dp.api.serializers import (
    ESTIMATE_REQUEST,
    QUERY_REQUEST,
    ReleaseRequestSerializer,
)
from pwscup.dp.api.submissions import dp_part
from pwscup.dp.ledger import LedgerRefusal
from pwscup.dp.models import Estimate
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.dp.selectors import charge_json, team_charge, team_level
from scoring.dp.exact import exact_text
from scoring.messages import clip


def dp_access(request, competition_slug, round_slug, *, team: bool = True):
    access = round_access(request, competition_slug, round_slug, kind="dp")
    dp_round = dp_part(access)
    if team and access.team is None:
        raise Http404
    return access, dp_round


def _bad(error, status=400, code="invalid") -> Response:
    return Response({"code": code, "message": services.dp_error_text(error)}, status=status)


def _refused(error: services.DPRequestError) -> Response:
    """400 ``invalid``, or 404 ``not_found`` when the request names something the round or
    the team's ledger does not have (an attribute, a charge number)."""
    return _bad(error, error.status, "not_found" if error.status == 404 else "invalid")


def _charge_schema(*, request, summary: str):
    """The schema of a ``_ChargeView``: its request and summary, and the answers every charge
    shares (the charge, 200; 400, 401, 404; 409 past the budget)."""
    return extend_schema_view(
        post=extend_schema(
            request=request,
            responses={200: JSON_OBJECT, **errors(400, 401, 404, 409)},
            summary=summary,
        )
    )


class _ChargeView(APIView):
    # POST a query or a release: one charging service, the same replies and refusals.
    # (A comment, not a docstring: the schema would show it as both endpoints' description.)
    permission_classes = [IsAuthenticated]
    parser_classes = [BoundedJSONParser]
    service = None  # ``services.dp_query_answer`` or ``services.dp_release_request``

    def post(self, request, competition_slug, round_slug, level):
        access, dp_round = dp_access(request, competition_slug, round_slug)
        try:
            result = type(self).service(
                dp_round=dp_round,
                team=access.team,
                user=request.user,
                level=level,
                payload=request.data,
            )
        except LedgerRefusal as refusal:
            return _bad(refusal, 409, "budget_refused")
        except services.DPRequestError as error:
            return _refused(error)
        return Response(charge_json(result.charge, replayed=result.replayed))


@_charge_schema(
    request=QUERY_REQUEST,
    summary=gettext_lazy("Ask a histogram or count query (charges ε; 409 past the budget)"),
)
class QueryView(_ChargeView):
    schema = BodyRequiredSchema()
    service = services.dp_query_answer


class LedgerView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)}, summary=gettext_lazy("My team's ε ledger")
    )
    def get(self, request, competition_slug, round_slug, level):
        access, dp_round = dp_access(request, competition_slug, round_slug)
        try:
            services.level_known(dp_round, level)
        except services.DPRequestError as error:
            return _refused(error)
        view = team_level(dp_round=dp_round, team=access.team, level=level)
        if view is None:
            raise Http404
        return Response(
            {
                "level": view.id,
                "budget": exact_text(view.budget),
                "spent": exact_text(view.spent),
                "remaining": exact_text(view.remaining),
                "charges": [charge_json(charge) for charge in view.charges],
            }
        )


@_charge_schema(
    request=ReleaseRequestSerializer,
    summary=gettext_lazy("Request a platform-run Pk-anonymized release (charges ε by eq. 6)"),
)
class ReleaseView(_ChargeView):
    service = services.dp_release_request


class ReleaseFileView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=CSV_ANSWER, summary=gettext_lazy("A release's CSV"))
    def get(self, request, competition_slug, round_slug, level, number):
        access, dp_round = dp_access(request, competition_slug, round_slug)
        charge = team_charge(dp_round=dp_round, team=access.team, level=level, number=number)
        if charge is None or not charge.release_file:
            raise Http404
        return private_file_response(charge.release_file, f"release_{level}_{number}.csv")


class ChargeNumberError(ValueError):
    def __init__(self, field: str, value):
        super().__init__(field)
        self.field, self.value = field, value


def _charge_number(data: dict, field: str) -> int:
    """A charge number as the API takes it: a JSON integer or a string of digits; ``1.5``,
    ``true`` or ``"1e2"`` are refused rather than truncated."""
    value = data[field]
    text = value.strip() if isinstance(value, str) else ""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= POSITIVE_INT_MAX:
        return value
    if number := digits_value(text):  # 0 is no charge number either
        return number
    raise ChargeNumberError(field, value)


def _estimate_json(estimate: Estimate) -> dict:
    round_ = estimate.dp_round.round
    return {
        "id": estimate.pk,
        # Where a client polls it (the declared type's, ``submissions.py``).
        "url": reverse("api:dp-estimate", args=[round_.competition.slug, round_.slug, estimate.pk]),
        "number": estimate.number,
        "level": estimate.level,
        "status": estimate.status,
        "source": estimate.source,
        "method": estimate.method,
        "message": estimate.message_text,
        "created_at": answer_moment(estimate.created_at),
    }


class EstimateView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [SinglePartsMultiPartParser, BoundedJSONParser]
    schema = BodyRequiredSchema()

    @extend_schema(
        request=ESTIMATE_REQUEST,
        responses={
            201: JSON_OBJECT,
            202: JSON_OBJECT,
            **errors(400, 401, 403, 404, 413, 429),
        },
        summary=gettext_lazy(
            "Upload estimate.csv, or build the estimate from a release or an answer"
        ),
        description=gettext_lazy(
            "An upload is kept and checked by a worker (202: poll its url); a build is answered "
            "at once (201), or queued for a worker when large (202). No score before the level "
            "closes."
        ),
    )
    def post(self, request, competition_slug, round_slug, level):
        access, dp_round = dp_access(request, competition_slug, round_slug)
        common = {"dp_round": dp_round, "team": access.team, "user": request.user, "level": level}
        uploaded = request.FILES.get("file")
        data = request.data if isinstance(request.data, dict) else {}
        try:
            if uploaded is not None:
                estimate = services.dp_estimate_upload(**common, uploaded_file=uploaded)
            elif "from_release" in data:
                estimate = services.dp_estimate_from_release(
                    **common,
                    charge_no=_charge_number(data, "from_release"),
                    estimator=str(data.get("estimator", "BT")),
                )
            elif "from_answer" in data:
                estimate = services.dp_estimate_from_answer(
                    **common, charge_no=_charge_number(data, "from_answer")
                )
            else:
                return _bad(_("Send a file, or from_release / from_answer"))
        except ChargeNumberError as error:
            return _bad(
                _("%(field)s takes a charge number (a whole number such as 3), not %(value)s")
                % {"field": error.field, "value": clip(json.dumps(error.value, default=str))}
            )
        except services.DPRequestError as error:
            return _refused(error)
        # A ``Refused`` (size, limits, the team's bounds) is answered by the API's handler.
        # A kept upload is checked by a worker (202: poll the estimate); a build is answered.
        status = {
            Estimate.Status.FINISHED: 201,
            Estimate.Status.QUEUED: 202,
            Estimate.Status.RUNNING: 202,
        }.get(estimate.status, 400)
        body = _estimate_json(estimate)
        if status == 400:
            body = {"code": "invalid", **body}
        return Response(body, status=status)


class LeaderboardView(APIView):
    @extend_schema(
        responses={200: JSON_OBJECT, **errors(404)},
        summary=gettext_lazy(
            "Per-level tables next to the baselines, and the overall ranking (after the close)"
        ),
    )
    def get(self, request, competition_slug, round_slug):
        access, dp_round = dp_access(request, competition_slug, round_slug, team=False)
        if not services.dp_round_results_ready(dp_round=dp_round):
            return Response(
                {"code": "not_closed", "message": _("Scores are published after the close.")},
                status=404,
            )
        boards = level_boards(dp_round=dp_round)
        return Response(
            {
                "levels": [
                    {
                        "level": board.level,
                        "epsilon": exact_text(board.epsilon),
                        "verified": [_row_json(row) for row in board.verified],
                        "declared": [_row_json(row) for row in board.declared],
                        "baselines": board.baselines,
                    }
                    for board in boards
                ],
                "overall": [
                    {"rank": row.rank, "team": row.team.slug, "ranks": row.ranks, "sum": row.total}
                    for row in overall_ranking(boards)
                ],
            }
        )


def _row_json(row) -> dict:
    return {
        "rank": row.rank,
        "team": row.team.slug,
        "method": row.label,
        "epsilon_spent": exact_text(row.spent),
        "declared": row.declared,
        "k": row.k,
        "targets": row.per_target,
        "mean_l2": row.mean_l2,
        "mean_spearman": row.mean_spearman,
        "passes_gate": row.passes_gate,
    }


LEVEL = ROUND_PREFIX + "dp/levels/<str:level>/"

# Mounted under /api/ by the API (``DPKind.api_url_patterns``).
api_urlpatterns = [
    path(LEVEL + "queries/", QueryView.as_view(), name="dp-queries"),
    path(LEVEL + "ledger/", LedgerView.as_view(), name="dp-ledger"),
    path(LEVEL + "releases/", ReleaseView.as_view(), name="dp-releases"),
    path(
        LEVEL + "releases/<int:number>/release.csv",
        ReleaseFileView.as_view(),
        name="dp-release-file",
    ),
    path(LEVEL + "estimates/", EstimateView.as_view(), name="dp-level-estimates"),
    path(ROUND_PREFIX + "dp/leaderboard/", LeaderboardView.as_view(), name="dp-leaderboard"),
]
