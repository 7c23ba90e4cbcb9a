"""The scorer round's choice of the final release (its release and attack forms post to the
core's targets of the declared types, ``api/submissions.py``: ``pwscup.pages.declared``). It
keeps the choice through one service and goes back to the Submit tab with a message; a
request that asks for JSON (``Accept: application/json``) gets the answer as JSON."""

from pwscup.scorer import KEY, services
from pwscup.scorer.views.common import own_upload
from pwscup.submissions.round_pages import release_select_view

release_select = release_select_view(
    KEY,
    lambda access, pk: own_upload(access, "releases", pk),
    services.release_select,
)
