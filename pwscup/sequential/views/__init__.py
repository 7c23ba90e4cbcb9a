"""The sequential round's pages for participants (organizers see them too): ``pages`` (the
round page, a release's page, the leaderboard) and ``downloads`` (the team's tables, the
configuration, releases, risk tables, targets); the upload forms post to the core's targets
of the declared types (``api/submissions.py``: ``seq/releases/send/``, ``seq/attacks/send/``,
``pwscup.pages.declared``); who may see what is ``pwscup.sequential.access`` (the API's too). Each view is
thin: it calls one service or selector. The organizer's forms of the console panel are in
:mod:`pwscup.sequential.console`. The core finds this package by its name (the kind's
``views_module``: ``urlpatterns``, ``round_page``)."""

from django.urls import path

from pwscup.sequential import console
from pwscup.sequential.views import downloads, pages
from pwscup.sequential.views.tabs import round_page

urlpatterns = [
    path("seq/kit.zip", downloads.kit_download, name="kit"),
    path("seq/sample.csv", downloads.sample_download, name="sample"),
    path("seq/releases/<int:pk>/", pages.release_detail, name="release"),
    path("seq/releases/<int:pk>/file.csv", downloads.release_file, name="release_file"),
    path(
        "seq/releases/<int:pk>/risk_per_person.csv",
        downloads.release_risk_csv,
        name="release_risk",
    ),
    path("seq/leaderboard/", pages.leaderboard, name="leaderboard"),
    path("seq/organizer/<slug:action>/", console.organizer_action, name="action"),
]

__all__ = ["round_page", "urlpatterns"]
