"""What the DP round's pages share: the round, the team and the level of a request (404 when
there is none, so nothing tells a caller that it exists), the level page's address, and a
refused request answered as JSON ``{"error": …}`` to a JSON request, else as a message and
a redirect back to the level page (``team_level_run``: a team's charge or estimate, refused
so)."""

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse

from pwscup.core.errors import Refused
from pwscup.dp import services
from pwscup.dp.ledger import LedgerRefusal
from pwscup.dp.models import DPRound
from pwscup.dp.selectors import dp_round_of, team_level
from scoring.bounded_json import loads_bounded
from scoring.errors import ConfigError


def dp_round_or_404(access) -> DPRound:
    try:
        return dp_round_of(access.round)
    except DPRound.DoesNotExist:
        raise Http404("No DP round.") from None


def level_url(access, level: str) -> str:
    return reverse(
        "dp:level",
        kwargs={
            "competition_slug": access.competition.slug,
            "round_slug": access.round.slug,
            "level": level,
        },
    )


def team_or_404(access):
    if access.team is None:
        raise Http404("Not in a team.")
    return access.team


def level_or_404(dp_round, team, level):
    view = team_level(dp_round=dp_round, team=team, level=level)
    if view is None:
        raise Http404("No such level.")
    return view


def wants_json(request) -> bool:
    return request.content_type == "application/json"


def json_body(request):
    try:
        return loads_bounded(request.body or b"{}")
    except ConfigError:
        return None


def refused(request, access, level, error, status: int):
    """A refused request: JSON ``{"error": …}`` to a JSON request, else a message and back
    to the level page. ``error`` is a text or a service's exception."""
    text = error if isinstance(error, str) else services.dp_error_text(error)
    if wants_json(request):
        return JsonResponse({"error": text}, status=status)
    messages.error(request, text)
    return redirect(level_url(access, level))


def team_level_run(request, access, level, service, answer, **arguments):
    """``service`` run for the caller's team at ``level`` (with ``arguments`` besides), its
    result answered by ``answer(result)``; a refusal answered by ``refused``: 409 past the
    budget, 400 for a bad request, a ``Refused``'s own status."""
    try:
        result = service(
            dp_round=dp_round_or_404(access),
            team=team_or_404(access),
            user=request.user,
            level=level,
            **arguments,
        )
    except LedgerRefusal as refusal:
        return refused(request, access, level, refusal, 409)
    except services.DPRequestError as error:
        return refused(request, access, level, error, 400)
    except Refused as refusal:
        return refused(request, access, level, refusal.message, refusal.status)
    return answer(result)
