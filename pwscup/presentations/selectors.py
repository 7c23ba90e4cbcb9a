"""Reading presentation windows and slides: what each viewer may see, in what order.

Who sees what (``slides_visible_to``): before a window's slides are published, a team sees
only its own uploads and the organizers see every upload. Once an organizer publishes the
window, every participant of the competition (a member of one of its teams) sees every
team's latest ready slides: preview, policy texts and the PDF. Visitors never do, even in a
listed competition: the slides describe a team's anonymization and its attacks on the other
teams' data, written for the contest's own audience (the conservative choice).
``published_slides_visible_to`` says who that audience is; the results archive follows it
(its variant with the slides goes to that audience only).

Order (``competition_windows``): the rounds' windows in the competition's page order (the
rounds' ``order``), then the competition-wide window last, as the final session of the
contest comes after its rounds. Teams by name.
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import team_for_user
from pwscup.competitions.models import Competition, Round
from pwscup.competitions.selectors import user_is_organizer
from pwscup.kinds import kind_of
from pwscup.presentations.models import PresentationWindow, Slides
from pwscup.submissions.selectors import Quota, quota_day_of, uploads_quota_usage


def competition_windows(*, competition: Competition) -> list[PresentationWindow]:
    """The competition's windows in page order: by round (its order), the competition-wide
    window last."""
    windows = PresentationWindow.objects.filter(competition=competition).select_related(
        "round", "competition"
    )
    return sorted(
        windows,
        key=lambda w: (w.round_id is None, w.round.order if w.round_id else 0, w.round_id or 0),
    )


def window_state(*, window: PresentationWindow, now: dt.datetime | None = None) -> str:
    """'upcoming', 'open' or 'closed' (uploads), like a phase's."""
    now = now or timezone.now()
    if now < window.opens_at:
        return "upcoming"
    return "open" if window.is_open(now) else "closed"


def latest_ready_slides(*, windows) -> dict[tuple[int, int], Slides]:
    """``{(window id, team id): Slides}``: each team's latest ready upload in each window
    (one query: a ready upload with no later ready one of the same team and window; written
    with ``Exists`` rather than PostgreSQL's ``DISTINCT ON`` so the laptop demo's SQLite runs
    it too)."""
    ready = Slides.objects.filter(status=Slides.Status.FINISHED)
    later = ready.filter(
        window=OuterRef("window"), team=OuterRef("team"), number__gt=OuterRef("number")
    )
    rows = ready.filter(window__in=list(windows)).exclude(Exists(later)).select_related("team")
    return {(s.window_id, s.team_id): s for s in rows}


def shown_slides_of(*, window: PresentationWindow) -> list[Slides]:
    """The slides a window shows: each team's latest ready upload, teams by name."""
    shown = latest_ready_slides(windows=[window]).values()
    return sorted(shown, key=lambda s: (s.team.name.casefold(), s.team_id))


@dataclass(frozen=True)
class PublishedSlides:
    """One team's slides in a published window, as the results archive takes them."""

    window: PresentationWindow
    window_title: str
    round: Round | None
    team: Team
    team_name: str
    team_slug: str
    slides: Slides


def published_slides(*, competition: Competition) -> list[PublishedSlides]:
    """For every published window of ``competition`` (page order), each team's latest ready
    slides (teams by name): the file (``slides.file``), the preview (``slides.preview``),
    the policy texts, SHA-256 and size."""
    windows = [w for w in competition_windows(competition=competition) if w.is_published]
    latest = latest_ready_slides(windows=windows)
    result = []
    for window in windows:
        shown = [s for (window_id, _team), s in latest.items() if window_id == window.pk]
        for slides in sorted(shown, key=lambda s: (s.team.name.casefold(), s.team_id)):
            result.append(
                PublishedSlides(
                    window=window,
                    window_title=window.name,
                    round=window.round,
                    team=slides.team,
                    team_name=slides.team.name,
                    team_slug=slides.team.slug,
                    slides=slides,
                )
            )
    return result


def is_participant(*, user, competition: Competition) -> bool:
    """A member of one of the competition's teams."""
    return team_for_user(user=user, competition=competition) is not None


def published_slides_visible_to(*, user, competition: Competition) -> bool:
    """Whether ``user`` is in the audience of ``competition``'s published slides (and their
    policy texts): its participants and its organizers, never a visitor."""
    if not user.is_authenticated:
        return False
    return is_participant(user=user, competition=competition) or user_is_organizer(
        user=user, competition=competition
    )


def slides_visible_to(*, user, slides: Slides) -> bool:
    """Whether ``user`` may fetch ``slides`` (its PDF and preview): the module's rule."""
    if not user.is_authenticated:
        return False
    window = slides.window
    competition = window.competition
    if user_is_organizer(user=user, competition=competition):
        return True
    team = team_for_user(user=user, competition=competition)
    if team is None:
        return False
    if team.pk == slides.team_id:
        return True
    if not window.is_published or slides.status != Slides.Status.FINISHED:
        return False
    shown = latest_ready_slides(windows=[window]).get((window.pk, slides.team_id))
    return shown is not None and shown.pk == slides.pk


def window_quota(*, window: PresentationWindow, team: Team, now=None) -> Quota:
    return uploads_quota_usage(
        Slides.objects.filter(window=window, team=team),
        day=quota_day_of(window.round, time_zone=window.zone),
        now=now or timezone.now(),
    )


def publication_missing(*, window: PresentationWindow, now=None) -> list[str]:
    """Why the window's slides cannot be published now (``[]``: they can): the window must
    have closed, and the results of its round (of every round, for a competition-wide
    window) must not be unpublished."""
    now = now or timezone.now()
    missing = []
    if not window.has_closed(now):
        missing.append(_("The upload window has not closed yet."))
    rounds = [window.round] if window.round_id else list(window.competition.rounds.all())
    for round_ in rounds:
        if kind_of(round_).results_published(round_) is False:
            missing.append(
                _("The results of %(round)s are not published yet.") % {"round": round_.name}
            )
    return missing


@dataclass
class WindowView:
    """A window as the participants' page draws it for one viewer."""

    window: PresentationWindow
    state: str
    uploads: list  # the viewer's team's uploads, newest first
    quota: Quota | None
    gallery: list  # each team's shown slides, when the viewer may see them
    current: Slides | None  # the team's slides shown now (latest ready)


def presentations_page(*, user, competition: Competition, now=None) -> dict:
    """What ``c/<competition>/presentations/`` shows ``user``: each window, the team's
    uploads and quota, and the gallery where published (or to organizers)."""
    now = now or timezone.now()
    windows = competition_windows(competition=competition)
    team = team_for_user(user=user, competition=competition)
    organizer = user_is_organizer(user=user, competition=competition)
    audience = published_slides_visible_to(user=user, competition=competition)
    latest = latest_ready_slides(windows=windows)
    uploads = {}
    if team is not None:
        for slides in Slides.objects.filter(window__in=windows, team=team).order_by(
            "-created_at", "-id"
        ):
            uploads.setdefault(slides.window_id, []).append(slides)
    views = []
    for window in windows:
        sees_gallery = window.is_published and audience
        gallery = []
        if sees_gallery:
            gallery = sorted(
                (s for (wid, _t), s in latest.items() if wid == window.pk),
                key=lambda s: (s.team.name.casefold(), s.team_id),
            )
        views.append(
            WindowView(
                window=window,
                state=window_state(window=window, now=now),
                uploads=uploads.get(window.pk, []),
                quota=window_quota(window=window, team=team, now=now) if team else None,
                gallery=gallery,
                current=latest.get((window.pk, team.pk)) if team else None,
            )
        )
    pending = any(s.is_pending for view in views for s in view.uploads)
    return {
        "has_uploads": any(view.uploads for view in views),
        "competition": competition,
        "team": team,
        "is_organizer": organizer,
        "windows": views,
        "pending": pending,
    }


def presentations_for(*, user, competition):
    """What the competition page shows ``user`` of the presentations (``None``: nothing):
    one line per window (name, dates in its time zone, state, published) and the link to
    the presentations page, for the competition's participants and organizers."""
    windows = competition_windows(competition=competition)
    if not windows:
        return None
    if not published_slides_visible_to(user=user, competition=competition):
        return None
    now = timezone.now()
    return {
        "url": reverse("presentations:page", args=[competition.slug]),
        "windows": [{"window": w, "state": window_state(window=w, now=now)} for w in windows],
    }


def presentations_console(*, competition):
    """What the console's competition page shows of the presentations: each window with
    its state, how many teams have ready slides, whether they are published; and the link
    to the console's presentations page (always: it is where a window is created)."""
    windows = competition_windows(competition=competition)
    latest = latest_ready_slides(windows=windows)
    now = timezone.now()
    return {
        "url": reverse("presentations:console", args=[competition.slug]),
        "teams": Team.objects.filter(competition=competition).count(),
        "windows": [
            {
                "window": w,
                "state": window_state(window=w, now=now),
                "ready": sum(1 for (wid, _t) in latest if wid == w.pk),
            }
            for w in windows
        ],
    }


def console_overview(*, competition: Competition, now=None) -> list[dict]:
    """The console's presentations page: for each window, each team's uploads (newest
    first) with the one shown marked, and what publication still needs."""
    now = now or timezone.now()
    windows = competition_windows(competition=competition)
    teams = list(Team.objects.filter(competition=competition).order_by("name", "id"))
    latest = latest_ready_slides(windows=windows)
    by_key: dict[tuple[int, int], list[Slides]] = {}
    for slides in Slides.objects.filter(window__in=windows).order_by("-created_at", "-id"):
        by_key.setdefault((slides.window_id, slides.team_id), []).append(slides)
    return [
        {
            "window": window,
            "state": window_state(window=window, now=now),
            "missing": publication_missing(window=window, now=now),
            "teams": [
                {
                    "team": team,
                    "uploads": by_key.get((window.pk, team.pk), []),
                    "shown": latest.get((window.pk, team.pk)),
                }
                for team in teams
            ],
        }
        for window in windows
    ]


def window_for_console(*, competition: Competition, pk: int) -> PresentationWindow | None:
    return (
        PresentationWindow.objects.filter(Q(competition=competition), pk=pk)
        .select_related("round", "competition")
        .first()
    )
