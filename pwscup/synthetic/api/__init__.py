"""The synthetic round in the REST API: its uploads as declared submission types, whose
endpoints the core serves (``submissions.py``), its own endpoints (``views.py``) and its
answers to the API's round status and standings, the same shape for every kind
(``round_status.py``)."""

from pwscup.synthetic.api.round_status import round_leaderboard, round_status
from pwscup.synthetic.api.submissions import SUBMISSION_TYPES
from pwscup.synthetic.api.views import ROUND_ENDPOINTS

__all__ = ["ROUND_ENDPOINTS", "SUBMISSION_TYPES", "round_leaderboard", "round_status"]
