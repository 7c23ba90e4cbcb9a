"""Reading rounds, their phases and their data."""

from urllib.parse import urlsplit

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.urls import Resolver404, resolve
from django.utils import timezone

import scoring
from pwscup.competitions.models import AuditEntry, Competition, Phase, RankingVersion, Round
from pwscup.competitions.windows import schedule_line
from pwscup.core.files import opened
from pwscup.core.process_cache import ProcessCache
from pwscup.kinds.registry import kind_of

# Workers score many uploads on one original: each table is read once per process.
_TABLES = ProcessCache(8)


def cached_table(field, key: str):
    """Read a private CSV once per process (workers score many uploads on one original)."""

    def read():
        with opened(field) as handle:
            return scoring.read_table(handle, name=field.name)

    return _TABLES.get((field.name, key), read)


def round_original_table(*, round: Round):
    return cached_table(round.original_file, round.original_sha256)


def round_config(*, round: Round) -> scoring.RoundConfig:
    return scoring.load_config(round.config, round_original_table(round=round))


def round_metrics(*, round: Round) -> tuple[str, ...]:
    """The metrics a round's scores have: the 14 of metrics.md, plus the indicators L1, L2,
    L3 and T when its configuration has an ``indicators`` block."""
    if (round.config or {}).get("indicators"):
        return scoring.ALL_METRICS
    return scoring.METRICS


def table_config(*, round: Round, table) -> scoring.RoundConfig:
    """The round's configuration checked against ``table``: its original, a team's sample
    or a candidate table.

    Which columns hold integers is the round's decision, made on its original (stored
    with the configuration), so every job compares values the same way whatever table
    it holds. A round saved before that decision was stored gets it from its original.
    """
    stored = round.config
    if "integer_columns" not in stored:
        decided = round_config(round=round).integer_columns
        stored = {**stored, "integer_columns": list(decided)}
    return scoring.load_config(stored, table)


# The attribute a request's round carries its ranking version in (``ranking_version_set``).
_RANKING_VERSION = "ranking_version"


def ranking_version_set(round: Round, version: int) -> None:
    """Give ``round`` its ranking version as read elsewhere in one query (``round_access``
    reads it with the page generation), for ``round_ranking_version``."""
    setattr(round, _RANKING_VERSION, version)


def round_ranking_version(*, round: Round) -> int:
    """The round's ranking version: as read for the request (``ranking_version_set``: once
    per request, by ``round_access``), else read now (one indexed read)."""
    version = getattr(round, _RANKING_VERSION, None)
    if version is None:
        row = RankingVersion.objects.filter(round_id=round.pk).values_list("version", flat=True)
        version = row.first() or 0
    return version


def phase_of(*, round: Round, kind: str) -> Phase | None:
    return next((p for p in round.phases.all() if p.kind == kind), None)


def round_missing_phases(*, round: Round) -> list[str]:
    """Labels of the phases a round still lacks: every phase its game names
    (``RoundKind.phase_labels``) is needed to play it."""
    kinds = {phase.kind for phase in round.phases.all()}
    labels = kind_of(round).phase_labels
    return [str(label) for key, label in labels.items() if key not in kinds]


def phase_closes_at(*, phase: Phase):
    """When the phase really ends: its scheduled close, or earlier when the round's kind
    ended it (the 2015 game's freeze ends the anonymization phase)."""
    ended_at = kind_of(phase.round).phase_ended_at(phase)
    if ended_at is not None:
        return min(phase.closes_at, ended_at)
    return phase.closes_at


def phase_state(*, phase: Phase | None, now=None) -> str:
    """'unset', 'upcoming', 'open' or 'closed'. A phase ended before its opening (a freeze
    or a close confirmed with the box *end it before it opens*) is closed, not to come."""
    if phase is None:
        return "unset"
    now = now or timezone.now()
    if now >= phase_closes_at(phase=phase):
        return "closed"
    return "upcoming" if now < phase.opens_at else "open"


def phase_held(*, phase: Phase | None) -> str:
    """Why ``phase`` takes no upload whatever its dates say, as its round's kind tells it
    (``RoundKind.phase_held``: a scorer round waiting for hidden data); ``""``: nothing."""
    return kind_of(phase.round).phase_held(phase) if phase is not None else ""


def phase_state_held(*, phase: Phase | None, now=None) -> str:
    """The phase's state as the round tells it to its teams: ``phase_state``, and
    ``'held'`` for a phase open by its dates that its kind holds (``phase_held``). The one
    rule of every place that states a phase's state: the schedule, the API's ``open`` of an
    upload type, the two-sided tabs."""
    state = phase_state(phase=phase, now=now)
    if state == "open" and phase_held(phase=phase):
        return "held"
    return state


def phases_open_and_coming(*, round: Round, now=None) -> tuple[list[Phase], list[Phase]]:
    """The round's phases open now and those not open yet (``phase_state``), each in order:
    what *Close the open phases now* closes and what it leaves planned, for a kind that
    closes only the phases open now (``pwscup.competitions.phase_close``)."""
    now = now or timezone.now()
    phases = list(Phase.objects.filter(round=round).select_related("round"))
    states = [phase_state(phase=phase, now=now) for phase in phases]
    return (
        [phase for phase, state in zip(phases, states, strict=True) if state == "open"],
        [phase for phase, state in zip(phases, states, strict=True) if state == "upcoming"],
    )


def phases_schedule_lines(*, round: Round) -> list[dict]:
    """The schedule of a round played in the core's phases, one line per phase, as
    ``RoundKind.schedule_lines`` returns it (a kind whose windows are the core's phases
    returns this): each phase's real close (``phase_closes_at``: the freeze ends the 2015
    game's anonymization phase), and its planned one when it closed earlier; a phase its
    kind holds is ``held``, with the kind's reason (``phase_state_held``)."""
    lines = []
    for phase in round.phases.all():
        state = phase_state_held(phase=phase)
        line = schedule_line(
            label=phase.label,
            window=phase,
            closes_at=phase_closes_at(phase=phase),
            state=state,
            held=phase_held(phase=phase) if state == "held" else "",
        )
        lines.append(line)
    return lines


def phases_schedule_plan(*, round: Round) -> list[tuple]:
    """The round's phases as planned (``UploadDates.planned_window``), as
    ``RoundKind.schedule_plan`` returns them (a kind whose windows are the core's phases
    returns this)."""
    return [phase.planned_window() for phase in round.phases.all()]


def organized_competitions(*, user) -> QuerySet[Competition]:
    """The competitions ``user`` may organize: the one rule every organizer screen applies.

    Superusers run the platform and organize everything; any other account only the
    competitions that list it among their organizers (being staff grants nothing more).
    """
    if not user.is_authenticated or not user.is_active:
        return Competition.objects.none()
    if user.is_superuser:
        return Competition.objects.all()
    return Competition.objects.filter(organizers=user)


def user_is_organizer(*, user, competition: Competition) -> bool:
    return organized_competitions(user=user).filter(pk=competition.pk).exists()


def console_competition(*, user, slug: str) -> Competition:
    return get_object_or_404(organized_competitions(user=user), slug=slug)


def console_round(
    *, user, competition_slug: str, round_slug: str, kind: str | None = None
) -> Round:
    """A round the user organizes (404 otherwise); with ``kind``, only a round of that kind
    (a kind's console pages are confined to its rounds)."""
    competition = console_competition(user=user, slug=competition_slug)
    rounds = Round.objects.select_related("competition").prefetch_related("phases")
    if kind is not None:
        rounds = rounds.filter(kind=kind)
    return get_object_or_404(rounds, competition=competition, slug=round_slug)


def audit_entries(*, competition: Competition, round: Round | None = None, limit: int = 100):
    entries = AuditEntry.objects.filter(competition=competition).select_related("user", "round")
    if round is not None:
        entries = entries.filter(round=round)
    return entries[:limit]


# Creating a competition (the console's New button, a bundle's import or clone) is granted by
# this permission: ``competitions.add_competition``, given by the Competition creators group.
CREATE_PERMISSION = "competitions.add_competition"


def results_published_at(*, round: Round):
    """When ``round``'s results were last published (its audit log; ``None``: never): the
    end of a window that a publication closes, for a kind that keeps no time of it (the
    sequential attack phase)."""
    entries = AuditEntry.objects.filter(round=round, action=AuditEntry.Action.RESULTS_PUBLISHED)
    return entries.order_by("-created_at").values_list("created_at", flat=True).first()


def may_create_competitions(*, user) -> bool:
    """Whether ``user`` may create a competition, from the console, a bundle or a clone."""
    return bool(user.is_authenticated and user.is_active and user.has_perm(CREATE_PERMISSION))


def may_use_console(*, user) -> bool:
    """An account that organizes a competition, or may create one: who gets the console
    (its pages, and the header's link to it)."""
    if not user.is_authenticated:
        return False
    return may_create_competitions(user=user) or organized_competitions(user=user).exists()


def round_at_path(*, competition: Competition, path: str) -> Round | None:
    """The round of ``competition`` whose page ``path`` is (any of its tabs or a kind's page
    under it), else ``None``: where a "back to the round" link leads."""
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    if match.kwargs.get("competition_slug") != competition.slug:
        return None
    slug = match.kwargs.get("round_slug")
    return Round.objects.filter(competition=competition, slug=slug).first() if slug else None
