"""Who is asking about a round: a team member, an organizer, or a visitor."""

from dataclasses import dataclass

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import competitions_for_user, team_for_user, user_is_organizer
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


def round_access(request, competition_slug: str, round_slug: str) -> RoundAccess:
    competition = get_object_or_404(competitions_for_user(user=request.user), slug=competition_slug)
    round_ = get_object_or_404(
        Round.objects.prefetch_related("phases"), competition=competition, slug=round_slug
    )
    expected_kind = getattr(request, EXPECTED_KIND_ATTRIBUTE, None)
    if expected_kind is not None and round_.kind != expected_kind:
        raise Http404("No such round.")
    round_.competition = competition  # already read: ``round.competition`` costs no query
    return RoundAccess(
        competition=competition,
        round=round_,
        team=team_for_user(user=request.user, competition=competition),
        is_organizer=user_is_organizer(user=request.user, competition=competition),
    )


def private_file_response(field, filename: str) -> FileResponse:
    """Serve a private file as an attachment; callers have checked permission already."""
    if not field:
        raise Http404("No file.")
    return FileResponse(
        field.open("rb"), as_attachment=True, filename=filename, content_type="text/csv"
    )
