"""Snapshots: the hottest round pages answered without Django's request cycle while nothing
they show has changed.

A team member's round page and its polled status fragment, and a visitor's leaderboard,
attack matrix and final ranking are read far more often than anything on them changes.
Django's request cycle costs 4-7 ms of CPU for each even when every part of the page comes
from the cache (session, user, access check, header, middleware, the page around the
cached content); on two cores, under 20 clients, that queues to p95 120-240 ms. A snapshot
is the response Django sent, kept with:

* the **state digest** of what it depends on, read with one SQL statement
  (``_state_sql``), every row known by its id and ``xmin`` (the transaction that wrote its
  current version: any insert, update, bulk or raw, or delete changes the digest): the
  competition, its organizers, the round, its phases, the viewer's account (password hash,
  activity, superuser flag, groups and permissions, unread notifications, whether they
  organize anything), their membership and team in the competition, the team's uploads and
  attacks in the round, and the round's targets and their teams — a superset of the keys
  of the round page's cached parts (``pwscup/submissions/views.py``) and of what
  ``round_access`` and the header read;
* the **versions** it was rendered under (the round's ranking version: the ranking pages);
* an **expiry**: the next phase boundary, the next midnight of the round's time zone (quota
  days), or ``PWSCUP_SNAPSHOT_SECONDS`` — the clock is the one input no digest sees;
* its **viewer**: the account, session hash and backend of the session it was rendered
  for, or a visitor without a session.

``snapshot_fast_path`` wraps the WSGI application: for a GET of a snapshot page it looks up
the snapshot of (host, scheme, path, query string, language cookie and header, the
browser's session cookie) together with that session in the cache, checks that the session
still names the snapshot's viewer, recomputes the digest and the versions, and if all
match answers it (with a fresh masking of the browser's own CSRF token in the forms, and a
304 for an unchanged ETag); anything else — no snapshot, a change, an expired one, flash
messages waiting, no CSRF cookie, a disallowed host, plain HTTP that Django would redirect,
an error — goes to Django, which records a new snapshot when the page allows it. The
digest is read before the page is rendered, so a snapshot is never older than its digest.

Recorded only for: GET, a visitor without a session cookie or a logged-in member who
organizes nothing in the competition (organizers' pages show what only they may see and
are never snapshot), rounds of the PWSCup 2015 kind (the kind whose tables the digest
reads), answers 200 or 304 that set no cookie but the CSRF one. On PostgreSQL only, on in
the production settings (``PWSCUP_SNAPSHOTS``).

Written here because no library validates a cached response against a database digest per
request (Django's cache middleware and nginx's cache expire by time only).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import logging
import os
import re
import secrets
import time
import zoneinfo
from importlib import import_module
from pathlib import Path

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.db import connection
from django.http.cookie import parse_cookie
from django.http.request import split_domain_port, validate_host
from django.middleware.csrf import (
    CSRF_ALLOWED_CHARS,
    CSRF_SECRET_LENGTH,
    _unmask_cipher_token,
)
from django.utils.http import parse_etags

from pwscup.competitions.ranking_cache import ranking_version, ranking_version_key
from pwscup.core.precompiled import prepared_cursor

logger = logging.getLogger(__name__)

SNAPSHOT_KINDS = ("pwscup2015",)
# The pages ``snapshot_page`` decorates (pwscup/kinds/views.py, pwscup/kinds/pwscup2015.py).
_SNAPSHOT_PATH = re.compile(r"^/c/[-\w]+/[-\w]+/(?:(?:leaderboard|matrix|final)/)?$")
_CSRF_SLOT = "pwscup-snapshot-csrf-slot"
_TOKEN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])")
_CSRF_SECRET = re.compile(r"^[A-Za-z0-9]{32}$")
# Not kept with a snapshot (the server adds its own, or they are computed again).
_DROPPED_HEADERS = {"content-length", "set-cookie", "date", "server", "connection"}
_NOT_IN_304 = {"content-type", "content-length", "content-language"}
_PLAN_ATTRIBUTE = "_pwscup_snapshot_plan"
_HEALTHZ_ATTRIBUTE = "_pwscup_healthz"
_HEALTHZ_DROPPED = _DROPPED_HEADERS | {"expires"}
# The headers of Django's last /healthz answer in this process (every middleware's).
_healthz_headers: list = []
# Marks an answer from a snapshot, for operators (and tests) to tell it from Django's.
_HIT = ("X-Snapshot", "hit")


def enabled() -> bool:
    return bool(getattr(settings, "PWSCUP_SNAPSHOTS", False)) and connection.vendor == "postgresql"


def max_seconds() -> int:
    return int(getattr(settings, "PWSCUP_SNAPSHOT_SECONDS", 120))


@functools.cache
def _generation() -> str:
    """What every snapshot depends on besides the data: the code, templates and
    translations deployed (sizes and modification times), the Django version and the
    secret key (session hashes and signatures change with it)."""
    import django

    root = Path(settings.BASE_DIR)
    stamp = hashlib.sha256()
    for top in ("pwscup", "templates", "scoring", "locale"):
        for folder, folders, files in os.walk(root / top):
            folders.sort()  # the same walk in every process
            for name in sorted(files):
                if name.endswith((".py", ".html", ".mo", ".txt", ".json")):
                    info = os.stat(os.path.join(folder, name))
                    stamp.update(f"{folder}/{name}:{info.st_size}:{info.st_mtime_ns}".encode())
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"  # the static files' names
    if manifest.exists():
        stamp.update(manifest.read_bytes())
    stamp.update(django.get_version().encode())
    stamp.update(hashlib.sha256(settings.SECRET_KEY.encode()).digest())
    return stamp.hexdigest()[:16]


def warm_up() -> None:
    """What every worker would otherwise compute on its first snapshot, computed once."""
    _generation()
    _state_sql()


# --- The state digest ----------------------------------------------------------------------


@functools.cache
def _state_sql() -> str:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from pwscup.accounts.models import Membership, Team
    from pwscup.competitions.models import Competition, Phase, Round
    from pwscup.notifications.models import Notification
    from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission, Target

    user = get_user_model()
    tables = {
        "competition": Competition._meta.db_table,
        "organizers": Competition.organizers.through._meta.db_table,
        "round": Round._meta.db_table,
        "phase": Phase._meta.db_table,
        "user": user._meta.db_table,
        "user_groups": user.groups.through._meta.db_table,
        "user_permissions": user.user_permissions.through._meta.db_table,
        "group_permissions": Group.permissions.through._meta.db_table,
        "notification": Notification._meta.db_table,
        "membership": Membership._meta.db_table,
        "team": Team._meta.db_table,
        "anonymization": AnonymizationSubmission._meta.db_table,
        "attack": AttackSubmission._meta.db_table,
        "target": Target._meta.db_table,
    }
    # Each row is known by its id and ``xmin``, the transaction that wrote its current
    # version: any insert, update (bulk ones and raw SQL included) or delete changes the
    # list, without printing the rows (their JSON columns made that 1-2 ms a call). Every
    # list that may be empty has its own tag: concat_ws leaves out the empty ones.
    return """
WITH c AS (SELECT *, xmin FROM {competition} WHERE slug = %(competition)s),
r AS (SELECT x.*, x.xmin FROM {round} x JOIN c ON x.competition_id = c.id
      WHERE x.slug = %(round)s),
p AS (SELECT x.*, x.xmin FROM {phase} x JOIN r ON x.round_id = r.id),
o AS (SELECT x.*, x.xmin FROM {organizers} x JOIN c ON x.competition_id = c.id),
g AS (SELECT x.*, x.xmin FROM {user_groups} x WHERE x.user_id = %(user)s),
m AS (SELECT x.*, x.xmin FROM {membership} x JOIN c ON x.competition_id = c.id
      WHERE x.user_id = %(user)s),
t AS (SELECT x.*, x.xmin FROM {team} x JOIN m ON x.id = m.team_id)
SELECT r.id, r.kind, r.timezone,
  (SELECT array_agg(b) FROM (SELECT opens_at AS b FROM p UNION ALL SELECT closes_at FROM p) q
   WHERE b IS NOT NULL),
  EXISTS(SELECT 1 FROM {user} u WHERE u.id = %(user)s AND u.is_active AND u.is_superuser)
    OR EXISTS(SELECT 1 FROM o WHERE o.user_id = %(user)s),
  md5(concat_ws(';',
    (SELECT c.id || ':' || c.xmin FROM c),
    r.id || ':' || r.xmin,
    (SELECT 'o' || string_agg(o.id || ':' || o.xmin, ',' ORDER BY o.id) FROM o),
    (SELECT 'p' || string_agg(p.id || ':' || p.xmin, ',' ORDER BY p.id) FROM p),
    (SELECT 'u' || u.id || ':' || u.xmin FROM {user} u WHERE u.id = %(user)s),
    (SELECT 'g' || string_agg(g.id || ':' || g.xmin, ',' ORDER BY g.id) FROM g),
    (SELECT 'up' || string_agg(x.id || ':' || x.xmin, ',' ORDER BY x.id)
     FROM {user_permissions} x WHERE x.user_id = %(user)s),
    (SELECT 'gp' || string_agg(x.id || ':' || x.xmin, ',' ORDER BY x.id)
     FROM {group_permissions} x JOIN g ON g.group_id = x.group_id),
    (SELECT 'oa' || count(*) FROM {organizers} x WHERE x.user_id = %(user)s),
    (SELECT 'n' || count(*) FROM {notification} x
     WHERE x.user_id = %(user)s AND x.read_at IS NULL),
    (SELECT 'm' || string_agg(m.id || ':' || m.xmin, ',' ORDER BY m.id) FROM m),
    (SELECT 't' || string_agg(t.id || ':' || t.xmin, ',' ORDER BY t.id) FROM t),
    (SELECT 'a' || string_agg(x.id || ':' || x.xmin, ',' ORDER BY x.id) FROM {anonymization} x
     WHERE x.team_id IN (SELECT id FROM t) AND x.phase_id IN (SELECT id FROM p)),
    (SELECT 'k' || string_agg(x.id || ':' || x.xmin, ',' ORDER BY x.id) FROM {attack} x
     WHERE x.team_id IN (SELECT id FROM t) AND x.phase_id IN (SELECT id FROM p)),
    (SELECT 'x' || string_agg(x.id || ':' || x.xmin || ':' || y.xmin, ',' ORDER BY x.id)
     FROM {target} x JOIN {team} y ON y.id = x.team_id WHERE x.round_id = r.id)
  ))
FROM r
""".format(**tables)


def round_state(*, competition_slug: str, round_slug: str, user_id: int | None):
    """``(round id, kind, time zone, phase boundaries, viewer organizes, digest)`` of the
    round as the viewer sees it now, or ``None`` for no such round. One statement, planned
    once per connection."""
    with prepared_cursor(connection) as cursor:
        cursor.execute(
            _state_sql(),
            {"competition": competition_slug, "round": round_slug, "user": user_id},
        )
        return cursor.fetchone()


def _expiry(now: dt.datetime, time_zone: str, boundaries) -> float:
    """The next moment the clock changes the page: a phase opening or closing, the round's
    next local midnight (quota days), or the longest a snapshot is kept."""
    moments = [now + dt.timedelta(seconds=max_seconds())]
    moments += [b for b in boundaries or () if b > now]
    try:
        local = now.astimezone(zoneinfo.ZoneInfo(time_zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        local = now.astimezone(dt.UTC)
    midnight = dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time(), local.tzinfo)
    moments.append(midnight)
    return min(moments).timestamp()


# --- Who is asking ---------------------------------------------------------------------------


def _viewer(cookies: dict, session) -> list | None:
    """The viewer part of a snapshot's key: a visitor without a session, or the account and
    session hash of a logged-in session; ``None`` when the request is not one a snapshot
    may answer (an anonymous session, flash messages waiting, an unknown backend)."""
    if session is None:
        return ["visitor"]
    user_id = session.get(SESSION_KEY)
    backend = session.get(BACKEND_SESSION_KEY)
    session_hash = session.get(HASH_SESSION_KEY)
    if user_id is None or not session_hash or backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    if "_messages" in session or "messages" in cookies:
        return None
    return ["user", str(user_id), session_hash, backend]


def _key(host: str, scheme: str, path: str, query: str, cookies: dict, accept_language: str):
    """A snapshot's cache key: the request as the page sees it, and the browser's session
    (none for a visitor): one lookup fetches it with the session. The snapshot also keeps
    its viewer (account, session hash, backend), which the session must still name."""
    parts = [
        _generation(),
        host,
        scheme,
        path,
        query,
        cookies.get(settings.LANGUAGE_COOKIE_NAME, ""),
        accept_language,
        cookies.get(settings.SESSION_COOKIE_NAME),
    ]
    return "snapshot:" + hashlib.sha256(json.dumps(parts).encode()).hexdigest()


def _user_id(viewer: list) -> int | None:
    return int(viewer[1]) if viewer[0] == "user" else None


# --- Recording (inside Django) ---------------------------------------------------------------


def snapshot_page(view, *, ranking: bool = True):
    """Decorate a view ``(request, competition_slug, round_slug, ...)`` whose GET answers may
    be snapshot: the state is read before the view runs; ``SnapshotMiddleware`` keeps the
    answer once every middleware has added its headers. ``ranking``: the page shows the
    round's rankings (their version is part of the snapshot's state)."""

    @functools.wraps(view)
    def wrapper(request, competition_slug, round_slug, *args, **kwargs):
        if request.method == "GET" and enabled():
            try:
                _plan(request, competition_slug, round_slug, ranking=ranking)
            except Exception:  # noqa: BLE001 - a snapshot is an optimisation, never an error
                logger.exception("snapshot plan failed")
        return view(request, competition_slug, round_slug, *args, **kwargs)

    return wrapper


def _plan(request, competition_slug: str, round_slug: str, *, ranking: bool) -> None:
    cookies = request.COOKIES
    has_session = settings.SESSION_COOKIE_NAME in cookies
    if has_session and not request.user.is_authenticated:
        return
    if not _CSRF_SECRET.match(cookies.get(settings.CSRF_COOKIE_NAME, "")):
        return
    viewer = _viewer(cookies, request.session if has_session else None)
    if viewer is None or (viewer[0] == "user" and int(viewer[1]) != request.user.pk):
        return
    state = round_state(
        competition_slug=competition_slug, round_slug=round_slug, user_id=_user_id(viewer)
    )
    if state is None:
        return
    round_id, kind, time_zone, boundaries, organizes, digest = state
    if kind not in SNAPSHOT_KINDS or organizes:
        return
    now = dt.datetime.now(dt.UTC)
    setattr(
        request,
        _PLAN_ATTRIBUTE,
        {
            "key": _key(
                request.get_host(),
                request.scheme,
                request.path,
                request.META.get("QUERY_STRING", ""),
                cookies,
                request.META.get("HTTP_ACCEPT_LANGUAGE", ""),
            ),
            "viewer": viewer,
            "params": [competition_slug, round_slug, _user_id(viewer)],
            "digest": digest,
            "versions": (
                {ranking_version_key(round_id): ranking_version(round_id=round_id)}
                if ranking
                else {}
            ),
            "expires": _expiry(now, time_zone, boundaries),
        },
    )


class SnapshotMiddleware:
    """First in ``MIDDLEWARE``: keeps the final answer of a page planned by
    ``snapshot_page`` (every other middleware's headers included)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(request, _HEALTHZ_ATTRIBUTE, False) and not response.cookies:
            _healthz_headers[:] = [
                (k, v) for k, v in response.items() if k.lower() not in _HEALTHZ_DROPPED
            ]
        plan = getattr(request, _PLAN_ATTRIBUTE, None)
        if plan is not None:
            try:
                _record(request, response, plan)
            except Exception:  # noqa: BLE001 - a snapshot is an optimisation, never an error
                logger.exception("snapshot record failed")
        return response


def _record(request, response, plan: dict) -> None:
    if response.streaming or response.status_code not in (200, 304):
        return
    if set(response.cookies) - {settings.CSRF_COOKIE_NAME}:
        return
    session = getattr(request, "session", None)
    if session is not None and session.modified:
        return
    seconds = plan["expires"] - time.time()
    if seconds < 1:
        return
    headers = [(k, v) for k, v in response.items() if k.lower() not in _DROPPED_HEADERS]
    entry = {
        "viewer": plan["viewer"],
        "params": plan["params"],
        "digest": plan["digest"],
        "versions": plan["versions"],
        "expires": plan["expires"],
        "etag": response.get("ETag"),
        "headers": headers,
        "body": None,  # a 304 answered by Django: only its ETag is known
        "csrf_cookie": False,
    }
    if response.status_code == 304:
        if not entry["etag"]:
            return
        known = cache.get(plan["key"])
        same = ("digest", "versions", "etag")
        if known and known["body"] is not None and all(known[k] == entry[k] for k in same):
            return  # the full answer under the same state is kept: it serves 304s too
    else:
        secret = request.META.get("CSRF_COOKIE", "")
        body = response.content.decode(response.charset)
        if secret:
            # Every form's token is a masking of the browser's secret: a slot in the
            # snapshot, filled with a masking of the next browser's own secret.
            body = _TOKEN.sub(
                lambda m: _CSRF_SLOT if _unmask_cipher_token(m.group()) == secret else m.group(),
                body,
            )
        entry.update(
            status=f"{response.status_code} {response.reason_phrase}",
            body=body.encode(response.charset),
            csrf_cookie=settings.CSRF_COOKIE_NAME in response.cookies,
        )
    cache.set(plan["key"], entry, int(seconds))


# --- Answering (before Django) ---------------------------------------------------------------


@functools.cache
def _session_store():
    return import_module(settings.SESSION_ENGINE).SessionStore


def answer(environ) -> tuple[str, list, bytes] | None:
    """The snapshot's answer to this WSGI request, or ``None`` (Django answers)."""
    if environ.get("REQUEST_METHOD") != "GET":
        return None
    path = environ.get("PATH_INFO", "")
    if path == "/healthz":
        return _healthz_answer(environ)
    if not _SNAPSHOT_PATH.match(path) or not _host_allowed(environ) or _must_redirect(environ):
        return None
    cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
    secret = cookies.get(settings.CSRF_COOKIE_NAME, "")
    if not _CSRF_SECRET.match(secret):
        return None
    key = _key(
        _host(environ),
        _scheme(environ),
        path,
        environ.get("QUERY_STRING", ""),
        cookies,
        environ.get("HTTP_ACCEPT_LANGUAGE", ""),
    )
    session_key = cookies.get(settings.SESSION_COOKIE_NAME)
    session = None
    if session_key is None:
        entry = cache.get(key)
    else:
        store = _session_store()(session_key)
        if settings.SESSION_CACHE_ALIAS == "default" and hasattr(store, "cache_key"):
            found = cache.get_many([store.cache_key, key])  # the session and the snapshot
            session, entry = found.get(store.cache_key), found.get(key)
        else:
            session, entry = store.load(), cache.get(key)
        if not session:
            return None  # none, or not in the cache: Django reads it (and caches it)
    if entry is None or entry["expires"] <= time.time():
        return None
    viewer = _viewer(cookies, session)
    if viewer is None or viewer != entry["viewer"]:
        return None
    if entry["versions"] and cache.get_many(list(entry["versions"])) != entry["versions"]:
        return None
    competition_slug, round_slug, user_id = entry["params"]
    state = round_state(competition_slug=competition_slug, round_slug=round_slug, user_id=user_id)
    if state is None or state[5] != entry["digest"] or state[4]:
        return None
    etag = entry["etag"]
    if etag and etag in parse_etags(environ.get("HTTP_IF_NONE_MATCH", "")):
        headers = [(k, v) for k, v in entry["headers"] if k.lower() not in _NOT_IN_304]
        return "304 Not Modified", [*headers, _HIT], b""
    body = entry["body"]
    if body is None:
        return None
    slot = _CSRF_SLOT.encode()
    if slot in body:
        body = body.replace(slot, _masked_token(secret).encode())
    headers = [*entry["headers"], ("Content-Length", str(len(body))), _HIT]
    if entry["csrf_cookie"]:
        headers.append(("Set-Cookie", _csrf_cookie(secret)))
    return entry["status"], headers, body


def healthz_page(view):
    """Decorate the /healthz view: ``SnapshotMiddleware`` keeps its answer's headers, and the
    next checks are answered before Django with them and a body the view's own selector
    computes (the endpoint is polled by load balancers and monitors: 1.0-1.4 ms of CPU
    through Django's request cycle, a third of that here)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        setattr(request, _HEALTHZ_ATTRIBUTE, True)
        return view(request, *args, **kwargs)

    return wrapper


def _healthz_answer(environ) -> tuple[str, list, bytes] | None:
    """What the /healthz view answers now, with the headers of Django's last answer (its
    ``Expires``, the moment of the answer, set anew)."""
    from django.core.serializers.json import DjangoJSONEncoder
    from django.utils.http import http_date

    from pwscup.core.selectors import system_health

    headers = list(_healthz_headers)
    if not headers or not _host_allowed(environ):
        return None
    health = system_health()
    body = json.dumps(health.as_json(), cls=DjangoJSONEncoder).encode()
    status = "200 OK" if health.healthy else "503 Service Unavailable"
    headers += [("Expires", http_date(time.time())), ("Content-Length", str(len(body)))]
    return status, headers, body


def _host(environ) -> str:
    """``HttpRequest.get_host()`` before its validation."""
    if settings.USE_X_FORWARDED_HOST and "HTTP_X_FORWARDED_HOST" in environ:
        return environ["HTTP_X_FORWARDED_HOST"]
    if "HTTP_HOST" in environ:
        return environ["HTTP_HOST"]
    host, port = environ.get("SERVER_NAME", ""), str(environ.get("SERVER_PORT", ""))
    default = "443" if _scheme(environ) == "https" else "80"
    return host if port in ("", default) else f"{host}:{port}"


def _host_allowed(environ) -> bool:
    """Django's own check of the Host header (a bad one is Django's 400)."""
    domain, _port = split_domain_port(_host(environ))
    allowed = settings.ALLOWED_HOSTS or (
        ["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else []
    )
    return bool(domain) and validate_host(domain, allowed)


def _scheme(environ) -> str:
    """``HttpRequest.scheme`` of this request (the proxy's header when one is trusted)."""
    if settings.SECURE_PROXY_SSL_HEADER:
        name, secure = settings.SECURE_PROXY_SSL_HEADER
        value = environ.get(name)
        if value is not None:
            return "https" if value.split(",", 1)[0].strip() == secure else "http"
    return environ.get("wsgi.url_scheme", "http")


def _must_redirect(environ) -> bool:
    """A plain-HTTP request that SecurityMiddleware would send to HTTPS."""
    return bool(settings.SECURE_SSL_REDIRECT) and _scheme(environ) != "https"


def _masked_token(secret: str) -> str:
    """``django.middleware.csrf._mask_cipher_secret(secret)``, the same cipher, with the mask
    drawn from random bytes at once (Django draws it a character at a time: 42 µs, half of
    that here). Bytes of 248 and more are dropped, so every character is equally likely."""
    count = len(CSRF_ALLOWED_CHARS)
    limit = 256 - 256 % count
    mask: list[int] = []
    while len(mask) < CSRF_SECRET_LENGTH:
        mask += [b % count for b in secrets.token_bytes(48) if b < limit]
    mask = mask[:CSRF_SECRET_LENGTH]
    cipher = (
        CSRF_ALLOWED_CHARS[(_CHAR_INDEX[c] + m) % count] for c, m in zip(secret, mask, strict=True)
    )
    return "".join(CSRF_ALLOWED_CHARS[m] for m in mask) + "".join(cipher)


_CHAR_INDEX = {c: i for i, c in enumerate(CSRF_ALLOWED_CHARS)}


def _csrf_cookie(secret: str) -> str:
    """The CSRF cookie renewed as Django's CsrfViewMiddleware renews it on a page with a form."""
    return _csrf_cookie_template(int(time.time())).replace(_CSRF_SLOT, secret)


@functools.lru_cache(maxsize=2)
def _csrf_cookie_template(second: int) -> str:
    """The cookie Django's ``set_cookie`` writes this second (its expiry date changes once a
    second), with a slot for the value."""
    from django.http import HttpResponse

    response = HttpResponse()
    response.set_cookie(
        settings.CSRF_COOKIE_NAME,
        _CSRF_SLOT,
        max_age=settings.CSRF_COOKIE_AGE,
        domain=settings.CSRF_COOKIE_DOMAIN,
        path=settings.CSRF_COOKIE_PATH,
        secure=settings.CSRF_COOKIE_SECURE,
        httponly=settings.CSRF_COOKIE_HTTPONLY,
        samesite=settings.CSRF_COOKIE_SAMESITE,
    )
    return response.cookies[settings.CSRF_COOKIE_NAME].OutputString()


def snapshot_fast_path(application):
    """The WSGI ``application`` answering what a snapshot can before Django sees it."""

    def fast_path(environ, start_response):
        if enabled():
            try:
                found = answer(environ)
            except Exception:  # noqa: BLE001 - Django answers instead (and reconnects)
                logger.exception("snapshot answer failed")
                connection.close()
                found = None
            if found is not None:
                status, headers, body = found
                start_response(status, headers)
                return [body]
        return application(environ, start_response)

    return fast_path
