"""The DP round in the REST API: its own endpoints (``views.py``: queries, releases, the
ledger, an estimate's upload), its declared estimates (``submissions.py``: their list, one
estimate, voids), its declared round endpoints and its answers to the API's round status
and standings, the same shape for every kind (``round_status.py``). The core finds this
package by its name (the kind's ``api_module``)."""

from pwscup.dp.api.round_status import ROUND_ENDPOINTS, round_leaderboard, round_status
from pwscup.dp.api.submissions import SUBMISSION_TYPES
from pwscup.dp.api.views import api_urlpatterns

urlpatterns = [*api_urlpatterns]

__all__ = ["ROUND_ENDPOINTS", "SUBMISSION_TYPES", "round_leaderboard", "round_status"]
