"""Who is asking about a round: a team member, an organizer, or a visitor."""

import functools
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, Value
from django.db.models.query import EmptyQuerySet
from django.http import Http404

from pwscup.accounts.models import Team
from pwscup.accounts.page_versions import generation_subquery
from pwscup.accounts.selectors import competitions_for_user, team_for_user
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.selectors import organized_competitions, with_ranking_version

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
    user = request.user
    competitions = competitions_for_user(user=user).filter(slug=competition_slug)
    organized = organized_competitions(user=user)
    organizes = (
        Value(False)
        if isinstance(organized, EmptyQuerySet)  # a visitor or an inactive account
        else Exists(organized.filter(pk=OuterRef("pk")))
    )
    # Each row is found by a unique key: no ordering, so no join that the models' default
    # orderings (by the competition's date) would add to every page's reads.
    # The page generation comes with it, read no later than any row the page shows: a page
    # kept at this generation (``pwscup.accounts.conditional``) was drawn from rows no older.
    competition = (
        competitions.order_by()
        .annotate(user_organizes=organizes, page_generation=generation_subquery())
        .first()
    )
    # Its ranking version comes with the round's row: the cached rankings a page reads are
    # keyed by it (``round_ranking_version``) at no query of their own.
    round_ = (
        competition
        and with_ranking_version(
            Round.objects.filter(competition=competition, slug=round_slug).order_by()
        )
        .prefetch_related(Prefetch("phases", queryset=Phase.objects.order_by("opens_at", "id")))
        .first()
    )
    if round_ is None:
        raise Http404("No such round.")
    expected_kind = kind or getattr(request, EXPECTED_KIND_ATTRIBUTE, None)
    if expected_kind is not None and round_.kind != expected_kind:
        raise Http404("No such round.")
    # The objects the pages reach from the round share the rows read here (no query again).
    round_.competition = competition
    team = team_for_user(user=user, competition=competition)
    if team is not None:
        team.competition = competition
    return RoundAccess(
        competition=competition,
        round=round_,
        team=team,
        # the same rule as ``user_is_organizer`` (organized_competitions), read above
        is_organizer=competition.user_organizes,
    )


# Every CSV the platform writes or keeps for download is UTF-8 (an organizer's original is
# converted on the way in: ``pwscup.core.files.organizer_csv``); a team's upload is served
# back as an attachment, saved as it is whatever the label.


def kind_view(key: str):
    """Decorate a kind's view: ``view(request, access, **other_url_kwargs)``.

    The wrapper takes ``competition_slug`` and ``round_slug`` from the URL, checks access
    with ``round_access`` (404 for a competition or round the user may not
    see) and answers 404 when the round is of another kind than ``key``; the view receives the
    ``RoundAccess``.
    """

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, competition_slug, round_slug, *args, **kwargs):
            access = round_access(request, competition_slug, round_slug)
            if access.round.kind != key:
                raise Http404("No such round.")
            return view(request, access, *args, **kwargs)

        return wrapper

    return decorate
