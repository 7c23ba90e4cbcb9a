"""Who is asking about a round: a team member, an organizer, or a visitor."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Subquery
from django.http import FileResponse, Http404

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import competitions_for_user, organized_competitions
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.core.precompiled import precompiled

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
    # Read on every round page and every poll: the competition (one the user may see, with
    # whether the user organizes it and the user's team in it), the round, its phases and
    # the team, each from SQL compiled once per process (pwscup/core/precompiled.py).
    user = request.user
    shape = (user.is_authenticated, user.is_authenticated and user.is_active, user.is_superuser)
    user_id = user.pk if user.is_authenticated else None
    competition = _first(
        precompiled(
            ("access:competition", *shape),
            _competition_query,
            _COMPETITION_SENTINELS,
            dict(zip(("authenticated", "active", "superuser"), shape, strict=True)),
            unused=() if user.is_authenticated else ("user_id",),
        ),
        user_id=user_id,
        slug=competition_slug,
    )
    round_ = competition and _first(
        precompiled("access:round", _round_query, _ROUND_SENTINELS),
        competition_id=competition.pk,
        slug=round_slug,
    )
    if round_ is None:
        raise Http404("No such round.")
    expected_kind = kind or getattr(request, EXPECTED_KIND_ATTRIBUTE, None)
    if expected_kind is not None and round_.kind != expected_kind:
        raise Http404("No such round.")
    Round.competition.field.set_cached_value(round_, competition)
    _set_phases(round_)
    team_id = getattr(competition, "user_team_id", None)
    team = (
        _first(precompiled("access:team", _team_query, _TEAM_SENTINELS), team_id=team_id)
        if team_id is not None
        else None
    )
    if team is not None:
        Team.competition.field.set_cached_value(team, competition)
    return RoundAccess(
        competition=competition,
        round=round_,
        team=team,
        # the same rule as ``user_is_organizer`` (organized_competitions), read above
        is_organizer=bool(getattr(competition, "user_organizes", False)),
    )


def _first(compiled, **values):
    found = compiled.run(**values)
    return found[0] if found else None


def _competition_query(*, user_id, slug, authenticated, active, superuser):
    """The competition ``slug`` if the user may see it, as the selectors say, with whether the
    user organizes it (``user_organizes``) and the user's team in it (``user_team_id``, the
    team ``team_for_user`` returns)."""
    if authenticated:
        user = get_user_model()(pk=user_id, is_active=active, is_superuser=superuser)
    else:
        user = AnonymousUser()
    competitions = competitions_for_user(user=user).filter(slug=slug)
    organized = organized_competitions(user=user)
    if not organized.query.is_empty():
        competitions = competitions.annotate(
            user_organizes=Exists(organized.filter(pk=OuterRef("pk")))
        )
    if authenticated:
        teams = Team.objects.filter(competition=OuterRef("pk"), members=user)
        competitions = competitions.annotate(
            user_team_id=Subquery(teams.order_by("name", "pk").values("pk")[:1])
        )
    return competitions


def _round_query(*, competition_id, slug):
    return Round.objects.filter(competition_id=competition_id, slug=slug)


def _phases_query(*, round_id):
    # The related manager's own query (what prefetch_related("phases") ran): its ordering too.
    return Round(pk=round_id).phases.all()


def _team_query(*, team_id):
    return Team.objects.filter(pk=team_id)


def _set_phases(round_) -> None:
    """The round's phases, as ``prefetch_related("phases")`` leaves them."""
    phases = precompiled("access:phases", _phases_query, _PHASE_SENTINELS).run(round_id=round_.pk)
    for phase in phases:
        Phase.round.field.set_cached_value(phase, round_)
    manager_qs = round_.phases.all()
    manager_qs._result_cache = phases
    manager_qs._prefetch_done = True
    round_._prefetched_objects_cache = {"phases": manager_qs}


# Values no real query holds: the compiled SQL's parameters are found back by them.
_COMPETITION_SENTINELS = {"user_id": -1_731_000_001, "slug": "~competition-slug-sentinel~"}
_ROUND_SENTINELS = {"competition_id": -1_731_000_002, "slug": "~round-slug-sentinel~"}
_PHASE_SENTINELS = {"round_id": -1_731_000_003}
_TEAM_SENTINELS = {"team_id": -1_731_000_004}


def private_file_response(field, filename: str) -> FileResponse:
    """Serve a private file as an attachment; callers have checked permission already."""
    if not field:
        raise Http404("No file.")
    return FileResponse(
        field.open("rb"), as_attachment=True, filename=filename, content_type="text/csv"
    )
