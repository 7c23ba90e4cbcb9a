"""The scorer round in the REST API: its endpoints (``views.py``, the downloads in
``files.py``) and its answers to the API's round status and standings, the same shape for
every kind (``round_status.py``)."""

from pwscup.scorer.api.round_status import round_leaderboard, round_status
from pwscup.scorer.api.views import urlpatterns

__all__ = ["round_leaderboard", "round_status", "urlpatterns"]
