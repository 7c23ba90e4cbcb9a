"""The 2015 game's endpoints, mounted by the API under /api/ in its namespace
(``RoundKind.api_url_patterns``): ``reverse("api:leaderboard", args=[comp, round])``. Its
uploads (``api:submissions``, ``api:attacks`` and each one's) are declared
(``submissions.py``) and served by the core; their former addresses answer 308 to them
(``legacy.py``)."""

from django.urls import path

from pwscup.core.rest import ROUND_PREFIX as ROUND
from pwscup.pwscup2015.api import legacy, views_round
from pwscup.pwscup2015.api import views_results as results

urlpatterns = [
    path(ROUND, views_round.RoundDetailView.as_view(), name="round-detail"),
    path(ROUND + "leaderboard/", results.LeaderboardView.as_view(), name="leaderboard"),
    path(ROUND + "matrix/", results.MatrixView.as_view(), name="matrix"),
    path(ROUND + "final/", results.FinalRankingView.as_view(), name="final"),
    *legacy.urlpatterns,
]
