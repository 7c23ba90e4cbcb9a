"""The synthetic round's pages for participants (organizers see them too): the five tabs
(``tabs``, read through ``tab_context``), the final choice (``uploads``; the release and
attack forms post to the core's targets of the declared types) and the downloads
(``downloads``: the team's members table, its releases, the published targets; their
challenge sets and the auxiliary table are the declared endpoints', ``api/views.py``,
served at the same addresses among the pages);
``common`` holds who may see what. The core finds this package by its name (the kind's
``views_module``: ``urlpatterns``, ``round_page`` and ``results_url``)."""

from django.urls import path

from pwscup.submissions.round_pages import results_tab_url as results_url
from pwscup.synthetic.views import downloads, uploads
from pwscup.synthetic.views.tabs import round_page

urlpatterns = [
    path("syn/train.csv", downloads.train_download, name="train"),
    path("syn/kit.zip", downloads.kit_download, name="kit"),
    path(
        "syn/targets/<slug:team_slug>/synthetic.csv",
        downloads.target_release,
        name="target_release",
    ),
    path("syn/releases/<int:pk>/file.csv", downloads.release_file, name="release_file"),
    path("syn/releases/<int:pk>/select/", uploads.release_select, name="select"),
]


__all__ = ["results_url", "round_page", "urlpatterns"]
