"""Mounted at /api/ by pwscup/urls.py; every name is in the ``api`` namespace.

The API's own endpoints (who I am, the competitions, my team, a round's status and standings
whatever its kind), then every round kind's
(``RoundKind.api_url_patterns``, read when the URLconf loads: after every app's ``ready()``).
Slugs are matched as ``str`` (any text without a slash) so that a wrong one reaches the view
and gets the API's JSON 404, and anything else under /api/ too (the last pattern)."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView

from pwscup.api.views import competitions, data_choice, docs, rounds, standings
from pwscup.api.views.files import endpoint_urlpatterns
from pwscup.api.views.submissions import submission_urlpatterns
from pwscup.core.rest import ROUND_PREFIX, not_found
from pwscup.kinds import all_kinds

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs.DocsView.as_view(), name="docs"),
    path("v1/me/", competitions.MeView.as_view(), name="me"),
    path("v1/competitions/", competitions.CompetitionListView.as_view(), name="competitions"),
    path(
        "v1/competitions/<str:competition_slug>/",
        competitions.CompetitionDetailView.as_view(),
        name="competition-detail",
    ),
    path(
        "v1/competitions/<str:competition_slug>/team/",
        competitions.TeamView.as_view(),
        name="team",
    ),
    path(
        "v1/competitions/<str:competition_slug>/standings/",
        standings.CompetitionStandingsView.as_view(),
        name="competition-standings",
    ),
    path(
        "v1/competitions/<str:competition_slug>/standings/<str:division_key>/",
        standings.CompetitionStandingsDivisionView.as_view(),
        name="competition-standings-division",
    ),
    path(ROUND_PREFIX + "status/", rounds.RoundStatusView.as_view(), name="round-status"),
    path(ROUND_PREFIX + "standings/", rounds.RoundStandingsView.as_view(), name="round-standings"),
    path(
        ROUND_PREFIX + "data-choice/",
        data_choice.DataChoiceView.as_view(),
        name="round-data-choice",
    ),
    # Every kind's declared submission types, served by the core, then its own endpoints.
    *(pattern for kind in all_kinds() for pattern in submission_urlpatterns(kind)),
    *(pattern for kind in all_kinds() for pattern in endpoint_urlpatterns(kind)),
    *(pattern for kind in all_kinds() for pattern in kind.api_url_patterns()),
    # Last: any other path under /api/ is a JSON 404, not the site's HTML page.
    re_path(r"^", not_found, name="not-found"),
]
