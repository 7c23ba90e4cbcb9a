"""The site's side of the kinds' pages: the round page dispatch and the mounting of every
kind's URL patterns (its pages and its console pages). A kind's views use
``pwscup.accounts.access.kind_view``."""

import functools
import re

from django.core.exceptions import ImproperlyConfigured
from django.urls import Resolver404, URLPattern, URLResolver, include, path, register_converter

from pwscup.accounts.access import EXPECTED_KIND_ATTRIBUTE, kind_view, round_access
from pwscup.kinds.registry import all_kinds, kind_of
from pwscup.kinds.tabs import OVERVIEW, TabConverter
from pwscup.pages import data_choice, live
from pwscup.pages.declared import declared_round_page, send_pages, standings_csv
from pwscup.pages.voids import void_pages

ROUND_PREFIX = "c/<slug:competition_slug>/<slug:round_slug>/"
# A round's address with a value in each part (``_sample_path``).
_SAMPLE_ROUND = "c/competition/round/"
_CONVERTED = re.compile(r"<[^<>]+>")

register_converter(TabConverter, "round_tab")


def round_page(request, competition_slug, round_slug, tab=OVERVIEW):
    """``c/<comp>/<round>/`` (the overview) and ``c/<comp>/<round>/<tab>/``: the round's own
    kind draws the tab (``pwscup.kinds.tabs``).

    A kind whose ``round_page`` answers ``None`` gets the tabs drawn from its declarations
    (``pwscup.pages.declared``). A tab showing the team's jobs follows them live: ``static/live.js`` polls the team's
    version (``pwscup.pages.live``) and fetches the tab's fragment only when it moved.
    """
    access = round_access(request, competition_slug, round_slug)
    kind = kind_of(access.round)
    page = kind.round_page(request, access, tab)
    return declared_round_page(kind, request, access, tab) if page is None else page


def _confined(callback, key: str):
    """``callback`` with the request marked: ``round_access`` answers 404 for a round of
    another kind (every view under a kind's URLs is confined to its rounds, even one that
    calls ``round_access`` itself rather than using ``kind_view``)."""

    @functools.wraps(callback)
    def wrapper(request, *args, **kwargs):
        setattr(request, EXPECTED_KIND_ATTRIBUTE, key)
        return callback(request, *args, **kwargs)

    return wrapper


def _confine_patterns(patterns, key: str) -> list:
    confined = []
    for entry in patterns:
        if isinstance(entry, URLPattern):
            confined.append(
                URLPattern(
                    entry.pattern, _confined(entry.callback, key), entry.default_args, entry.name
                )
            )
        elif isinstance(entry, URLResolver):
            confined.append(
                URLResolver(
                    entry.pattern,
                    _confine_patterns(entry.url_patterns, key),
                    entry.default_kwargs,
                    entry.app_name,
                    entry.namespace,
                )
            )
        else:
            raise TypeError(f"Unexpected URL entry {entry!r} in the round kind {key!r}.")
    return confined


def _endpoint_page(endpoint, key: str):
    """A kind's declared endpoint (``RoundEndpoint.page_name``) as one of its pages."""

    @kind_view(key)
    def page(request, access, **kwargs):
        return endpoint.answer(request, access, endpoint.part(access), **kwargs)

    return page


def endpoint_pages(kind) -> list:
    """The kind's declared endpoints that are also pages, at their routes."""
    return [
        path(endpoint.route, _endpoint_page(endpoint, kind.key), name=endpoint.page_name)
        for endpoint in kind.api_round_endpoints()
        if endpoint.page_name
    ]


def kind_console_urlpatterns() -> list:
    """Every kind's console pages under ``console/<comp>/<key>/``, namespace ``<key>_console``."""
    return [
        path(
            f"console/<slug:competition_slug>/{kind.key}/",
            include((patterns, f"{kind.key}_console"), namespace=f"{kind.key}_console"),
        )
        for kind in all_kinds()
        if (patterns := kind.console_url_patterns())
    ]


def kind_site_urlpatterns() -> list:
    """Every kind's pages whose address names no round (``RoundKind.site_url_patterns``), at
    the site's root, each in its namespace."""
    patterns = []
    for kind in all_kinds():
        own = kind.site_url_patterns()
        if not own:
            continue
        if kind.namespace:
            patterns.append(path("", include((own, kind.namespace), namespace=kind.namespace)))
        else:
            patterns.append(path("", include(own)))
    return patterns


def kind_urlpatterns() -> list:
    """The round page and its tabs, the live status's polls, then every registered kind's pages under
    ``ROUND_PREFIX``, each in its namespace (read when the URLconf loads: after every app's
    ``ready()``)."""
    patterns = [
        path(ROUND_PREFIX, round_page, name="round_detail"),
        path(ROUND_PREFIX + "<round_tab:tab>/", round_page, name="round_tab"),
        # The live status's polls (every kind's pages and the console's round page).
        path(ROUND_PREFIX + "live/team/", live.team_poll, name="live_team"),
        path(ROUND_PREFIX + "live/round/", live.round_poll, name="live_round"),
        # A team's pick of the round's data pack (the Data tab of every kind).
        path(ROUND_PREFIX + "data-choice/", data_choice.data_choice_pick, name="data_choice"),
        # The round's standings (every kind's ``api_leaderboard``) as CSV, one table a file.
        path(ROUND_PREFIX + "standings.csv", standings_csv, name="round_standings_csv"),
    ]
    for kind in all_kinds():
        pages = [*kind.url_patterns(), *endpoint_pages(kind), *send_pages(kind), *void_pages(kind)]
        _routes_free(pages, taken=patterns, key=kind.key)
        confined = _confine_patterns(pages, kind.key)
        if kind.namespace:
            patterns.append(
                path(ROUND_PREFIX, include((confined, kind.namespace), namespace=kind.namespace))
            )
        else:
            patterns.append(path(ROUND_PREFIX, include(confined)))
    return patterns


def _routes(patterns, prefix: str = ""):
    """Every route of ``patterns`` with the routes of the includes it passes through."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        else:
            yield prefix + str(entry.pattern)


def _resolves(patterns, path_info: str):
    """The match of ``path_info`` by the first of ``patterns`` that answers it, else ``None``."""
    try:
        return path("", include(patterns)).resolve(path_info)
    except Resolver404:
        return None


def _routes_free(pages, *, taken, key: str) -> None:
    """Refuse a kind's page at a route that ``taken`` (the core's round pages and the kinds
    mounted before it) already answers: the first pattern that matches a path answers it, so
    the kind's page would never be reached, the other one answering 404 on its rounds. Each
    route is tried with a value in each converted part (``1``: an int, a slug, a str); a
    route whose own pattern does not take that value is not tried."""
    for route in _routes(pages):
        sample = _SAMPLE_ROUND + _CONVERTED.sub("1", route)
        if _resolves([path(ROUND_PREFIX, include(pages))], sample) is None:
            continue
        earlier = _resolves(taken, sample)
        if earlier is not None:
            raise ImproperlyConfigured(
                f"The round kind {key!r} has a page at {route!r} under the round, which the "
                f"page {earlier.view_name!r} answers first: give the kind's pages a folder "
                f"of their own ('{key}/...')."
            )
