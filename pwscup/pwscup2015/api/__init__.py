"""The 2015 round in the REST API: its uploads as declared submission types
(``submissions.py``), its files as declared round endpoints (``files.py``), its own endpoints
(``urls.py``: the leaderboard, matrix and final ranking; the uploads' former addresses) and
its answers to the API's round status and standings, the same shape for every kind
(``round_status.py``). The core finds this package by its name (the kind's ``api_module``)."""

from pwscup.pwscup2015.api.files import ROUND_ENDPOINTS
from pwscup.pwscup2015.api.round_status import round_leaderboard, round_status
from pwscup.pwscup2015.api.submissions import SUBMISSION_TYPES
from pwscup.pwscup2015.api.urls import urlpatterns

__all__ = [
    "ROUND_ENDPOINTS",
    "SUBMISSION_TYPES",
    "round_leaderboard",
    "round_status",
    "urlpatterns",
]
