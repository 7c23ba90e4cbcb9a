"""Who is asking about a round: a team member, an organizer, or a visitor."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import (
    competitions_for_user,
    organized_competitions,
    team_for_user,
)
from pwscup.competitions.models import Competition, Round

# Set on the request by the core for every view under a round kind's URLs (pwscup/kinds/
# views.py): ``round_access`` then answers 404 for a round of another kind.
EXPECTED_KIND_ATTRIBUTE = "expected_round_kind"


@dataclass(frozen=True)
class RoundAccess:
    competition: Competition
    round: Round
    team: Team | None
    is_organizer: bool


def round_access(
    request, competition_slug: str, round_slug: str, *, kind: str | None = None
) -> RoundAccess:
    """The round the user may see (404 otherwise). ``kind``, or the kind the core set on the
    request for a kind's own URLs, confines it: a round of another kind answers 404."""
    # Read on every round page and every poll: the round with its competition (which must be
    # one the user may see) and whether the user organizes it in one query, then its phases.
    user = request.user
    rounds = Round.objects.select_related("competition").prefetch_related("phases")
    organized = organized_competitions(user=user)
    if not organized.query.is_empty():
        rounds = rounds.annotate(
            user_organizes=Exists(organized.filter(pk=OuterRef("competition_id")))
        )
    round_ = get_object_or_404(
        rounds,
        competition__in=competitions_for_user(user=user),
        competition__slug=competition_slug,
        slug=round_slug,
    )
    expected_kind = kind or getattr(request, EXPECTED_KIND_ATTRIBUTE, None)
    if expected_kind is not None and round_.kind != expected_kind:
        raise Http404("No such round.")
    competition = round_.competition
    return RoundAccess(
        competition=competition,
        round=round_,
        team=team_for_user(user=user, competition=competition),
        # the same rule as ``user_is_organizer`` (organized_competitions), read above
        is_organizer=bool(getattr(round_, "user_organizes", False)),
    )


def private_file_response(field, filename: str) -> FileResponse:
    """Serve a private file as an attachment; callers have checked permission already."""
    if not field:
        raise Http404("No file.")
    return FileResponse(
        field.open("rb"), as_attachment=True, filename=filename, content_type="text/csv"
    )
