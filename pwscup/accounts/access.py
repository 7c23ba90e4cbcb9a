"""Who is asking about a round: a team member, an organizer, or a visitor."""

import functools
import hashlib
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Prefetch, Value
from django.db.models.query import EmptyQuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from pwscup.accounts.header import unread_known
from pwscup.accounts.models import Team
from pwscup.accounts.page_versions import request_versions
from pwscup.accounts.selectors import competitions_for_user, team_for_user
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.selectors import organized_competitions, ranking_version_set
from pwscup.kinds.registry import all_kinds

# Set on the request by the core for every view under a round kind's URLs (pwscup/pages/
# kinds.py): ``round_access`` then answers 404 for a round of another kind.
EXPECTED_KIND_ATTRIBUTE = "expected_round_kind"


@dataclass(frozen=True)
class RoundAccess:
    competition: Competition
    round: Round
    team: Team | None
    is_organizer: bool
    # The page generation read before any of these rows (``PageGeneration``; ``None``: its
    # row is missing, nothing is trusted to it): what a kept page is remembered at.
    generation: int | None = None


#: How long one viewer's access to one round is kept in the cache at most. The key holds
#: the page generation, so any write to the rows it was read from sends the next request
#: to the database at once; the bound only limits what the cache keeps.
ACCESS_SECONDS = 600


def round_access(
    request, competition_slug: str, round_slug: str, *, kind: str | None = None
) -> RoundAccess:
    """The round the user may see (404 otherwise). ``kind``, or the kind the core set on the
    request for a kind's own URLs, confines it: a round of another kind answers 404.

    One indexed read first: the page generation, the round's ranking version and the
    viewer's unread count for the header (``request_versions``). The competition, the round
    with its phases and the viewer's team are then read from the cache under that
    generation, or from the database (four queries) and kept there: every row they come
    from is counted by the generation (``accounts.PageGeneration``), so a cached answer is
    the one the database would give."""
    user = request.user
    generation, ranking_version, unread = request_versions(
        competition_slug=competition_slug,
        round_slug=round_slug,
        user_id=user.pk if user.is_authenticated else None,
    )
    unread_known(request, unread)
    key = None
    if generation is not None:
        viewer = (
            f"{user.pk}:{user.is_active:d}{user.is_superuser:d}"
            if user.is_authenticated
            else "visitor"
        )
        # The address by its digest: any text a caller passes makes a short, plain key.
        where = hashlib.sha256(f"{competition_slug}/{round_slug}".encode()).hexdigest()
        key = f"pwscup:access:{generation}:{viewer}:{where}"
    rows = cache.get(key) if key is not None else None
    if rows is None:
        rows = _access_rows(user, competition_slug, round_slug)
        # Only a round found is kept: addresses of no round cannot grow the cache.
        if key is not None and rows[1] is not None:
            cache.set(key, rows, ACCESS_SECONDS)
    competition, round_, team = rows
    if round_ is None:
        raise Http404(_("No such round."))
    expected_kind = kind or getattr(request, EXPECTED_KIND_ATTRIBUTE, None)
    if expected_kind is not None and round_.kind != expected_kind:
        raise Http404(_("No such round."))
    # Its ranking version comes with the generation: the cached rankings a page reads are
    # keyed by it (``round_ranking_version``) at no query of their own.
    ranking_version_set(round_, ranking_version)
    return RoundAccess(
        competition=competition,
        round=round_,
        team=team,
        # the same rule as ``user_is_organizer`` (organized_competitions), read with the rows
        is_organizer=competition.user_organizes,
        generation=generation,
    )


def _access_rows(user, competition_slug: str, round_slug: str) -> tuple:
    """``(competition, round, team)`` as the user may see them (``round`` ``None``: no such
    round for them), from the database."""
    competitions = competitions_for_user(user=user).filter(slug=competition_slug)
    organized = organized_competitions(user=user)
    organizes = (
        Value(False)
        if isinstance(organized, EmptyQuerySet)  # a visitor or an inactive account
        else Exists(organized.filter(pk=OuterRef("pk")))
    )
    # Each row is found by a unique key: no ordering, so no join that the models' default
    # orderings (by the competition's date) would add to every page's reads.
    competition = competitions.order_by().annotate(user_organizes=organizes).first()
    # The kinds' own rows whose tables are counted come with the round, and are cached with
    # it (``RoundKind.counted_row``); a round of another kind finds none there.
    counted = [kind for kind in all_kinds() if kind.counted_row]
    round_ = (
        competition
        and Round.objects.filter(competition=competition, slug=round_slug)
        .select_related(*(kind.counted_row for kind in counted))
        .defer(*(f"{k.counted_row}__{field}" for k in counted for field in k.counted_row_defer))
        .order_by()
        .prefetch_related(Prefetch("phases", queryset=Phase.objects.order_by("opens_at", "id")))
        .first()
    )
    if round_ is None:
        return competition, None, None
    # The objects the pages reach from the round share the rows read here (no query again).
    round_.competition = competition
    team = team_for_user(user=user, competition=competition)
    if team is not None:
        team.competition = competition
    return competition, round_, team


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
                raise Http404(_("No such round."))
            return view(request, access, *args, **kwargs)

        return wrapper

    return decorate
