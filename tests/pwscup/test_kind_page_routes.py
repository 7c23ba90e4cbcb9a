"""Every kind's pages share the round's address, ``c/<competition>/<round>/``, and the first
pattern that matches a path answers it (Django's rule): a kind's page whose route the core or
an earlier kind already answers would be reached by that page instead, which answers 404 on
another kind's round. Such a kind stops the URLconf from loading, naming the route, rather
than losing its page without a word."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.urls import path

from pwscup.kinds import RoundKind, register, unregister
from pwscup.pages.kinds import kind_urlpatterns


def _page(request, **kwargs):
    return HttpResponse("mine")


class _RoutedKind(RoundKind):
    """A throwaway kind whose only pages are ``routes`` (no module found by name)."""

    key = "routedkind"
    label = "Routed kind"
    routes: tuple[str, ...] = ()

    def url_patterns(self):
        return [path(route, _page, name=f"page-{n}") for n, route in enumerate(self.routes)]


def _mounted(*routes):
    kind = _RoutedKind()
    kind.routes = routes
    register(kind)
    try:
        return kind_urlpatterns()
    finally:
        unregister(kind.key)


@pytest.mark.parametrize(
    "route",
    [
        "leaderboard/",  # the first kind's leaderboard (its pages are mounted first)
        "attack/",  # the first kind's attack upload
        "data/",  # the core's Data tab
        "live/team/",  # the core's live status
        "dp/levels/<str:level>/",  # another kind's page, a converter in it
    ],
)
def test_a_kind_s_page_at_a_route_already_answered_stops_the_urlconf(route):
    with pytest.raises(ImproperlyConfigured) as refused:
        _mounted("mine/", route)
    assert repr(route) in str(refused.value)
    assert "routedkind" in str(refused.value)


def test_a_kind_s_pages_in_a_folder_of_their_own_are_mounted():
    patterns = _mounted("routed/leaderboard/", "routed/<int:pk>/file", "routed/data/")
    assert len(patterns) == len(kind_urlpatterns()) + 1
