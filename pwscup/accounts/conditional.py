"""Conditional GET of whole pages: an ETag from versions, never from the rendered bytes.

A page's bytes differ on every request (Django masks the CSRF token of the header's forms
anew each time), so an ETag of the bytes never matches and a browser would download every
page again. A page that opts in instead names what it shows: versions its owners replace
on every change (a ranking's version, a team's live version) and the rows it read. This
module adds what every page shows besides (``page_etag``):

* the viewer: the account (its name is in the header), the language, the header's own
  state (unread notifications, the console link: ``request_header``) and the CSRF secret the
  page's forms are masked from, so a page kept from before a log-in is never reused
  with tokens that no longer validate;
* the code: a token of the files that draw pages (``code_version``), so a deploy is seen;
* for a round's page (``round_page_etag``): the competition, the round, its windows with
  their state now (a window opening is a change though no row changed) and the viewer's
  team.

A page is rendered, and gets no ETag, when any of that cannot vouch for it: a flash message
is waiting (it is shown once), the browser has no CSRF cookie yet (the render makes one),
or the viewer organizes the round (an organizer's pages show more than these parts).

A page of a round whose kind's row is counted (``RoundKind.counted_row``) is also
remembered (``KeptPage``), and ``kept_answer`` (``pwscup.accounts.middleware``) answers the
same copy asked again with 304 from one read, before the view runs: the page generation
(``accounts.PageGeneration``, moved by the database on every write to the rows the page
and its access rest on), the unread count and the page's versions.

``conditional_response`` answers 304 before rendering when the browser's copy is current,
and marks a page it renders ``Cache-Control: private, no-cache``: the browser keeps it and
asks about it every time (``pwscup.core.middleware`` leaves such an answer alone; every
other answer to a logged-in user is ``no-store``). Only pages that show nothing private to
the team opt in (a round's overview, its leaderboards): the Submit and Results tabs, files
and the API stay ``no-store``, so a classroom's shared computer keeps no team's uploads.
"""

import datetime as dt
import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db.models import Model
from django.http import HttpResponse, HttpResponseNotModified
from django.utils import timezone, translation
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import parse_etags, quote_etag

from pwscup.accounts.header import request_header
from pwscup.accounts.page_versions import versions_now
from pwscup.kinds.registry import kind_of

# The folders whose files draw the pages (code, templates, translations, and the scripts and
# styles a page names by their hashed file names, so a deploy of those alone is seen too).
_DRAWING_FOLDERS = ("pwscup", "templates", "locale", "static")
_DRAWING_SUFFIXES = (".py", ".html", ".mo", ".txt", ".svg", ".js", ".css")


@functools.cache
def code_version() -> str:
    """A token of the files that draw pages, read once per process: a new deploy (any
    file's size or modification time) gives every page a new ETag. Statted, not read
    (about 600 files)."""
    digest = hashlib.sha256()
    base = settings.BASE_DIR
    for folder in _DRAWING_FOLDERS:
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in _DRAWING_SUFFIXES and path.is_file():
                stat = path.stat()
                digest.update(
                    f"{path.relative_to(base)}:{stat.st_size}:{stat.st_mtime_ns}".encode()
                )
    return digest.hexdigest()[:16]


def _token(part) -> str:
    """A part of an ETag as text: a model row by its stored values (what the page read of
    it), ``None`` as nothing, anything else as its ``str``."""
    if part is None:
        return "-"
    if isinstance(part, Model):
        values = [
            (field.name, field.value_from_object(part))
            for field in type(part)._meta.get_fields()  # the documented Model _meta API
            if field.concrete and not field.many_to_many
        ]
        return f"{type(part).__name__}{values!r}"
    if isinstance(part, list | tuple):
        return "[" + ",".join(_token(item) for item in part) + "]"
    return str(part)


def page_etag(request, *parts) -> str | None:
    """The ETag of the page ``request`` asks for, made of ``parts`` (what the page shows
    of the site, see ``_token``) and of what every page shows of its viewer; ``None`` when
    the page must be rendered (see the module's docstring)."""
    csrf_secret = request.META.get("CSRF_COOKIE")
    if not csrf_secret or len(get_messages(request)):
        return None
    user = request.user
    header = request_header(request)
    viewer = (
        [user.pk, user.get_username(), header.console, header.unread, header.admin]
        if user.is_authenticated
        else ["visitor"]
    )
    digest = hashlib.sha256()
    for part in (
        code_version(),
        translation.get_language(),
        csrf_secret,
        request.get_full_path(),
        *viewer,
        *parts,
    ):
        digest.update(_token(part).encode())
        digest.update(b"\x1f")
    return quote_etag(digest.hexdigest()[:32])


def round_page_etag(request, access, *parts, versions: dict | None = None) -> str | None:
    """``page_etag`` of a round's page (``access``: ``pwscup.accounts.access.RoundAccess``)
    with the competition's and the round's rows, the viewer's team, and the round's windows
    with their state now, as its kind tells them (``RoundKind.schedule_lines``: a window
    opening or closing changes the page though no row changed). ``None`` for the round's
    organizers (their pages show more than these parts).

    ``versions``: the counters the page shows besides its rows (``VersionRead`` → the value
    the page read, BEFORE it read what the version counts), part of the ETag too. Where the
    round's kind's row is counted (``RoundKind.counted_row``), the page is remembered with them
    (``KeptPage``) so that the next request for the same copy is answered 304 from one read
    (``kept_answer``)."""
    if access.is_organizer:
        return None
    versions = versions or {}
    lines = kind_of(access.round).schedule_lines(access.round)
    windows = [sorted(line.items()) for line in lines]
    etag = page_etag(
        request, access.competition, access.round, access.team, windows, *parts, *versions.values()
    )
    generation = access.generation
    if etag is not None and generation is not None and kind_of(access.round).counted_row:
        request.pwscup_kept = KeptPage(
            etag=etag,
            viewer=_viewer(request),
            path=request.get_full_path(),
            language=translation.get_language(),
            csrf=_secret_digest(request),
            code=code_version(),
            generation=generation,
            unread=request_header(request).unread,
            reads=tuple(versions),
            values=tuple(versions.values()),
            until=_next_change(lines),
        )
    return etag


def conditional_response(request, etag: str | None, render: Callable[[], HttpResponse]):
    """``render()``'s page, or an empty 304 when the browser's copy has ``etag`` (RFC 9110:
    the 304 carries the ETag and Cache-Control the page would). ``etag`` ``None``: always
    rendered, and not kept by the browser. A page ``round_page_etag`` remembered is kept in
    the cache once answered (``_remember``)."""
    if etag is None:
        return render()
    headers = HttpResponse()
    headers["ETag"] = etag
    patch_cache_control(headers, private=True, no_cache=True)
    # Django's own evaluation of If-None-Match / If-Match: a 304 (or a 412) carrying the
    # headers above, else the headers themselves back (nothing to answer early).
    early = get_conditional_response(request, etag=etag, response=headers)
    if early is not headers:
        if early.status_code == 304:
            _remember(request, etag)
        return early
    response = render()
    if response.status_code == 200:
        response["ETag"] = etag
        patch_cache_control(response, private=True, no_cache=True)
        _remember(request, etag)
    return response


# --- kept pages: a 304 from one read ---------------------------------------------------------

#: How long a kept page is remembered at most (a window's next opening or closing ends it
#: sooner). A browser asking later is answered by the page's own path, and remembered again.
KEPT_SECONDS = 6 * 3600


@dataclass(frozen=True)
class KeptPage:
    """A page answered with ``etag``, and everything that ETag was made of that one read
    cannot vouch for again: who asked (``_viewer``), for what (``path``, ``language``), with
    which CSRF secret (its digest) and code, the page generation and the unread count read
    with it, the page's own versions (``reads`` and their ``values``), and when its windows
    next change state (``until``)."""

    etag: str
    viewer: tuple
    path: str
    language: str
    csrf: str
    code: str
    generation: int
    unread: int
    reads: tuple
    values: tuple
    until: dt.datetime | None


def _viewer(request) -> tuple:
    """What of the user the page's access and header rest on beyond the counted rows (the
    user's own row is read on every request by Django's authentication)."""
    user = request.user
    if not user.is_authenticated:
        return ("visitor",)
    return (user.pk, user.get_username(), user.is_active, user.is_superuser)


def _secret_digest(request) -> str:
    secret = request.META.get("CSRF_COOKIE") or ""
    return hashlib.sha256(secret.encode()).hexdigest()


def _next_change(lines) -> dt.datetime | None:
    """When the first of the round's windows opens or closes after now (``None``: never)."""
    now = timezone.now()
    times = [
        moment
        for line in lines
        for moment in (line.get("opens_at"), line.get("closes_at"))
        if moment is not None and moment > now
    ]
    return min(times, default=None)


def _kept_key(*, csrf: str, viewer: tuple, path: str) -> str:
    """Where a page is remembered: one entry per browser (its CSRF secret's digest), viewer
    and address without its query string (``request.path``), holding the last copy given
    there. Distinct query strings replace that entry rather than add one, so requests
    cannot grow the cache."""
    identity = f"{csrf}|{viewer}|{path}"
    return "pwscup:kept:" + hashlib.sha256(identity.encode()).hexdigest()


def _remember(request, etag: str) -> None:
    kept = getattr(request, "pwscup_kept", None)
    if kept is None or kept.etag != etag:
        return
    seconds = KEPT_SECONDS
    if kept.until is not None:
        seconds = min(seconds, int((kept.until - timezone.now()).total_seconds()))
    if seconds > 0:
        cache.set(_kept_key(csrf=kept.csrf, viewer=kept.viewer, path=request.path), kept, seconds)


def kept_answer(request) -> HttpResponse | None:
    """An empty 304 for a page remembered by ``round_page_etag`` whose copy the browser
    sends back (``If-None-Match``), when nothing that page was made of has changed: the
    same viewer, address, language, CSRF secret and code, no message waiting, no window
    opened or closed since, and one query finds the page generation (every write to the
    competition, the round, its phases, its teams and memberships, the organizers, the
    groups and permissions, the kind's counted rows), the unread count and the page's
    versions as they were. ``None``: the page's own path answers (and checks access).

    Why this is safe without the access check: the ETag was given after that check passed,
    and every row the check reads is counted by the generation (the user's own row is
    compared here), so the same inputs give the same answer."""
    if request.method not in ("GET", "HEAD"):
        return None
    etags = parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))
    if len(etags) != 1 or etags[0] == "*":
        return None
    viewer, csrf = _viewer(request), _secret_digest(request)
    kept = cache.get(_kept_key(csrf=csrf, viewer=viewer, path=request.path))
    if not isinstance(kept, KeptPage) or kept.etag != etags[0]:
        return None
    if kept.until is not None and timezone.now() >= kept.until:
        return None
    same = (
        kept.viewer == viewer
        and kept.csrf == csrf
        and kept.path == request.get_full_path()
        and kept.language == translation.get_language()
        and kept.code == code_version()
    )
    if not same or len(get_messages(request)):
        return None
    user = request.user
    now = versions_now(user_id=user.pk if user.is_authenticated else None, reads=kept.reads)
    if now != (kept.generation, kept.unread, *kept.values):
        return None
    response = HttpResponseNotModified()
    response["ETag"] = kept.etag
    patch_cache_control(response, private=True, no_cache=True)
    return response
