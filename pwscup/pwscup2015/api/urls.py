"""The 2015 game's endpoints, mounted by the API under /api/ in its namespace
(``RoundKind.api_url_patterns``): ``reverse("api:submissions", args=[comp, round])``."""

from django.urls import path

from pwscup.core.rest import ROUND_PREFIX as ROUND
from pwscup.pwscup2015.api import views_results as results
from pwscup.pwscup2015.api import views_round
from pwscup.pwscup2015.api import views_uploads as uploads

urlpatterns = [
    path(ROUND, views_round.RoundDetailView.as_view(), name="round-detail"),
    path(ROUND + "submissions/", uploads.SubmissionListView.as_view(), name="submissions"),
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
]
