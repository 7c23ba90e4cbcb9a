"""The synthetic round's pages for participants (organizers see them too): the five tabs
(``tabs``, read through ``tab_context``), the downloads and who may see them (``downloads``:
the team's members table, its releases, the published targets; their challenge sets and the
auxiliary table are the declared endpoints', ``api/views.py``, served at the same addresses
among the pages) and the choice of the final release (``release_select``: the core's view,
one service; its release and attack forms post to the core's targets of the declared types,
``api/submissions.py``: ``syn/releases/send/``, ``syn/attacks/send/``). The core finds this
package by its name (the kind's ``views_module``: ``urlpatterns``, ``round_page`` and
``results_url``)."""

from django.urls import path

from pwscup.submissions.round_pages import release_select_view
from pwscup.submissions.round_pages import results_tab_url as results_url
from pwscup.synthetic import KEY, services
from pwscup.synthetic.views import downloads
from pwscup.synthetic.views.tabs import round_page

# Back to the Submit tab with a message, or JSON to a request that asks for it.
release_select = release_select_view(KEY, downloads.own_release, services.release_select)

urlpatterns = [
    path("syn/train.csv", downloads.train_download, name="train"),
    path("syn/kit.zip", downloads.kit_download, name="kit"),
    path(
        "syn/targets/<slug:team_slug>/synthetic.csv",
        downloads.target_release,
        name="target_release",
    ),
    path("syn/releases/<int:pk>/file.csv", downloads.release_file, name="release_file"),
    path("syn/releases/<int:pk>/select/", release_select, name="select"),
]


__all__ = ["results_url", "round_page", "urlpatterns"]
