"""Mounted at /api/ by pwscup/urls.py; every name is in the ``api`` namespace.

Slugs are matched as ``str`` (any text without a slash) so that a wrong one reaches the view
and gets the API's JSON 404, and anything else under /api/ too (the last pattern)."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView

from pwscup.api.views import competitions, docs, results, uploads
from pwscup.api.views.common import not_found
from pwscup.dp import api as dp_api

app_name = "api"

ROUND = "v1/competitions/<str:competition_slug>/rounds/<str:round_slug>/"

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
    path(ROUND, competitions.RoundDetailView.as_view(), name="round-detail"),
    path(ROUND + "original.csv", competitions.OriginalDownloadView.as_view(), name="original"),
    path(ROUND + "submissions/", uploads.SubmissionListView.as_view(), name="submissions"),
    path(ROUND + "targets/", uploads.TargetListView.as_view(), name="targets"),
    path(
        ROUND + "targets/<str:team_slug>/anonymized.csv",
        uploads.TargetFileView.as_view(),
        name="target-anonymized",
    ),
    path(
        ROUND + "targets/<str:team_slug>/candidate.csv",
        uploads.CandidateFileView.as_view(),
        name="target-candidate",
    ),
    path(ROUND + "attacks/", uploads.AttackListView.as_view(), name="attacks"),
    path(ROUND + "leaderboard/", results.LeaderboardView.as_view(), name="leaderboard"),
    path(ROUND + "matrix/", results.MatrixView.as_view(), name="matrix"),
    path(ROUND + "final/", results.FinalRankingView.as_view(), name="final"),
    path(
        "v1/submissions/<int:pk>/", uploads.SubmissionDetailView.as_view(), name="submission-detail"
    ),
    path(
        "v1/submissions/<int:pk>/file", uploads.SubmissionFileView.as_view(), name="submission-file"
    ),
    path(
        "v1/submissions/<int:pk>/select/",
        uploads.SubmissionSelectView.as_view(),
        name="submission-select",
    ),
    path("v1/attacks/<int:pk>/", uploads.AttackDetailView.as_view(), name="attack-detail"),
    path("v1/attacks/<int:pk>/file", uploads.AttackFileView.as_view(), name="attack-file"),
    # The DP round kind's endpoints (pwscup/dp/api.py).
    path(ROUND, include(dp_api.api_urlpatterns)),
    # Last: any other path under /api/ is a JSON 404, not the site's HTML page.
    re_path(r"^", not_found, name="not-found"),
]
