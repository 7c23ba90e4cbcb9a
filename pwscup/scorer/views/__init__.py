"""The scorer round's pages for participants (organizers see them too): the five tabs
(``tabs``, read through ``tab_context`` and ``results_context``), the final choice
(``uploads``; the release and attack forms post to the core's targets of the declared types,
``scorer/releases/send/`` and ``scorer/attacks/send/``) and the downloads (``downloads``: the public pack, the
team's slot folder, the frozen targets' public ZIPs, a team's uploads as uploaded and their
detailed results page); ``common`` holds who may see what. The core finds this
package by its name (the kind's ``views_module``: ``urlpatterns``, ``round_page`` and
``results_url``)."""

from django.urls import path

from pwscup.scorer.views import downloads, uploads
from pwscup.scorer.views.tabs import round_page
from pwscup.submissions.round_pages import results_tab_url as results_url

UPLOAD_KINDS = "<str:kind>/<int:pk>/"

urlpatterns = [
    path("scorer/slots/<slug:team_slug>.zip", downloads.slot_folder, name="slot_folder"),
    path(
        "scorer/targets/<slug:team_slug>/public.zip", downloads.target_public, name="target_public"
    ),
    path("scorer/releases/<int:pk>/select/", uploads.release_select, name="select"),
    path("scorer/attacks/<int:pk>/select/", uploads.attack_select, name="attack_select"),
    path("scorer/releases/<int:pk>/public.zip", downloads.release_public, name="release_public"),
    path("scorer/" + UPLOAD_KINDS + "file", downloads.upload_file, name="upload_file"),
    path("scorer/" + UPLOAD_KINDS + "detail/", downloads.upload_detail, name="upload_detail"),
]


__all__ = ["results_url", "round_page", "urlpatterns"]
