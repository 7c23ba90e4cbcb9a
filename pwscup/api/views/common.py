"""What every API view shares: the round lookup (the pages' ``round_access``) and file
answers."""

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound

from pwscup.api.errors import ErrorSerializer
from pwscup.core.access import RoundAccess, round_access

# The anonymize-then-attack game (issue 11's first kind): the endpoints of this package.
# A round of another kind answers 404 on them; that kind adds its own (see pwscup/api/__init__).
PWSCUP2015 = "pwscup2015"


def require_game_round(access: RoundAccess) -> RoundAccess:
    if access.round.kind != PWSCUP2015:
        raise Http404
    return access


def game_round_access(request, competition_slug: str, round_slug: str) -> RoundAccess:
    return round_access(request, competition_slug, round_slug, kind=PWSCUP2015)


def errors(*codes: int) -> dict:
    """The error answers of an endpoint, for the schema."""
    return {code: OpenApiResponse(ErrorSerializer) for code in codes}


CSV_FILE = OpenApiResponse(OpenApiTypes.BINARY, description="The CSV file as stored.")


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
def not_found(request, *args, **kwargs):
    raise NotFound
