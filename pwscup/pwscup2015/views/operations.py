"""The progress of a round's background operations, as JSON, for its organizers."""

from django.http import Http404, JsonResponse
from django.views.decorators.http import require_GET

from pwscup.accounts.access import round_access
from pwscup.pwscup2015.selectors.operations import round_operations_summary


@require_GET
def operations_json(request, competition_slug, round_slug):
    """Latest freeze / rescore / publish of the round with their progress, and how many
    targets have their built-in attacks scored. Organizers of the competition only:
    anyone else gets the same 404 as for a round that does not exist."""
    access = round_access(request, competition_slug, round_slug)
    if not access.is_organizer:
        raise Http404
    response = JsonResponse(round_operations_summary(round=access.round))
    response["Cache-Control"] = "no-store"
    return response
